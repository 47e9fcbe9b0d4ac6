/**
 * The IPC contract's public import path: the contract lives in ./ipc/ (one file per domain, assembled by
 * ./ipc/index.ts, where a new channel is named).
 */
export * from './ipc/index.js';

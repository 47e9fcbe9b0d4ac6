/** Money: deposit information, balance, withdrawals (validated, idempotent, tracked across restarts) and history. */
export * from './funds.js';
export * from './withdrawalStore.js';
export * from './withdrawals/index.js';
export * from './tracker.js';

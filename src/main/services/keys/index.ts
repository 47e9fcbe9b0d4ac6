/** Trading keys (agents): create, authorize (and the offline ceremony), list, revoke, renew, explain a 403; the paper quick start. */
export * from './common.js';
export * from './create.js';
export * from './authorize.js';
export * from './list.js';
export * from './revoke.js';
export * from './renew.js';
export * from './explainForbidden.js';
export * from './quickstart.js';

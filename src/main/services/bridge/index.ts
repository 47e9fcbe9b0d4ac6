/** Bridge transfers: quotes, route choice, encoding within the requestId lifetime, sending, tracking. */
export * from './params.js';
export * from './coreSpotRules.js';
export * from './routes.js';
export * from './quotes.js';
export * from './encode.js';
export * from './send.js';
export * from './track.js';

export * from './envelope.js';
export * from './statuses.js';
export * from './schemas/common.js';
export * from './schemas/config.js';
export * from './schemas/tradingKeys.js';
export * from './schemas/orders.js';
export * from './schemas/account.js';
export * from './schemas/companion.js';

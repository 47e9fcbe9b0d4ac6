export * from './decimal.js';
export * from './usdc.js';

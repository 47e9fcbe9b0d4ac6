/** Orders: validation, slippage bounds, building and signing legs, placing, brackets, tracking, modify, cancel. */
export * from './orderContext.js';
export * from './orderValidation.js';
export * from './slippage.js';
export * from './buildOrder.js';
export * from './brackets.js';
export * from './prepareOrder.js';
export * from './submitOrder.js';
export * from './strategies/registry.js';
export type { OrderStrategy, ExpandEnv, ExpandedOrder } from './strategies/strategy.js';
export * from './orderTracker.js';
export * from './modifyOrder.js';
export * from './cancelOrders.js';

/** Aggregator swaps with the partner code, signed and sent from the main wallet. */
export * from './quote.js';
export * from './execute.js';
export * from './floor.js';

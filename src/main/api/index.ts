/** HTTP clients of the trading API and their typed failures. */
export * from './errors.js';
export * from './http.js';
export * from './retry.js';
export * from './tradingApiClient.js';

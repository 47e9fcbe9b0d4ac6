/** The portfolio rebuilt from the service's records: ranges, the ledger, and the figures. */
export * from './ranges.js';
export * from './ledger.js';
export * from './portfolio.js';

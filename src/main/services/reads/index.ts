/** Account reads with full page walks, and CSV export. */
export * from './accountReads.js';
export * from './csv.js';
export * from './history.js';

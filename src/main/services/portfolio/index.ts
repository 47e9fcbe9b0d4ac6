/** The portfolio rebuilt from the service's records (issue 27, item 1). */
export * from './readPortfolio.js';
export * from './portfolioCsv.js';

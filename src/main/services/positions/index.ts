/** Positions: close (lifecycle rule 4), reverse (rule 5), isolated margin, and waiting for /positions to catch up. */
export * from './positionWaits.js';
export * from './closePosition.js';
export * from './margin.js';

/** Positions: close (lifecycle rule 4: all, part, at a limit; every position at once), reverse (rule 5), TP/SL on the position, isolated margin, and waiting for /positions to catch up. */
export * from './positionWaits.js';
export * from './closePosition.js';
export * from './closeAll.js';
export * from './positionTpsl.js';
export * from './margin.js';
export * from './exitFills.js';
export * from './protection.js';
export * from './rearm.js';
export * from './scaleOut.js';

/** Trailing stops: arming and turning off, the runner that keeps the stop trailing, its record store. */
export * from './armTrail.js';
export * from './trailRunner.js';
export * from './trailStore.js';
export * from './trailView.js';

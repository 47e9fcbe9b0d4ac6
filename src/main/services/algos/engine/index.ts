/** The one engine of the long-running algorithms: the runner, its events, its notes, and what a failed write means. */
export * from './algoEvents.js';
export * from './algoNotes.js';
export * from './algoRunner.js';
export * from './mayHaveLanded.js';

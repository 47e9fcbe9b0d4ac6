/** One-cancels-the-other entries: prepare, start, the runner that cancels the other leg once, its store, and cancelling a pair. */
export * from './ocoRunner.js';
export * from './cancelOco.js';

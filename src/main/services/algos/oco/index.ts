/** One-cancels-the-other entries: prepare, start, the runner that cancels the other leg once, its store. */
export * from './ocoRunner.js';

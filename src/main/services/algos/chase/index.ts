/** Chase orders: a post-only limit that follows the best bid or ask by Modify until it fills (on the algorithms' one engine). */
export * from './chaseBookFeed.js';
export * from './chaseIntentLog.js';
export * from './chaseRunner.js';
export * from './chaseStore.js';
export * from './prepareChase.js';

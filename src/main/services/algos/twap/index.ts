/** TWAPs: the plan and review, the scheduler, its file in the data folder, its run lock, and control. */
export * from './twapPlan.js';
export * from './twapRunner.js';
export * from './twapControl.js';
export * from './twapView.js';
export * from './twapRecord.js';
export { TwapStore, type DamagedTwap } from './twapStore.js';
export { liveRunner, type RunLockHolder } from './twapLock.js';

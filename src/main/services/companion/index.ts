/** Wiring of the companion interfaces for the use cases: URLs and settings, clients, failures. */
export * from './companionSettings.js';
export * from './companionFailures.js';
export * from './companionContext.js';

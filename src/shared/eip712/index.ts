export * from './domain.js';
export * from './hash.js';
export * from './signature.js';
export * from './builders.js';

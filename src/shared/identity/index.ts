export * from './address.js';

/** Chase orders' pure rules: where the order rests and when it moves, the book it reads, its flags, its record. */
export * from './chaseBook.js';
export * from './chaseFlags.js';
export * from './chasePrice.js';
export * from './chaseRecord.js';

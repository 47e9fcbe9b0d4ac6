/** Partner points: estimates before a bridge or swap, credited totals and bonuses for a range. */
export * from './estimate.js';
export * from './leaderboard.js';

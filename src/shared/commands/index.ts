export * from './commandIntents.js';
export * from './commandViews.js';
export * from './marketWords.js';
export * from './phraseGrammar.js';
export * from './phraseTokens.js';

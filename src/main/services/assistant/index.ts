/** The assistant: the inference API key in the keychain, and questions about the user's own account. */
export * from './apiKeyStore.js';
export * from './accountContext.js';
export * from './assistant.js';

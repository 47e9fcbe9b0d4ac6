export * from './tradingKeyVault.js';
export * from './vaultError.js';
export type { Keychain } from './keychain.js';

export * from './tradingKeyVault.js';
export * from './paperWalletVault.js';
export * from './vaultError.js';
export type { Keychain } from './keychain.js';

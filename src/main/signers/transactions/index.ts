/** Main-wallet signers of source-chain transactions (bridge, swap, ERC-20 approve). */
export * from './transactionSigner.js';
export * from './walletTransactionSigner.js';
export * from './ledgerTransactionSigner.js';
export * from './privateKeyTransactionSigner.js';

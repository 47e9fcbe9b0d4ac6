/** Chain ids, token inputs, ERC-20 allowance and sending prepared transactions through a chain's JSON-RPC. */
export * from './chainIds.js';
export * from './erc20.js';
export * from './sendTransaction.js';

/** Shared test data: custody typed data for a known key, and signatures made with it. */
import { Wallet } from 'ethers';
import { authorizeAgentTypedData, bytesToHex, digestOf, revokeAgentTypedData, withdrawTypedData, type TypedData } from '../../../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../../../src/shared/identity/index.js';

/** A throwaway key known to the tests (never holds funds). */
export const WALLET_KEY = new Wallet('0x' + '11'.repeat(32));
export const OTHER_KEY = new Wallet('0x' + '22'.repeat(32));
export const WALLET = WALLET_KEY.address;
export const AGENT = '0x3333333333333333333333333333333333333333';
export const PATH = "m/44'/60'/0'/0/0";
export const FINGERPRINT = 'f23f9fd2';
export const REQUEST_ID = '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d';

export const authorize = authorizeAgentTypedData({
  wallet_address: WALLET,
  agent_wallet_address: AGENT,
  service_environment: 'Mainnet',
  signature_chain_id: 42161,
  expires_at: 1_767_225_600_000,
  nonce: 1_760_000_000_000,
});
export const revoke = revokeAgentTypedData({ wallet_address: WALLET, agent_wallet_address: AGENT, service_environment: 'Mainnet', signature_chain_id: 999, nonce: 1_760_000_000_001 });
export const withdraw = withdrawTypedData({ account_id: accountIdFromWallet(WALLET), amount: '25.5', nonce: '1760000000002', signature_chain_id: 999 }, 'Mainnet');

/** 65-byte r || s || v hex, v 27/28, over the EIP-712 digest. */
export function signWith(key: Wallet, data: TypedData): string {
  return key.signingKey.sign(bytesToHex(digestOf(data))).serialized;
}

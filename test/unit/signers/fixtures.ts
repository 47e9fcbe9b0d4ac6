/** Typed data and an independent (ethers) signer for the signer tests. */
import { Wallet, verifyTypedData, type TypedDataField } from 'ethers';
import { authorizeAgentTypedData, withdrawTypedData, type TypedData } from '../../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';

export function withdrawData(wallet: string, amount = '25'): TypedData {
  return withdrawTypedData({ account_id: accountIdFromWallet(wallet), amount, nonce: '1700000000000', signature_chain_id: 421614 }, 'Testnet');
}

export function authorizeData(wallet: string, agent: string): TypedData {
  return authorizeAgentTypedData({
    wallet_address: wallet,
    agent_wallet_address: agent,
    service_environment: 'Testnet',
    signature_chain_id: 421614,
    expires_at: 1_800_000_000_000,
    nonce: 1_700_000_000_001,
  });
}

/** ethers wants the types without EIP712Domain. */
function ethersTypes(data: TypedData): Record<string, TypedDataField[]> {
  const { EIP712Domain: _domain, ...rest } = data.types as unknown as Record<string, TypedDataField[]>;
  return rest;
}

/** Signs like an external wallet would, from the eth_signTypedData_v4 JSON. */
export function ethersSign(wallet: Wallet, data: TypedData): Promise<string> {
  return wallet.signTypedData(data.domain, ethersTypes(data), data.message as unknown as Record<string, unknown>);
}

/** Who ethers says signed: an independent check of our signatures. */
export function ethersRecover(data: TypedData, signature: string): string {
  return verifyTypedData(data.domain, ethersTypes(data), data.message as unknown as Record<string, unknown>, signature);
}

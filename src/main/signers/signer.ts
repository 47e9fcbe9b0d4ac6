/**
 * One interface for everything that signs the service's typed data: the trading key from the vault
 * (order flow) and the main-wallet signers (keystore, env key, offline, Ledger, and the simulator's paper
 * wallet) for custody actions.
 * A signer returns signatures and its address, never key material.
 */
import type { TypedData } from '../../shared/eip712/index.js';

export type SignerKind = 'trading-key' | 'keystore' | 'env' | 'offline' | 'ledger' | 'trezor' | 'paper';

export interface Signer {
  readonly kind: SignerKind;
  /** Checksummed address the signatures recover to. */
  readonly address: string;
  /** 65-byte r||s||v hex signature (v 27 or 28) over the EIP-712 digest of `data`. */
  signTypedData(data: TypedData): Promise<string>;
}

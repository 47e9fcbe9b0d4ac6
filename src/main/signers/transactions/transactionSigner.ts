/**
 * Signing source-chain transactions (a bridge's encoded transaction, an aggregator swap, an ERC-20
 * approve) with the main wallet. This is a different job from the custody signers in the parent folder,
 * which sign the service's EIP-712 typed data: here the signer receives a complete EIP-1559 (or legacy)
 * transaction and returns it signed, ready for eth_sendRawTransaction.
 *
 * Every implementation checks, before returning, that the signed transaction recovers the wallet and
 * carries exactly the fields it was given, so a device or key that signed something else is caught here,
 * before anything is broadcast.
 */
import { Transaction, type TransactionLike } from 'ethers';
import { sameAddress } from '../../../shared/identity/index.js';
import { SignerError } from '../signerError.js';

export type TransactionSignerKind = 'keystore' | 'env' | 'ledger';

/** A transaction with every field a signature covers already decided (nonce, gas, fees, chain). */
export interface UnsignedTransaction {
  chainId: bigint;
  nonce: number;
  to: string;
  /** Wei. */
  value: bigint;
  data: string;
  gasLimit: bigint;
  /** EIP-1559 fee fields (type 2), or gasPrice alone for a chain without a base fee (type 0). */
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  gasPrice?: bigint;
}

export interface TransactionSigner {
  readonly kind: TransactionSignerKind;
  /** Checksummed address of the main wallet. */
  readonly address: string;
  /** The serialized signed transaction (0x hex). */
  signTransaction(tx: UnsignedTransaction): Promise<string>;
}

/** The ethers form of an UnsignedTransaction: type 2 with EIP-1559 fees, else legacy. */
export function toTransactionLike(tx: UnsignedTransaction): TransactionLike {
  const base = { chainId: tx.chainId, nonce: tx.nonce, to: tx.to, value: tx.value, data: tx.data, gasLimit: tx.gasLimit };
  if (tx.maxFeePerGas !== undefined && tx.maxPriorityFeePerGas !== undefined) {
    return { ...base, type: 2, maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas };
  }
  if (tx.gasPrice === undefined) throw new RangeError('a transaction needs maxFeePerGas and maxPriorityFeePerGas, or gasPrice');
  return { ...base, type: 0, gasPrice: tx.gasPrice };
}

/**
 * Throws SignerError SIGNATURE_MISMATCH unless `signed` is `tx` signed by `address`; returns `signed`.
 */
export function verifySignedTransaction(signed: string, tx: UnsignedTransaction, address: string): string {
  let parsed: Transaction;
  try {
    parsed = Transaction.from(signed);
  } catch (err) {
    throw new SignerError('SIGNATURE_MALFORMED', `the signed transaction does not parse (${(err as Error).message}); nothing was sent`, { cause: err });
  }
  const from = parsed.from;
  if (from === null || !sameAddress(from, address)) {
    throw new SignerError('SIGNATURE_MISMATCH', `the transaction signature recovers ${from ?? 'nothing'}, not the wallet ${address}; nothing was sent`);
  }
  const expected = Transaction.from(toTransactionLike(tx));
  if (parsed.unsignedHash !== expected.unsignedHash) {
    throw new SignerError('SIGNATURE_MISMATCH', 'the signer returned a transaction that differs from the one it was given; nothing was sent');
  }
  return signed;
}

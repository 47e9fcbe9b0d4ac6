/**
 * Wallet addresses and account ids.
 *
 * account_id is the service's ledger key: the lowercase wallet, 11 zero bytes, then a one-byte subaccount
 * index. Only subaccount 0 is addressable, so a valid account_id is the lowercase wallet plus 24 hex zeros.
 */
import { getAddress } from 'ethers';
import type { ClassifiedError } from '../errorKinds.js';

export class IdentifierError extends Error implements ClassifiedError {
  readonly errorKind = 'validation' as const;
  readonly errorCode = 'VALIDATION_ERROR';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(field ? `${field}: ${message}` : message);
    this.name = 'IdentifierError';
  }
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_ACCOUNT_ID = /^0x[0-9a-fA-F]{64}$/;

/**
 * Validates an EVM address and returns its EIP-55 checksummed form. All-lowercase and all-uppercase
 * addresses carry no checksum and are accepted; a mixed-case address must match its checksum.
 */
export function toChecksumAddress(value: unknown, field = 'address'): string {
  if (typeof value !== 'string' || !HEX_ADDRESS.test(value)) {
    throw new IdentifierError(`expected 0x followed by 40 hex characters`, field);
  }
  try {
    return getAddress(value);
  } catch {
    throw new IdentifierError(`'${value}' fails its EIP-55 checksum (a mistyped character?)`, field);
  }
}

export function isAddress(value: unknown): value is string {
  try {
    toChecksumAddress(value);
    return true;
  } catch {
    return false;
  }
}

/** Case-insensitive address equality. */
export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** account_id of a wallet (subaccount 0): lowercase wallet + 24 hex zeros. */
export function accountIdFromWallet(wallet: string): string {
  return toChecksumAddress(wallet, 'wallet').toLowerCase() + '0'.repeat(24);
}

/**
 * Validates an account_id and returns it in canonical lowercase form. Subaccounts other than 0 and
 * non-zero padding bytes are refused: the service addresses only subaccount 0.
 */
export function parseAccountId(value: unknown, field = 'account_id'): string {
  if (typeof value !== 'string' || !HEX_ACCOUNT_ID.test(value)) {
    throw new IdentifierError('expected 0x followed by 64 hex characters (wallet + 24 hex zeros)', field);
  }
  const lower = value.toLowerCase();
  const padding = lower.slice(42, 64);
  const subaccount = lower.slice(64);
  if (padding !== '0'.repeat(22)) throw new IdentifierError('bytes 21-31 must be zero', field);
  if (subaccount !== '00') throw new IdentifierError(`only subaccount 0 is addressable (got index 0x${subaccount})`, field);
  return lower;
}

/** The checksummed wallet an account_id derives from. */
export function walletFromAccountId(accountId: string): string {
  return getAddress(parseAccountId(accountId).slice(0, 42));
}

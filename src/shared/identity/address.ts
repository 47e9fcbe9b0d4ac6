/**
 * Wallet addresses and account ids.
 *
 * account_id is the service's ledger key: the lowercase wallet, 11 zero bytes, then a one-byte subaccount
 * index. Only subaccount 0 is addressable, so a valid account_id is the lowercase wallet plus 24 hex zeros.
 */
import { keccak_256 } from '@noble/hashes/sha3';
import { InputRuleError, fieldMessage } from '../errorKinds.js';

export class IdentifierError extends InputRuleError {
  constructor(message: string, field?: string) {
    super('VALIDATION_ERROR', field, fieldMessage(field, message));
    this.name = 'IdentifierError';
  }
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_ACCOUNT_ID = /^0x[0-9a-fA-F]{64}$/;
const ascii = new TextEncoder();

/**
 * The EIP-55 form of a well-formed address: hex digit i is upper case when nibble i of
 * keccak256(the lowercase hex digits as ASCII) is 8 or more. Written on @noble/hashes (which the EIP-712
 * code loads anyway) rather than taken from ethers' getAddress, whose import alone costs every command
 * more than the rest of its start-up; test/unit/identity.test.ts holds it to ethers' answers.
 */
function checksummed(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(ascii.encode(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  }
  return out;
}

/**
 * Validates an EVM address and returns its EIP-55 checksummed form. All-lowercase and all-uppercase
 * addresses carry no checksum and are accepted; a mixed-case address must match its checksum.
 */
export function toChecksumAddress(value: unknown, field = 'address'): string {
  if (typeof value !== 'string' || !HEX_ADDRESS.test(value)) {
    throw new IdentifierError(`expected 0x followed by 40 hex characters`, field);
  }
  const sum = checksummed(value);
  const digits = value.slice(2);
  const mixedCase = /[a-f]/.test(digits) && /[A-F]/.test(digits);
  if (mixedCase && sum !== value) throw new IdentifierError(`'${value}' fails its EIP-55 checksum (a mistyped character?)`, field);
  return sum;
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
  return checksummed(parseAccountId(accountId).slice(0, 42));
}

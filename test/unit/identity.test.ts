/** Wallet addresses and account ids. */
import { describe, expect, it } from 'vitest';
import { IdentifierError, accountIdFromWallet, isAddress, parseAccountId, toChecksumAddress, walletFromAccountId } from '../../src/shared/identity/index.js';

const WALLET = '0x5ec6B8eeF87319d7F9035260faeE6f8eE2405Ae1';

describe('addresses', () => {
  it('checksums lowercase input and accepts a correct checksum', () => {
    expect(toChecksumAddress(WALLET.toLowerCase())).toBe(WALLET);
    expect(toChecksumAddress(WALLET)).toBe(WALLET);
  });

  it('refuses a mistyped checksum and malformed text, naming the field', () => {
    const badChecksum = WALLET.replace('B8', 'b8');
    expect(() => toChecksumAddress(badChecksum, 'wallet')).toThrow(/wallet: .*checksum/);
    expect(() => toChecksumAddress('0x1234', 'wallet')).toThrow(IdentifierError);
    expect(isAddress('not an address')).toBe(false);
  });
});

describe('account ids', () => {
  it('derives lowercase wallet + 24 hex zeros', () => {
    expect(accountIdFromWallet(WALLET)).toBe('0x5ec6b8eef87319d7f9035260faee6f8ee2405ae1000000000000000000000000');
    expect(walletFromAccountId(accountIdFromWallet(WALLET))).toBe(WALLET);
  });

  it('accepts only subaccount 0', () => {
    const id = accountIdFromWallet(WALLET);
    expect(parseAccountId(id.toUpperCase().replace('0X', '0x'))).toBe(id);
    expect(() => parseAccountId(id.slice(0, -2) + '01')).toThrow(/only subaccount 0/);
    expect(() => parseAccountId(id.slice(0, 50) + '1' + id.slice(51))).toThrow(/must be zero/);
    expect(() => parseAccountId(WALLET)).toThrow(/account_id: /);
  });
});

/** Wallet addresses and account ids. */
import { getAddress } from 'ethers';
import fc from 'fast-check';
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

describe('EIP-55 checksums agree with ethers', () => {
  // The checksum is computed on @noble/hashes (ethers is too heavy an import for the command line's
  // start-up); ethers' getAddress is the reference it must match, on random addresses in every casing.
  const hexDigits = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b).toString('hex'));
  const casing = fc.array(fc.boolean(), { minLength: 40, maxLength: 40 });

  function ethersAnswer(text: string): string | 'refused' {
    try {
      return getAddress(text);
    } catch {
      return 'refused';
    }
  }

  function ours(text: string): string | 'refused' {
    try {
      return toChecksumAddress(text);
    } catch (err) {
      expect(err).toBeInstanceOf(IdentifierError);
      return 'refused';
    }
  }

  it("the examples of the EIP's own test cases", () => {
    for (const a of ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D', '0xde709f2102306220921060314715629080e2fb77', '0x27b1fdb04752bbc536007a920d24acb045561c26', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']) {
      expect(toChecksumAddress(a.toLowerCase())).toBe(getAddress(a));
      expect(toChecksumAddress(a)).toBe(a);
    }
  });

  it('lowercase, uppercase and checksummed input give the same address; other mixed casings are refused exactly when ethers refuses them', () => {
    fc.assert(
      fc.property(hexDigits, casing, (hex, upper) => {
        const lower = `0x${hex}`;
        expect(toChecksumAddress(lower)).toBe(getAddress(lower));
        expect(toChecksumAddress(`0x${hex.toUpperCase()}`)).toBe(getAddress(lower));
        expect(toChecksumAddress(getAddress(lower))).toBe(getAddress(lower));
        const mixed = `0x${[...hex].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')}`;
        expect(ours(mixed)).toBe(ethersAnswer(mixed));
        expect(walletFromAccountId(accountIdFromWallet(lower))).toBe(getAddress(lower));
      }),
      { numRuns: 2000 },
    );
  });
});

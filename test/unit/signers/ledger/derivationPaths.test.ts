import { describe, expect, it } from 'vitest';
import {
  DERIVATION_SCHEMES,
  derivationPath,
  normalizeDerivationPath,
  parseDerivationPath,
  toLedgerPath,
} from '../../../../src/main/signers/ledger/derivationPaths.js';
import { LedgerError } from '../../../../src/main/signers/ledger/ledgerErrors.js';

describe('derivation paths', () => {
  it('puts the account index where each scheme does', () => {
    expect(derivationPath('ledger-live', 3)).toBe("m/44'/60'/3'/0/0");
    expect(derivationPath('legacy', 3)).toBe("m/44'/60'/0'/3");
    expect(derivationPath('bip44', 3)).toBe("m/44'/60'/0'/0/3");
    expect(DERIVATION_SCHEMES.map((s) => s.scheme)).toEqual(['ledger-live', 'legacy', 'bip44']);
  });

  it('index 0 of Ledger Live and of BIP 44 is the same account', () => {
    expect(derivationPath('ledger-live', 0)).toBe(derivationPath('bip44', 0));
  });

  it('parses to BIP 32 indices with the hardened bit', () => {
    expect(parseDerivationPath("m/44'/60'/1'/0/0")).toEqual([0x8000002c, 0x8000003c, 0x80000001, 0, 0]);
    expect(parseDerivationPath("44'/60'/0'/7")).toEqual([0x8000002c, 0x8000003c, 0x80000000, 7]);
  });

  it('normalizes and strips m/ for hw-app-eth', () => {
    expect(normalizeDerivationPath("44'/60'/0'/0/0")).toBe("m/44'/60'/0'/0/0");
    expect(toLedgerPath("m/44'/60'/0'/0/0")).toBe("44'/60'/0'/0/0");
  });

  it.each([
    "m/44'/60'/0'/0/x", // hw-app-eth would silently drop the x and sign with another key
    "m/44'/0'/0'/0/0", // Bitcoin's coin type
    "m/49'/60'/0'/0/0",
    "m/44'/60'",
    "m/44'/60'/0'/0/0/0/0",
    "m/44'/60'/0'//0",
    "m/44'/60'/2147483648'/0/0",
    "m/44h/60h/0h/0/0",
  ])('refuses %s', (path) => {
    expect(() => parseDerivationPath(path)).toThrow(LedgerError);
  });

  it('refuses out-of-range indices', () => {
    expect(() => derivationPath('ledger-live', -1)).toThrow(LedgerError);
    expect(() => derivationPath('ledger-live', 2 ** 31)).toThrow(LedgerError);
    expect(() => derivationPath('ledger-live', 1.5)).toThrow(LedgerError);
  });
});

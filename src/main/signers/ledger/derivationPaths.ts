/**
 * Ethereum derivation paths a Ledger user may have funds under. Wallets disagree on where the account
 * index goes, so the user picks the scheme their other wallet used, then an index, and confirms the
 * address on the device. Paths are validated strictly here because hw-app-eth's own path parser silently
 * skips components it cannot parse (a typo would sign with another key).
 */
import { LedgerError } from './ledgerErrors.js';

export type DerivationScheme = 'ledger-live' | 'legacy' | 'bip44';

export interface DerivationSchemeInfo {
  readonly scheme: DerivationScheme;
  readonly label: string;
  /** The path pattern with N for the account index, for display. */
  readonly pattern: string;
}

export const DERIVATION_SCHEMES: readonly DerivationSchemeInfo[] = [
  // Ledger Live: one hardened account level per account.
  { scheme: 'ledger-live', label: 'Ledger Live', pattern: "m/44'/60'/N'/0/0" },
  // Ledger's Chrome app, MyEtherWallet and MyCrypto before they followed BIP 44: no change level.
  { scheme: 'legacy', label: 'Legacy (MEW / MyCrypto)', pattern: "m/44'/60'/0'/N" },
  // BIP 44 as MetaMask and most software wallets use it: the index is the last, unhardened level.
  { scheme: 'bip44', label: 'BIP 44 standard (MetaMask)', pattern: "m/44'/60'/0'/0/N" },
];

/** Largest account index we offer; BIP 32 indices stop at 2^31 - 1, and no one has that many accounts. */
export const MAX_ACCOUNT_INDEX = 0x7fffffff;

export function derivationPath(scheme: DerivationScheme, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_ACCOUNT_INDEX) {
    throw new LedgerError('INVALID_PATH', `account index must be an integer from 0 to ${MAX_ACCOUNT_INDEX}, got ${index}`);
  }
  switch (scheme) {
    case 'ledger-live':
      return `m/44'/60'/${index}'/0/0`;
    case 'legacy':
      return `m/44'/60'/0'/${index}`;
    case 'bip44':
      return `m/44'/60'/0'/0/${index}`;
  }
}

const COMPONENT = /^(\d{1,10})('?)$/;

/**
 * Parses "m/44'/60'/0'/0/0" (the m/ is optional) into BIP 32 indices, hardened ones with the top bit
 * set. Only Ethereum paths (purpose 44', coin type 60') of 3 to 6 levels are accepted: the main wallet
 * is an Ethereum account, and anything else is a mistake.
 */
export function parseDerivationPath(path: string): number[] {
  const parts = path.startsWith('m/') ? path.slice(2).split('/') : path.split('/');
  const out: number[] = [];
  for (const part of parts) {
    const m = COMPONENT.exec(part);
    if (!m) throw new LedgerError('INVALID_PATH', `invalid derivation path component "${part}" in ${path}`);
    const n = Number(m[1]);
    if (n > MAX_ACCOUNT_INDEX) throw new LedgerError('INVALID_PATH', `derivation path component ${part} is out of range in ${path}`);
    out.push(m[2] === "'" ? n + 0x80000000 : n);
  }
  if (out.length < 3 || out.length > 6 || out[0] !== 0x8000002c || out[1] !== 0x8000003c) {
    throw new LedgerError('INVALID_PATH', `not an Ethereum derivation path (expected m/44'/60'/...): ${path}`);
  }
  return out;
}

/** The canonical "m/..." form of a valid path; throws on an invalid one. */
export function normalizeDerivationPath(path: string): string {
  return (
    'm/' +
    parseDerivationPath(path)
      .map((n) => (n >= 0x80000000 ? `${n - 0x80000000}'` : String(n)))
      .join('/')
  );
}

/** The form hw-app-eth takes: no leading "m/". */
export function toLedgerPath(path: string): string {
  return normalizeDerivationPath(path).slice(2);
}

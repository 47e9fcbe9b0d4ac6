/**
 * The OS keychain, through keytar. The only module that talks to keytar; every failure comes out as a
 * VaultError. Loaded lazily so that code paths that never touch keys (the simulator, the market views)
 * do not need the native module.
 */
import { createRequire } from 'node:module';
import { classifyKeychainFailure, VaultError } from './vaultError.js';

export interface Keychain {
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  delete(service: string, account: string): Promise<boolean>;
  /** Accounts stored under a service (names only: secrets are dropped here, never passed on). */
  accounts(service: string): Promise<string[]>;
}

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

let keytar: Keytar | null = null;
function loadKeytar(): Keytar {
  if (!keytar) {
    try {
      keytar = createRequire(import.meta.url)('keytar') as Keytar;
    } catch (err) {
      throw classifyKeychainFailure('loading the keytar module', err);
    }
  }
  return keytar;
}

/**
 * Asked before every keychain access (and before keytar is even loaded): a sentence closes the vault for
 * that access. The app's entry sets it (src/main/index.ts: a packaged app started with a debugging door
 * open, src/main/shell/debugAccess.ts); asked each time, so a door opened after start closes it too.
 */
let vaultGate: () => string | null = () => null;

export function setVaultGate(check: () => string | null): void {
  vaultGate = check;
}

/** Why the vault is closed right now and what to do (the message of the refusal), or null when it is open. */
export function vaultClosedMessage(): string | null {
  const closed = vaultGate();
  return closed === null ? null : new VaultError('VAULT_CLOSED', closed).message;
}

async function guarded<T>(operation: string, run: (k: Keytar) => Promise<T>): Promise<T> {
  const closed = vaultGate();
  if (closed !== null) throw new VaultError('VAULT_CLOSED', closed);
  const k = loadKeytar();
  try {
    return await run(k);
  } catch (err) {
    throw classifyKeychainFailure(operation, err);
  }
}

export const osKeychain: Keychain = {
  get: (service, account) => guarded('read', (k) => k.getPassword(service, account)),
  set: (service, account, secret) => guarded('write', (k) => k.setPassword(service, account, secret)),
  delete: (service, account) => guarded('delete', (k) => k.deletePassword(service, account)),
  accounts: (service) => guarded('list', async (k) => (await k.findCredentials(service)).map((c) => c.account)),
};

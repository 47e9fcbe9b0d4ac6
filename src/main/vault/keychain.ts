/**
 * The OS keychain, through keytar. The only module that talks to keytar; every failure comes out as a
 * VaultError. Loaded lazily so that code paths that never touch keys (the simulator, the market views)
 * do not need the native module.
 */
import { createRequire } from 'node:module';
import { classifyKeychainFailure } from './vaultError.js';
import { assertVaultOpen } from './vaultGate.js';

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

// The gate lives in vaultGate.ts (also asked at signing time); re-exported for the entry and the app desk.
export { setVaultGate, vaultClosedMessage } from './vaultGate.js';

async function guarded<T>(operation: string, run: (k: Keytar) => Promise<T>): Promise<T> {
  assertVaultOpen();
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

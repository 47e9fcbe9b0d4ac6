/**
 * Trading keys (agents) in the OS keychain.
 *
 * Keys are generated here, in the main process. The private key is written only to the keychain
 * (keytar), under a service name that tests override so they never touch a user's entries, with one
 * entry per environment, wallet and agent. Non-secret metadata lives in the settings store. No method
 * returns a private key: callers get addresses, metadata and signatures.
 */
import { TypedDataError, digestOf, type TypedData } from '../../shared/eip712/index.js';
import { toChecksumAddress } from '../../shared/identity/index.js';
// Type only: the secp256k1 code (and its curve library) is imported where a key is made or read, so
// commands that never sign (`perps markets`) do not load it at start-up.
import type { PrivateKey } from '../signers/secp256k1.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import { osKeychain, type Keychain } from './keychain.js';
import { holdsKeys } from './vaultGate.js';
import { VaultError } from './vaultError.js';

export const DEFAULT_KEYCHAIN_SERVICE = 'perps-desk.trading-keys';
const METADATA_KEY = 'vault.tradingKeys';
const ENVIRONMENT = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** What the app knows about a trading key without touching the keychain. */
export interface TradingKeyMetadata {
  /** Profile the key belongs to ('sim', 'mainnet', ...): keys never cross environments. */
  environment: string;
  wallet: string;
  agent: string;
  name: string;
  /** Unix ms from the service's register answer; null until authorized. */
  expires_at: number | null;
  created_at: number;
}

export interface TradingKeyRef {
  environment: string;
  wallet: string;
  agent: string;
}

export interface VaultOptions {
  store: SettingsStore;
  /** Keychain service name; tests pass their own so a user's entries are never touched. */
  service?: string;
  keychain?: Keychain;
  now?: () => number;
}

function checkEnvironment(environment: string): string {
  if (!ENVIRONMENT.test(environment)) throw new VaultError('VALIDATION_ERROR', `environment '${environment}' must be a short lowercase profile id`);
  return environment;
}

function checkAddress(value: string, field: string): string {
  try {
    return toChecksumAddress(value, field);
  } catch (err) {
    throw new VaultError('VALIDATION_ERROR', (err as Error).message);
  }
}

export class TradingKeyVault {
  readonly service: string;
  private readonly store: SettingsStore;
  private readonly keychain: Keychain;
  private readonly now: () => number;
  /** Keys read from the keychain once per process, so each signature does not cost a keychain round trip. */
  private readonly unlocked = new Map<string, PrivateKey>();

  constructor(options: VaultOptions) {
    this.store = options.store;
    this.service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
    this.keychain = options.keychain ?? osKeychain;
    this.now = options.now ?? Date.now;
    // A closed vault gate locks what this vault unlocked, at once (vaultGate.ts).
    holdsKeys(this);
  }

  /** keychain account name: environment/wallet/agent, lowercase. */
  static entryName(ref: TradingKeyRef): string {
    return `${ref.environment}/${ref.wallet.toLowerCase()}/${ref.agent.toLowerCase()}`;
  }

  /** Generates a trading key for `wallet`, stores it in the keychain and returns its metadata. */
  async create(input: { environment: string; wallet: string; name?: string }): Promise<TradingKeyMetadata> {
    const environment = checkEnvironment(input.environment);
    const wallet = checkAddress(input.wallet, 'wallet');
    const name = (input.name ?? 'Perps Desk').trim();
    if (name.length === 0 || name.length > 64) throw new VaultError('VALIDATION_ERROR', 'name must be 1 to 64 characters');
    const { PrivateKey } = await import('../signers/secp256k1.js');
    const key = PrivateKey.generate();
    const meta: TradingKeyMetadata = { environment, wallet, agent: key.address, name, expires_at: null, created_at: this.now() };
    const entry = TradingKeyVault.entryName(meta);
    // Keychain first: metadata without a key would be a key the user cannot use.
    await this.keychain.set(this.service, entry, key.exportForKeychain());
    this.unlocked.set(entry, key);
    this.writeAll([...this.readAll().filter((m) => TradingKeyVault.entryName(m) !== entry), meta]);
    return meta;
  }

  list(filter: { environment?: string; wallet?: string } = {}): TradingKeyMetadata[] {
    return this.readAll().filter(
      (m) =>
        (filter.environment === undefined || m.environment === filter.environment) &&
        (filter.wallet === undefined || m.wallet.toLowerCase() === filter.wallet.toLowerCase()),
    );
  }

  get(ref: TradingKeyRef): TradingKeyMetadata | undefined {
    const entry = TradingKeyVault.entryName(ref);
    return this.readAll().find((m) => TradingKeyVault.entryName(m) === entry);
  }

  /** Records the expiry the service answered on registration (or renewal). */
  setExpiry(ref: TradingKeyRef, expiresAt: number): TradingKeyMetadata {
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= 0) throw new VaultError('VALIDATION_ERROR', 'expires_at must be a positive Unix ms integer');
    const all = this.readAll();
    const entry = TradingKeyVault.entryName(ref);
    const meta = all.find((m) => TradingKeyVault.entryName(m) === entry);
    if (!meta) throw new VaultError('KEY_NOT_FOUND', `no trading key ${ref.agent} for ${ref.wallet} in ${ref.environment}`);
    meta.expires_at = expiresAt;
    this.writeAll(all);
    return meta;
  }

  /** 65-byte signature of a 32-byte digest with the stored key. */
  async signDigest(ref: TradingKeyRef, digest: Uint8Array): Promise<string> {
    if (digest.length !== 32) throw new VaultError('VALIDATION_ERROR', 'digest must be 32 bytes');
    const key = await this.unlock(ref);
    return key.signDigest(digest);
  }

  /** Signs the service's typed data with the stored key (the digest is computed from the typed data here). */
  async signTypedData(ref: TradingKeyRef, data: TypedData): Promise<string> {
    let digest: Uint8Array;
    try {
      digest = digestOf(data);
    } catch (err) {
      if (err instanceof TypedDataError) throw new VaultError('VALIDATION_ERROR', err.message);
      throw err;
    }
    return this.signDigest(ref, digest);
  }

  /** Removes the key from the keychain and its metadata. Returns false when there was nothing to delete. */
  async delete(ref: TradingKeyRef): Promise<boolean> {
    const entry = TradingKeyVault.entryName(ref);
    const removed = await this.keychain.delete(this.service, entry);
    this.unlocked.delete(entry);
    const all = this.readAll();
    const rest = all.filter((m) => TradingKeyVault.entryName(m) !== entry);
    if (rest.length !== all.length) this.writeAll(rest);
    return removed || rest.length !== all.length;
  }

  /** Forgets every key held in memory; the next signature reads the keychain again. */
  lock(): void {
    this.unlocked.clear();
  }

  private async unlock(ref: TradingKeyRef): Promise<PrivateKey> {
    const entry = TradingKeyVault.entryName({
      environment: checkEnvironment(ref.environment),
      wallet: checkAddress(ref.wallet, 'wallet'),
      agent: checkAddress(ref.agent, 'agent'),
    });
    const cached = this.unlocked.get(entry);
    if (cached && !cached.locked) return cached;
    const secret = await this.keychain.get(this.service, entry);
    if (secret === null) throw new VaultError('KEY_NOT_FOUND', `no trading key ${ref.agent} for ${ref.wallet} in ${ref.environment}`);
    const { PrivateKey } = await import('../signers/secp256k1.js');
    let key: PrivateKey;
    try {
      key = PrivateKey.fromHex(secret);
    } catch {
      throw new VaultError('KEYCHAIN_FAILED', `the keychain entry for ${ref.agent} does not hold a valid key`);
    }
    if (key.address.toLowerCase() !== ref.agent.toLowerCase()) {
      throw new VaultError('KEYCHAIN_FAILED', `the keychain entry for ${ref.agent} holds a different key`);
    }
    this.unlocked.set(entry, key);
    return key;
  }

  private readAll(): TradingKeyMetadata[] {
    const raw = this.store.get(METADATA_KEY);
    return Array.isArray(raw) ? (raw as TradingKeyMetadata[]).map((m) => ({ ...m })) : [];
  }

  private writeAll(all: TradingKeyMetadata[]): void {
    this.store.set(METADATA_KEY, all);
  }
}

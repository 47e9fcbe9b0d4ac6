/**
 * The inference API key, kept in the OS keychain only: its own keychain service and entry, apart from the
 * trading keys, never in the settings store, never in a log or an error message. Set, clear and "is one
 * set" are all a front end needs; reading the key back is for the assistant's requests alone.
 */
import { osKeychain, type Keychain } from '../../vault/keychain.js';
import { VaultError } from '../../vault/vaultError.js';

/** The keychain service of the inference key (tests and side-by-side installs pass their own). */
export const DEFAULT_INFERENCE_KEYCHAIN_SERVICE = 'perps-desk.inference';
/** The one entry under that service. */
export const INFERENCE_KEY_ACCOUNT = 'inference-api-key';

export interface InferenceKeyStoreOptions {
  keychain?: Keychain;
  /** Keychain service name; else PERPS_INFERENCE_KEYCHAIN_SERVICE; else the app's own. */
  service?: string;
  env?: NodeJS.ProcessEnv;
}

const MAX_KEY_LENGTH = 512;

export class InferenceKeyStore {
  readonly service: string;
  private readonly keychain: Keychain;

  constructor(options: InferenceKeyStoreOptions = {}) {
    const fromEnv = (options.env ?? process.env)['PERPS_INFERENCE_KEYCHAIN_SERVICE']?.trim();
    this.service = options.service ?? (fromEnv ? fromEnv : DEFAULT_INFERENCE_KEYCHAIN_SERVICE);
    this.keychain = options.keychain ?? osKeychain;
  }

  /** Stores (or replaces) the key. Throws VaultError VALIDATION_ERROR for a value that cannot be a key. */
  async set(apiKey: string): Promise<void> {
    const key = apiKey.trim();
    // The message describes the problem, never the value.
    if (key === '') throw new VaultError('VALIDATION_ERROR', 'The inference API key is empty');
    if (key.length > MAX_KEY_LENGTH || /\s/.test(key)) throw new VaultError('VALIDATION_ERROR', 'The inference API key must be one word of at most 512 characters');
    await this.keychain.set(this.service, INFERENCE_KEY_ACCOUNT, key);
  }

  async has(): Promise<boolean> {
    return (await this.keychain.get(this.service, INFERENCE_KEY_ACCOUNT)) !== null;
  }

  /** True when a key was removed. */
  async clear(): Promise<boolean> {
    return this.keychain.delete(this.service, INFERENCE_KEY_ACCOUNT);
  }

  /** The key, or null when none is set. For the assistant's requests only: never log or display it. */
  async read(): Promise<string | null> {
    return this.keychain.get(this.service, INFERENCE_KEY_ACCOUNT);
  }

  toJSON(): string {
    return `InferenceKeyStore(${this.service})`;
  }
}

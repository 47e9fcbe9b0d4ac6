/**
 * Paper main wallets: throwaway main wallets for the simulator profile (`perps quickstart`, the app's
 * "Create a paper wallet").
 *
 * A paper wallet is a secp256k1 key generated here, in the main process, and kept like a trading key: the
 * private key only in the OS keychain (keytar), under the same keychain service as the trading keys but an
 * account name of its own (`paper-wallet:sim/0x…`), and non-secret metadata in the settings store. The
 * metadata says `paper: true` and names the one profile the wallet is bound to, the simulator: every
 * lookup is by profile, so on any other profile there is no such wallet, and its signer
 * (signers/paperWalletSigner.ts) refuses to sign there besides. No method returns the private key.
 */
import { TypedDataError, digestOf, type TypedData } from '../../shared/eip712/index.js';
import { toChecksumAddress } from '../../shared/identity/index.js';
// Type only, as in tradingKeyVault.ts: the curve code loads when a key is made or read.
import type { PrivateKey } from '../signers/secp256k1.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import { osKeychain, type Keychain } from './keychain.js';
import { holdsKeys } from './vaultGate.js';
import { DEFAULT_KEYCHAIN_SERVICE } from './tradingKeyVault.js';
import { VaultError } from './vaultError.js';

/** The only profile a paper wallet exists on: paper money is the simulator's. */
export const PAPER_PROFILE = 'sim';
const METADATA_KEY = 'vault.paperWallets';
const ENTRY_PREFIX = 'paper-wallet:';

/** What the app knows about a paper wallet without touching the keychain. */
export interface PaperWalletMetadata {
  /** Checksummed address of the wallet. */
  wallet: string;
  /** Always true: the marker that this main wallet holds paper money only. */
  paper: true;
  /** The profile the wallet is bound to; always PAPER_PROFILE. */
  environment: typeof PAPER_PROFILE;
  created_at: number;
}

export interface PaperWalletVaultOptions {
  store: SettingsStore;
  /** Keychain service name (the trading keys' one); tests pass their own. */
  service?: string;
  keychain?: Keychain;
  now?: () => number;
}

function checkAddress(value: string): string {
  try {
    return toChecksumAddress(value, 'wallet');
  } catch (err) {
    throw new VaultError('VALIDATION_ERROR', (err as Error).message);
  }
}

function requirePaperProfile(environment: string): void {
  if (environment !== PAPER_PROFILE) {
    throw new VaultError('VALIDATION_ERROR', `a paper wallet exists only on the '${PAPER_PROFILE}' profile, not on '${environment}'`);
  }
}

export class PaperWalletVault {
  readonly service: string;
  private readonly store: SettingsStore;
  private readonly keychain: Keychain;
  private readonly now: () => number;
  /** Keys read from the keychain once per process (as the trading keys are). */
  private readonly unlocked = new Map<string, PrivateKey>();

  constructor(options: PaperWalletVaultOptions) {
    this.store = options.store;
    this.service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
    this.keychain = options.keychain ?? osKeychain;
    this.now = options.now ?? Date.now;
    // A closed vault gate locks what this vault unlocked, at once (vaultGate.ts).
    holdsKeys(this);
  }

  /** Keychain account name of a paper wallet: its own prefix, so it can never be read as a trading key's. */
  static entryName(wallet: string): string {
    return `${ENTRY_PREFIX}${PAPER_PROFILE}/${wallet.toLowerCase()}`;
  }

  /** Generates a paper wallet for `environment` (which must be the simulator), keychain first. */
  async create(environment: string): Promise<PaperWalletMetadata> {
    requirePaperProfile(environment);
    const { PrivateKey } = await import('../signers/secp256k1.js');
    const key = PrivateKey.generate();
    const meta: PaperWalletMetadata = { wallet: key.address, paper: true, environment: PAPER_PROFILE, created_at: this.now() };
    const entry = PaperWalletVault.entryName(meta.wallet);
    // Keychain first: metadata without its key would name a wallet nobody can sign for.
    await this.keychain.set(this.service, entry, key.exportForKeychain());
    this.unlocked.set(entry, key);
    this.writeAll([...this.readAll(), meta]);
    return meta;
  }

  /** The paper wallets of a profile, oldest first; none on any profile but the simulator. */
  list(environment: string): PaperWalletMetadata[] {
    return environment === PAPER_PROFILE ? this.readAll() : [];
  }

  /** A paper wallet of this profile, or undefined (always undefined off the simulator). */
  get(environment: string, wallet: string): PaperWalletMetadata | undefined {
    if (environment !== PAPER_PROFILE) return undefined;
    const address = checkAddress(wallet);
    return this.readAll().find((m) => m.wallet.toLowerCase() === address.toLowerCase());
  }

  /** True when the keychain holds the wallet's key (reads it, so a locked keychain says so here). */
  async unlockable(environment: string, wallet: string): Promise<boolean> {
    if (!this.get(environment, wallet)) return false;
    try {
      await this.unlock(wallet);
      return true;
    } catch (err) {
      if (err instanceof VaultError && err.code === 'KEY_NOT_FOUND') return false;
      throw err;
    }
  }

  /**
   * Signs the service's typed data with the paper wallet of `environment`. Only the simulator has paper
   * wallets, so on any other profile this refuses before the keychain is read.
   */
  async signTypedData(environment: string, wallet: string, data: TypedData): Promise<string> {
    requirePaperProfile(environment);
    if (!this.get(environment, wallet)) throw new VaultError('KEY_NOT_FOUND', `${wallet} is not a paper wallet of the '${environment}' profile in this data folder`);
    let digest: Uint8Array;
    try {
      digest = digestOf(data);
    } catch (err) {
      if (err instanceof TypedDataError) throw new VaultError('VALIDATION_ERROR', err.message);
      throw err;
    }
    return (await this.unlock(wallet)).signDigest(digest);
  }

  /** Removes the wallet's key and metadata. Returns false when there was nothing to delete. */
  async delete(wallet: string): Promise<boolean> {
    const address = checkAddress(wallet);
    const entry = PaperWalletVault.entryName(address);
    const removed = await this.keychain.delete(this.service, entry);
    this.unlocked.delete(entry);
    const all = this.readAll();
    const rest = all.filter((m) => m.wallet.toLowerCase() !== address.toLowerCase());
    if (rest.length !== all.length) this.writeAll(rest);
    return removed || rest.length !== all.length;
  }

  /** Forgets every key held in memory; the next signature reads the keychain again. */
  lock(): void {
    this.unlocked.clear();
  }

  private async unlock(wallet: string): Promise<PrivateKey> {
    const address = checkAddress(wallet);
    const entry = PaperWalletVault.entryName(address);
    const cached = this.unlocked.get(entry);
    if (cached && !cached.locked) return cached;
    const secret = await this.keychain.get(this.service, entry);
    if (secret === null) throw new VaultError('KEY_NOT_FOUND', `no key for paper wallet ${address} in the keychain`);
    const { PrivateKey } = await import('../signers/secp256k1.js');
    let key: PrivateKey;
    try {
      key = PrivateKey.fromHex(secret);
    } catch {
      throw new VaultError('KEYCHAIN_FAILED', `the keychain entry for paper wallet ${address} does not hold a valid key`);
    }
    if (key.address.toLowerCase() !== address.toLowerCase()) throw new VaultError('KEYCHAIN_FAILED', `the keychain entry for paper wallet ${address} holds a different key`);
    this.unlocked.set(entry, key);
    return key;
  }

  /** Stored metadata; entries not marked paper or bound elsewhere (a hand-edited file) are ignored. */
  private readAll(): PaperWalletMetadata[] {
    const raw = this.store.get(METADATA_KEY);
    if (!Array.isArray(raw)) return [];
    return (raw as Partial<PaperWalletMetadata>[])
      .filter((m) => m && m.paper === true && m.environment === PAPER_PROFILE && typeof m.wallet === 'string' && /^0x[0-9a-fA-F]{40}$/.test(m.wallet))
      .map((m) => ({ wallet: m.wallet!, paper: true, environment: PAPER_PROFILE, created_at: typeof m.created_at === 'number' ? m.created_at : 0 }));
  }

  private writeAll(all: PaperWalletMetadata[]): void {
    this.store.set(METADATA_KEY, all);
  }
}

/**
 * Everything a use case needs for one profile, built once per process (CLI run, app session, test):
 * the trading API client, the venue info client, the trading-key vault, the nonce source, the settings
 * store, live configuration and the service's clock. Services take a ServiceContext instead of building
 * their own clients, so the CLI, the app and the tests wire the same objects the same way.
 */
import { TradingApiClient } from '../api/tradingApiClient.js';
import type { FetchFn } from '../api/http.js';
// The one real sleep: it removes its abort listener when the timer fires (a TWAP waits on one signal for hours).
import { realSleep, type RetryPolicy, type SleepFn } from '../api/retry.js';
import { VenueInfoClient } from '../venue/venueInfoClient.js';
import { TradingKeyVault, DEFAULT_KEYCHAIN_SERVICE } from '../vault/tradingKeyVault.js';
import { PAPER_PROFILE, PaperWalletVault } from '../vault/paperWalletVault.js';
import type { Keychain } from '../vault/keychain.js';
import { NonceSource } from '../nonces/nonceSource.js';
import { openNodeSettings, type SettingsStore } from '../settings/settingsStore.js';
import { TradingKeySigner } from '../signers/tradingKeySigner.js';
import { PaperWalletSigner, paperWalletRefusal, type ActiveProfile } from '../signers/paperWalletSigner.js';
import type { Signer } from '../signers/signer.js';
import { toChecksumAddress } from '../../shared/identity/index.js';
import type { Profile } from '../profiles/profiles.js';
import { LiveConfig } from './liveConfig.js';
import { ServerClock } from './serverClock.js';
import { OperationError, ValidationError } from './errors.js';

export interface ServiceContextOptions {
  /** Keychain service name; else PERPS_KEYCHAIN_SERVICE; else the app's own. Tests always set one. */
  keychainService?: string;
  /** A different keychain backend (the app never passes one; the OS keychain is the only real store). */
  keychain?: Keychain;
  /** The settings store (electron-store in the app); opened in profile.dataDir when omitted. */
  settings?: SettingsStore;
  fetch?: FetchFn;
  timeoutMs?: number;
  retry?: RetryPolicy;
  sleep?: SleepFn;
  /**
   * The local clock the service's clock is measured against (ServerClock's localNow; Date.now when
   * omitted). Tests whose simulator runs a manual clock in the same process give its clock here, with a
   * `sleep` on it, so the service's time moves exactly when the test moves it.
   */
  localNow?: () => number;
  /** TTL of the /markets and /config cache. */
  configTtlMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Told when the service clock's background refresh failed (ServerClock): the app logs it, the command line prints it. */
  onClockRefreshFailed?: (err: Error) => void;
}

export interface ServiceContext {
  readonly profile: Profile;
  readonly api: TradingApiClient;
  readonly venue: VenueInfoClient;
  readonly vault: TradingKeyVault;
  /** The simulator's paper main wallets (keys in the keychain next to the trading keys). */
  readonly paperWallets: PaperWalletVault;
  /** Single-use nonces per wallet (prepare steps reserve them; nothing else needs more than next()). */
  readonly nonces: NonceReserver;
  readonly settings: SettingsStore;
  readonly config: LiveConfig;
  /** The service's clock (envelope timestamps): expiries are judged against it. */
  readonly clock: ServerClock;
  /** Sleep used by waits and trackers (injectable so tests need not wait in real time). */
  readonly sleep: SleepFn;
  /**
   * The wallet's trading key for this profile: stored locally, registered (the service answered an
   * expiry) and not expired by the service's clock. Latest expiry wins when there are several.
   */
  tradingSigner(wallet: string): Promise<Signer>;
  /**
   * The custody signer of one of this profile's paper wallets. Refused (ValidationError, before anything
   * is read or signed) on any profile but the simulator, and for an address that is not a paper wallet
   * of this data folder. The signer checks the profile again on every signature: `activeProfile`
   * (default this context's profile) says which one is in force then; the app passes its session's.
   */
  paperSigner(wallet: string, activeProfile?: () => ActiveProfile | null): Signer;
}

export interface NonceReserver {
  /** The next nonce for `wallet`: greater than every one issued for it before, never repeated. */
  next(wallet: string): Promise<number>;
}

export function keychainServiceName(options: { keychainService?: string | undefined } = {}, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['PERPS_KEYCHAIN_SERVICE'];
  return options.keychainService ?? (fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv.trim() : DEFAULT_KEYCHAIN_SERVICE);
}

/**
 * Refuses (PAPER_WALLET_SIM_ONLY, a validation error) a paper wallet on anything but the simulator
 * profile with its service on loopback: checked on the URL itself, before anything is read, signed or
 * sent, so a sim profile aimed at another host (--base-url, a saved URL) never receives a paper signature.
 */
export function requirePaperWalletProfile(profile: Pick<Profile, 'name' | 'baseUrl'>): void {
  const refusal = paperWalletRefusal(profile);
  if (refusal === null) return;
  throw new ValidationError(`${refusal}. Nothing was signed or sent`, {
    field: profile.name === PAPER_PROFILE ? 'base-url' : 'signer',
    code: 'PAPER_WALLET_SIM_ONLY',
    hint:
      profile.name === PAPER_PROFILE
        ? 'Paper wallets hold simulator money only: point the sim profile at a simulator on this machine (`perps sim` listens on 127.0.0.1), or sign with a keystore, a Ledger or the offline signer.'
        : 'Paper wallets hold simulator money only. On this profile, sign with a keystore, a Ledger or the offline signer.',
  });
}

export function createServiceContext(profile: Profile, options: ServiceContextOptions = {}): ServiceContext {
  const env = options.env ?? process.env;
  const settings = options.settings ?? openNodeSettings(profile.dataDir);
  const clientOptions = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  };
  const api = new TradingApiClient({ baseUrl: profile.baseUrl, ...clientOptions });
  const venue = new VenueInfoClient({ url: profile.venueInfoUrl, ...clientOptions });
  const vault = new TradingKeyVault({
    store: settings,
    service: keychainServiceName(options, env),
    ...(options.keychain ? { keychain: options.keychain } : {}),
  });
  const paperWallets = new PaperWalletVault({
    store: settings,
    service: vault.service,
    ...(options.keychain ? { keychain: options.keychain } : {}),
  });
  const nonces = new NonceSource({ dataDir: profile.dataDir });
  const config = new LiveConfig(api, options.configTtlMs !== undefined ? { ttlMs: options.configTtlMs } : {});
  const clock = new ServerClock({
    baseUrl: profile.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.onClockRefreshFailed ? { onRefreshFailed: options.onClockRefreshFailed } : {}),
    ...(options.localNow ? { localNow: options.localNow } : {}),
  });

  async function tradingSigner(wallet: string): Promise<Signer> {
    let checksummed: string;
    try {
      checksummed = toChecksumAddress(wallet, 'wallet');
    } catch (err) {
      throw new ValidationError((err as Error).message, { cause: err });
    }
    const stored = vault.list({ environment: profile.name, wallet: checksummed });
    const now = await clock.now();
    const usable = stored.filter((k) => k.expires_at !== null && k.expires_at > now).sort((a, b) => (b.expires_at ?? 0) - (a.expires_at ?? 0));
    const best = usable[0];
    if (best) return new TradingKeySigner(vault, { environment: profile.name, wallet: checksummed, agent: best.agent });
    const unregistered = stored.filter((k) => k.expires_at === null);
    const expired = stored.filter((k) => k.expires_at !== null && k.expires_at <= now);
    let detail: string;
    let hint: string;
    if (expired.length > 0) {
      detail = `every trading key of ${checksummed} on profile '${profile.name}' has expired`;
      hint = `Renew one with \`perps keys renew --wallet ${checksummed} --agent ${expired[0]!.agent} --signer SPEC\`, or run \`perps keys new\` then \`perps keys authorize\`.`;
    } else if (unregistered.length > 0) {
      detail = `trading key ${unregistered[0]!.agent} of ${checksummed} was created but never authorized on profile '${profile.name}'`;
      hint = `Run \`perps keys authorize --wallet ${checksummed} --agent ${unregistered[0]!.agent} --signer SPEC\`.`;
    } else {
      detail = `no trading key for ${checksummed} on profile '${profile.name}' in this data folder`;
      hint = `Run \`perps keys new --wallet ${checksummed}\`, then \`perps keys authorize --wallet ${checksummed} --agent <new key> --signer SPEC\`.`;
    }
    throw new OperationError('NO_TRADING_KEY', detail, { hint });
  }

  function paperSigner(wallet: string, activeProfile: () => ActiveProfile | null = () => profile): Signer {
    let checksummed: string;
    try {
      checksummed = toChecksumAddress(wallet, 'wallet');
    } catch (err) {
      throw new ValidationError((err as Error).message, { cause: err });
    }
    requirePaperWalletProfile(profile);
    if (!paperWallets.get(profile.name, checksummed)) {
      throw new ValidationError(`${checksummed} is not a paper wallet of this data folder`, {
        field: 'wallet',
        code: 'NOT_A_PAPER_WALLET',
        hint: 'Create one with `perps quickstart` (the paper wallets of another data folder are not visible here).',
      });
    }
    return new PaperWalletSigner(paperWallets, checksummed, activeProfile);
  }

  return { profile, api, venue, vault, paperWallets, nonces, settings, config, clock, sleep: options.sleep ?? realSleep, tradingSigner, paperSigner };
}

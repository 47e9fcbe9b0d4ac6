/**
 * Profiles: which service the app talks to, and how it signs for it.
 *
 *  - 'sim' (default): a local simulator, started by `perps sim` or in-process by the app. It runs the
 *    testnet flavour (environment 'Testnet', trading chainId 998) so a signature made against the
 *    simulator can never be replayed on mainnet.
 *  - 'mainnet': the real service (environment 'Mainnet', chainId 999). The spec names its roots only as
 *    placeholders, so its URLs are settings the user fills in (flags, environment variables or the
 *    settings store); when they are unset resolution fails with a message that says so, never a guess.
 *
 * Precedence for every URL: command-line flag, then environment variable, then the profile's settings
 * in the settings store, then (sim only) the simulator's default address.
 */
import os from 'node:os';
import path from 'node:path';
// domain.js, not the eip712 index: the index also loads the hashing and signature libraries, which
// resolving a profile never needs (the command line's start-up time).
import { TRADING_CHAIN_ID, serviceEnvironmentOf, type Network, type ServiceEnvironment } from '../../shared/eip712/domain.js';
import { openNodeSettings, type SettingsStore } from '../settings/settingsStore.js';
import type { ClassifiedError } from '../../shared/errorKinds.js';
import { DEFAULT_PROFILE, PROFILE_NAMES, type ProfileName } from './profileNames.js';

export { DEFAULT_PROFILE, PROFILE_NAMES, type ProfileName };

/**
 * A profile cannot be resolved: unknown name, a malformed URL, or an address that is not configured.
 * Bad configuration, not a failed operation: services report it as a validation error (CLI exit 2).
 * Defined here rather than in services so this lower layer never imports upward.
 */
export class ProfileError extends Error implements ClassifiedError {
  /** Bad configuration: the command is refused before anything is sent. */
  readonly errorKind = 'validation' as const;
  readonly field: string | undefined;
  readonly hint: string | undefined;

  constructor(
    readonly code: 'INVALID_URL' | 'UNKNOWN_PROFILE' | 'PROFILE_NOT_CONFIGURED',
    message: string,
    options: { field?: string; hint?: string } = {},
  ) {
    super(options.field ? `${options.field}: ${message}` : message);
    this.name = 'ProfileError';
    this.field = options.field;
    this.hint = options.hint;
  }

  get errorCode(): string {
    return this.code;
  }

  get errorHint(): string | undefined {
    return this.hint;
  }
}

export interface Profile {
  name: ProfileName;
  network: Network;
  environment: ServiceEnvironment;
  /** Pinned domain chainId of trading actions; also the default signature_chain_id of custody actions. */
  tradingChainId: number;
  /** Trading API root, including /api/v1, without a trailing slash. */
  baseUrl: string;
  /** The venue's info API (market data). */
  venueInfoUrl: string;
  /** The venue's WebSocket, when known. */
  venueWsUrl?: string;
  /** Absolute folder of the settings store, nonces and tracked withdrawals. */
  dataDir: string;
}

/** URLs a profile may carry in the settings store (key `profiles.<name>`). */
export interface ProfileUrls {
  baseUrl?: string;
  venueInfoUrl?: string;
  venueWsUrl?: string;
}

/**
 * Where `perps sim` listens when no port is given, and the paths it serves. The simulator's own start-up
 * may record its actual URLs with saveProfileUrls(store, 'sim', ...), which then take precedence.
 */
export const SIM_DEFAULT_HOST = '127.0.0.1';
export const SIM_DEFAULT_PORT = 8645;
/** The simulator's paths (src/sim/server.ts PATHS; main may not import the simulator, so they are repeated here). */
export const SIM_PATHS = { base: '/api/v1', venueInfo: '/venue/info', venueWs: '/venue/ws', control: '/sim' } as const;

export function simUrlsAt(origin: string): Required<ProfileUrls> {
  const o = origin.replace(/\/+$/, '');
  return {
    baseUrl: o + SIM_PATHS.base,
    venueInfoUrl: o + SIM_PATHS.venueInfo,
    venueWsUrl: o.replace(/^http/, 'ws') + SIM_PATHS.venueWs,
  };
}

const NETWORK_OF: Record<ProfileName, Network> = { sim: 'testnet', mainnet: 'mainnet' };

const SETTINGS_KEY = (name: ProfileName): string => `profiles.${name}`;
/** Settings key of the profile used when neither --profile nor PERPS_PROFILE names one. */
export const DEFAULT_PROFILE_SETTING = 'profiles.default';

export interface ResolveProfileInput {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  /** The venue's info API URL (--venue-url). */
  venueUrl?: string | undefined;
  venueWsUrl?: string | undefined;
  dataDir?: string | undefined;
  /** The settings store to read profile settings from; opened in dataDir when omitted. */
  settings?: SettingsStore | undefined;
}

/** The per-OS application data folder (the same place Electron's userData points to for this app). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'perps-desk');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'perps-desk');
  return path.join(env['XDG_CONFIG_HOME'] || path.join(home, '.config'), 'perps-desk');
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

function checkUrl(value: string, what: string, schemes: readonly string[]): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ProfileError('INVALID_URL', `'${value}' is not a URL`, { field: what, hint: `Give a full URL such as ${schemes[0]}://host/...` });
  }
  if (!schemes.includes(u.protocol.replace(/:$/, ''))) {
    throw new ProfileError('INVALID_URL', `'${value}' must use ${schemes.join(' or ')}`, { field: what });
  }
  return value.replace(/\/+$/, '');
}

function parseProfileName(value: string): ProfileName {
  if ((PROFILE_NAMES as readonly string[]).includes(value)) return value as ProfileName;
  throw new ProfileError('UNKNOWN_PROFILE', `unknown profile '${value}'`, { field: 'profile', hint: `Use one of: ${PROFILE_NAMES.join(', ')}.` });
}

export function readProfileUrls(store: SettingsStore, name: ProfileName): ProfileUrls {
  const raw = store.get(SETTINGS_KEY(name));
  if (typeof raw !== 'object' || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const out: ProfileUrls = {};
  if (typeof r['baseUrl'] === 'string') out.baseUrl = r['baseUrl'];
  if (typeof r['venueInfoUrl'] === 'string') out.venueInfoUrl = r['venueInfoUrl'];
  if (typeof r['venueWsUrl'] === 'string') out.venueWsUrl = r['venueWsUrl'];
  return out;
}

/** Records a profile's URLs in the settings store (validated first; a bad URL is never stored). */
export function saveProfileUrls(store: SettingsStore, name: ProfileName, urls: ProfileUrls): void {
  const clean: ProfileUrls = {};
  if (urls.baseUrl !== undefined) clean.baseUrl = checkUrl(urls.baseUrl, 'baseUrl', ['http', 'https']);
  if (urls.venueInfoUrl !== undefined) clean.venueInfoUrl = checkUrl(urls.venueInfoUrl, 'venueInfoUrl', ['http', 'https']);
  if (urls.venueWsUrl !== undefined) clean.venueWsUrl = checkUrl(urls.venueWsUrl, 'venueWsUrl', ['ws', 'wss']);
  store.set(SETTINGS_KEY(name), { ...readProfileUrls(store, name), ...clean });
}

/**
 * The venue serves its info API at .../info and its WebSocket at .../ws on the same host; when only the
 * info URL is configured the WebSocket URL follows that convention. Any other info URL gets no derived
 * WebSocket URL (the caller then polls instead of guessing).
 */
function deriveWsUrl(venueInfoUrl: string): string | undefined {
  if (!/\/info$/.test(venueInfoUrl)) return undefined;
  return venueInfoUrl.replace(/^http/, 'ws').replace(/\/info$/, '/ws');
}

/** Resolves the profile from flags, environment variables and stored settings. */
export function resolveProfile(input: ResolveProfileInput = {}, env: NodeJS.ProcessEnv = process.env): Profile {
  const dataDir = path.resolve(nonEmpty(input.dataDir) ?? nonEmpty(env['PERPS_DATA_DIR']) ?? defaultDataDir(env));
  const settings = input.settings ?? openNodeSettings(dataDir);
  const storedDefault = settings.get(DEFAULT_PROFILE_SETTING);
  const name = parseProfileName(
    nonEmpty(input.profile) ?? nonEmpty(env['PERPS_PROFILE']) ?? (typeof storedDefault === 'string' ? storedDefault : DEFAULT_PROFILE),
  );
  const stored = readProfileUrls(settings, name);
  const simDefaults = name === 'sim' ? simUrlsAt(`http://${SIM_DEFAULT_HOST}:${SIM_DEFAULT_PORT}`) : undefined;

  const rawBase = nonEmpty(input.baseUrl) ?? nonEmpty(env['PERPS_BASE_URL']) ?? stored.baseUrl ?? simDefaults?.baseUrl;
  const rawVenue = nonEmpty(input.venueUrl) ?? nonEmpty(env['PERPS_VENUE_URL']) ?? stored.venueInfoUrl ?? simDefaults?.venueInfoUrl;
  const missing: string[] = [];
  if (rawBase === undefined) missing.push('the trading API root (--base-url or PERPS_BASE_URL, including /api/v1)');
  if (rawVenue === undefined) missing.push("the venue's info API (--venue-url or PERPS_VENUE_URL)");
  if (rawBase === undefined || rawVenue === undefined) {
    throw new ProfileError('PROFILE_NOT_CONFIGURED', `profile '${name}' has no ${missing.join(' and no ')} configured`, {
      hint: `The ${name} service addresses are not built in. Pass them as flags or environment variables, or store them in the settings of ${dataDir}.`,
    });
  }
  const baseUrl = checkUrl(rawBase, 'base-url', ['http', 'https']);
  const venueInfoUrl = checkUrl(rawVenue, 'venue-url', ['http', 'https']);
  const explicitWs = nonEmpty(input.venueWsUrl) ?? nonEmpty(env['PERPS_VENUE_WS_URL']);
  // A venue URL given on the command line or environment overrides the stored pair, so derive from it.
  const venueOverridden = nonEmpty(input.venueUrl) !== undefined || nonEmpty(env['PERPS_VENUE_URL']) !== undefined;
  const wsCandidate = explicitWs ?? (venueOverridden ? deriveWsUrl(venueInfoUrl) : (stored.venueWsUrl ?? simDefaults?.venueWsUrl ?? deriveWsUrl(venueInfoUrl)));
  const network = NETWORK_OF[name];
  const profile: Profile = {
    name,
    network,
    environment: serviceEnvironmentOf(network),
    tradingChainId: TRADING_CHAIN_ID[network],
    baseUrl,
    venueInfoUrl,
    dataDir,
  };
  if (wsCandidate !== undefined) profile.venueWsUrl = checkUrl(wsCandidate, 'venue-ws-url', ['ws', 'wss']);
  return profile;
}

/** The sim profile for a simulator the caller started (in-process or in tests), from its URLs. */
export function simProfile(urls: { base_url: string; venue_info_url: string; venue_ws_url?: string | undefined }, dataDir: string): Profile {
  const profile: Profile = {
    name: 'sim',
    network: 'testnet',
    environment: 'Testnet',
    tradingChainId: TRADING_CHAIN_ID.testnet,
    baseUrl: checkUrl(urls.base_url, 'base_url', ['http', 'https']),
    venueInfoUrl: checkUrl(urls.venue_info_url, 'venue_info_url', ['http', 'https']),
    dataDir: path.resolve(dataDir),
  };
  if (urls.venue_ws_url) profile.venueWsUrl = checkUrl(urls.venue_ws_url, 'venue_ws_url', ['ws', 'wss']);
  return profile;
}

/**
 * Where the companion services are, per profile: the bridge, points, aggregator and inference roots, the
 * JSON-RPC URL of each EVM chain, and the app's partner code. All are settings (never secrets), stored
 * under `companion.<profile>` in the settings store.
 *
 * Precedence for every value: an explicit value (a command-line flag), then an environment variable
 * (PERPS_BRIDGE_URL, PERPS_PLATFORM_URL, PERPS_AGGREGATOR_URL, PERPS_INFERENCE_URL, PERPS_RPC_URL_<CHAIN>,
 * PERPS_PARTNER_CODE), then the settings store, then (sim profile only) the simulator's address on the
 * same origin as the trading API. The real services' addresses are not built in: unset, resolution fails
 * with a message that says how to set them, never a guess.
 *
 * RPC URLs are treated as secrets in what is printed: providers put the API key in the path or the query
 * (https://host/v3/<key>), so messages about them show only scheme://host[:port] (redactUrl). The settings
 * screen may show the user their own URL; nothing logs it.
 */
import { ProfileError, type Profile } from '../../profiles/profiles.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import type { FetchFn } from '../../api/http.js';
import { EvmRpcClient, redactUrl } from '../../api/evm/evmRpc.js';
import { durationTextProblem, parseDuration } from '../../../shared/duration/duration.js';
import { ValidationError } from '../errors.js';
import { EVM_CHAIN_IDS, parseEvmChainId, parsePartnerCode } from '../chains/chainIds.js';
import { withCompanionFailures } from './companionFailures.js';

export const COMPANION_SERVICES = ['bridge', 'platform', 'aggregator', 'inference'] as const;
export type CompanionService = (typeof COMPANION_SERVICES)[number];

export type CompanionUrls = Record<CompanionService, string>;

const ENV_OF: Record<CompanionService, string> = {
  bridge: 'PERPS_BRIDGE_URL',
  platform: 'PERPS_PLATFORM_URL',
  aggregator: 'PERPS_AGGREGATOR_URL',
  inference: 'PERPS_INFERENCE_URL',
};

const FLAG_OF: Record<CompanionService, string> = {
  bridge: '--bridge-url',
  platform: '--platform-url',
  aggregator: '--aggregator-url',
  inference: '--inference-url',
};

/** The simulator's companion paths (src/sim/server.ts PATHS; main may not import the simulator, so repeated). */
export const SIM_COMPANION_PATHS: Readonly<Record<CompanionService | 'rpc', string>> = {
  bridge: '/bridge/v1',
  platform: '/platform',
  aggregator: '/aggregator/v1',
  inference: '/inference',
  rpc: '/rpc',
};

const key = (profile: Profile, rest: string): string => `companion.${profile.name}.${rest}`;

function nonEmpty(v: string | undefined | null): string | undefined {
  return v !== undefined && v !== null && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * An http(s) URL without trailing slashes, or a ProfileError INVALID_URL naming the field. With `secret`
 * (RPC URLs), the message never repeats the path or query, where a key may be.
 */
export function checkUrl(value: string, field: string, options: { secret?: boolean } = {}): string {
  const shown = options.secret ? redactUrl(value) : `'${value}'`;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ProfileError('INVALID_URL', options.secret ? 'the value given is not a URL' : `${shown} is not a URL`, { field, hint: 'Give a full URL such as https://host/path.' });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ProfileError('INVALID_URL', `${shown} must use http or https`, { field });
  return value.replace(/\/+$/, '');
}

/** The trading API's origin, where the simulator also serves its companions. */
function simOrigin(profile: Profile): string | undefined {
  return profile.name === 'sim' ? new URL(profile.baseUrl).origin : undefined;
}

function stored(settings: SettingsStore, k: string): string | undefined {
  const v = settings.get(k);
  return typeof v === 'string' ? nonEmpty(v) : undefined;
}

export interface ResolveInput {
  profile: Profile;
  settings: SettingsStore;
  env?: NodeJS.ProcessEnv;
}

/** The root URL of one companion service. */
export function resolveCompanionUrl(input: ResolveInput, service: CompanionService, explicit?: string): string {
  const env = input.env ?? process.env;
  const origin = simOrigin(input.profile);
  const raw = nonEmpty(explicit) ?? nonEmpty(env[ENV_OF[service]]) ?? stored(input.settings, key(input.profile, `urls.${service}`)) ?? (origin ? origin + SIM_COMPANION_PATHS[service] : undefined);
  if (raw === undefined) {
    throw new ProfileError('PROFILE_NOT_CONFIGURED', `profile '${input.profile.name}' has no ${service} API URL configured`, {
      hint: `Pass ${FLAG_OF[service]}, set ${ENV_OF[service]}, or store it with saveCompanionUrl (settings key ${key(input.profile, `urls.${service}`)}).`,
    });
  }
  return checkUrl(raw, FLAG_OF[service].slice(2));
}

export function saveCompanionUrl(input: ResolveInput, service: CompanionService, url: string): void {
  input.settings.set(key(input.profile, `urls.${service}`), checkUrl(url, FLAG_OF[service].slice(2)));
}

function rpcEnv(chain: string): string {
  return `PERPS_RPC_URL_${chain.toUpperCase()}`;
}

/** The JSON-RPC URL of an EVM chain. */
export function resolveRpcUrl(input: ResolveInput, chain: string, explicit?: string): string {
  const env = input.env ?? process.env;
  const origin = simOrigin(input.profile);
  const raw = nonEmpty(explicit) ?? nonEmpty(env[rpcEnv(chain)]) ?? stored(input.settings, key(input.profile, `rpc.${chain}`)) ?? (origin ? `${origin}${SIM_COMPANION_PATHS.rpc}/${chain}` : undefined);
  if (raw === undefined) {
    throw new ProfileError('PROFILE_NOT_CONFIGURED', `no JSON-RPC URL is set for ${chain} on profile '${input.profile.name}'`, {
      hint: `Pass --rpc-url, set ${rpcEnv(chain)}, or store one with \`perps bridge rpc set ${chain} URL\`.`,
    });
  }
  return checkUrl(raw, 'rpc-url', { secret: true });
}

/**
 * Stores the RPC URL the user chose for `chain` (validated first; a bad URL is never stored). Only the
 * format is checked here: front ends store through setCheckedRpcUrl, which also asks the URL for its chain.
 */
export function saveRpcUrl(input: ResolveInput, chain: string, url: string, field = 'rpc-url'): string {
  const c = parseEvmChainId(chain, 'chain');
  const clean = checkUrl(url, field, { secret: true });
  input.settings.set(key(input.profile, `rpc.${c}`), clean);
  return clean;
}

/** How long storing an RPC URL waits for its eth_chainId answer. */
export const RPC_CHECK_TIMEOUT_MS = 10_000;

export interface RpcProbeOptions {
  timeoutMs?: number;
  fetch?: FetchFn;
  /** Field named by a malformed URL's error (the CLI's argument, the app's form field). */
  field?: string;
}

/**
 * Asks `url` for its chain id (eth_chainId) and checks it is `chain`'s own, storing nothing: an RPC URL of
 * another chain would have transactions signed for that chain. venue_core is refused (the venue's spot
 * layer has no EVM RPC); a chain the app knows no EIP-155 id for only has to answer as an EVM node.
 */
export async function probeRpcUrl(chain: string, url: string, options: RpcProbeOptions = {}): Promise<{ chain: string; url: string; chainId: bigint }> {
  const c = parseEvmChainId(chain, 'chain');
  const clean = checkUrl(url, options.field ?? 'rpc-url', { secret: true });
  const expected = EVM_CHAIN_IDS[c];
  const client = await withCompanionFailures(() =>
    EvmRpcClient.open({
      chain: c,
      url: clean,
      ...(expected !== undefined ? { expectedChainId: expected } : {}),
      timeoutMs: options.timeoutMs ?? RPC_CHECK_TIMEOUT_MS,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
  client.destroy();
  return { chain: c, url: clean, chainId: client.chainId };
}

/** Probes the URL (probeRpcUrl), then stores it: a URL that does not answer for its chain is never stored. */
export async function setCheckedRpcUrl(input: ResolveInput, chain: string, url: string, options: RpcProbeOptions = {}): Promise<{ chain: string; url: string; chainId: bigint }> {
  const probed = await probeRpcUrl(chain, url, options);
  saveRpcUrl(input, probed.chain, probed.url, options.field);
  return probed;
}

/** Longest receipt wait a user can ask for (a day): more is a unit mistake. */
const MAX_RECEIPT_TIMEOUT_MS = 86_400_000;

/**
 * How long a send waits for its source transaction's receipt, in ms: --receipt-timeout, else
 * PERPS_RECEIPT_TIMEOUT, both a duration of the one grammar ("90s", "5m"; a bare number is refused: seconds
 * or minutes?), else undefined for the RPC client's default. A bridge whose receipt does not come in time
 * is still followed at the bridge, so a short wait loses nothing.
 */
export function resolveReceiptTimeoutMs(input: ResolveInput, explicit?: string): number | undefined {
  const env = input.env ?? process.env;
  const raw = nonEmpty(explicit) ?? nonEmpty(env['PERPS_RECEIPT_TIMEOUT']);
  if (raw === undefined) return undefined;
  const field = explicit !== undefined ? 'receipt-timeout' : 'PERPS_RECEIPT_TIMEOUT';
  const problem = durationTextProblem(raw);
  if (problem !== null) throw new ValidationError(problem, { field });
  const ms = parseDuration(raw, field);
  if (ms <= 0 || ms > MAX_RECEIPT_TIMEOUT_MS) throw new ValidationError(`must be longer than 0s and at most 24h, got ${raw}`, { field });
  return ms;
}

export function clearRpcUrl(input: ResolveInput, chain: string): boolean {
  const k = key(input.profile, `rpc.${parseEvmChainId(chain, 'chain')}`);
  const had = input.settings.has(k);
  input.settings.delete(k);
  return had;
}

/** The RPC URLs stored for the profile (not the environment or defaults). */
export function storedRpcUrls(input: ResolveInput): Record<string, string> {
  const raw = input.settings.get(key(input.profile, 'rpc'));
  const out: Record<string, string> = {};
  if (typeof raw === 'object' && raw !== null) for (const [chain, url] of Object.entries(raw as Record<string, unknown>)) if (typeof url === 'string') out[chain] = url;
  return out;
}

/** The partner code attached to bridges and swaps: explicit, else PERPS_PARTNER_CODE, else the stored one. */
export function resolvePartnerCode(input: ResolveInput, explicit?: string): string | undefined {
  const env = input.env ?? process.env;
  const raw = nonEmpty(explicit) ?? nonEmpty(env['PERPS_PARTNER_CODE']) ?? stored(input.settings, key(input.profile, 'partnerCode'));
  return raw === undefined ? undefined : parsePartnerCode(raw, 'source');
}

export function savePartnerCode(input: ResolveInput, code: string): void {
  input.settings.set(key(input.profile, 'partnerCode'), parsePartnerCode(code, 'source'));
}

/** The partner code or a ValidationError saying how to give one. */
export function requirePartnerCode(input: ResolveInput, explicit: string | undefined, why: string): string {
  const code = resolvePartnerCode(input, explicit);
  if (code === undefined) {
    throw new ValidationError(`a partner code is required ${why}`, { field: 'source', code: 'PARTNER_CODE_REQUIRED', hint: 'Pass --source CODE or set PERPS_PARTNER_CODE.' });
  }
  return code;
}

/** Where a resolved value came from, for a settings screen (precedence as in resolveCompanionUrl). */
export type SettingSource = 'stored' | 'environment' | 'simulator' | 'unset';

/** The URL of a companion service and where it comes from, without failing when it is unset. */
export function describeCompanionUrl(input: ResolveInput, service: CompanionService): { url: string | null; source: SettingSource } {
  const env = input.env ?? process.env;
  const fromEnv = nonEmpty(env[ENV_OF[service]]);
  if (fromEnv !== undefined) return { url: fromEnv, source: 'environment' };
  const fromStore = stored(input.settings, key(input.profile, `urls.${service}`));
  if (fromStore !== undefined) return { url: fromStore, source: 'stored' };
  const origin = simOrigin(input.profile);
  return origin ? { url: origin + SIM_COMPANION_PATHS[service], source: 'simulator' } : { url: null, source: 'unset' };
}

/** The JSON-RPC URL of a chain and where it comes from, without failing when it is unset. */
export function describeRpcUrl(input: ResolveInput, chain: string): { url: string | null; source: SettingSource } {
  const env = input.env ?? process.env;
  const fromEnv = nonEmpty(env[rpcEnv(chain)]);
  if (fromEnv !== undefined) return { url: fromEnv, source: 'environment' };
  const fromStore = stored(input.settings, key(input.profile, `rpc.${chain}`));
  if (fromStore !== undefined) return { url: fromStore, source: 'stored' };
  const origin = simOrigin(input.profile);
  return origin ? { url: `${origin}${SIM_COMPANION_PATHS.rpc}/${chain}`, source: 'simulator' } : { url: null, source: 'unset' };
}

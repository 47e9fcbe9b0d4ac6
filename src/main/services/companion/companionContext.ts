/**
 * Everything the bridge, points, swap and assistant use cases need for one profile: the four companion
 * clients (built on first use, so a command that only reads points never needs a bridge URL, and rebuilt
 * when their URL setting changes), the per-chain
 * JSON-RPC clients, the partner code, the settings store and an injectable sleep and clock. Built from the
 * profile and settings of a ServiceContext, so the CLI, the app and the tests wire it the same way.
 */
import { AggregatorClient, BridgeClient, InferenceClient, PointsClient } from '../../api/companion/index.js';
import type { FetchFn } from '../../api/http.js';
import { realSleep, type RandomFn, type RetryPolicy, type SleepFn } from '../../api/retry.js';
import { EvmRpcClient } from '../../api/evm/evmRpc.js';
import type { Profile } from '../../profiles/profiles.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import { EVM_CHAIN_IDS, parseEvmChainId } from '../chains/chainIds.js';
import { withCompanionFailures } from './companionFailures.js';
import { resolveCompanionUrl, resolvePartnerCode, resolveRpcUrl, type CompanionService, type ResolveInput } from './companionSettings.js';

export interface CompanionContextOptions {
  /** Explicit service roots (command-line flags); the rest resolve from env, settings, sim defaults. */
  urls?: Partial<Record<CompanionService, string>>;
  /** Explicit RPC URL per chain (--rpc-url). */
  rpcUrls?: Record<string, string>;
  /** Explicit partner code (--source). */
  partnerCode?: string;
  fetch?: FetchFn;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** The inference client's own budget (it retries 429/502/503 with backoff). */
  inferenceRetry?: RetryPolicy;
  /** Used by the clients between retries and by trackers between polls; tests advance a simulated clock. */
  sleep?: SleepFn;
  random?: RandomFn;
  /** Local clock (ms) for the requestId lifetime; default Date.now. */
  now?: () => number;
  /** Receipt polling of the RPC clients. */
  rpcPollingIntervalMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface CompanionContext {
  readonly profile: Profile;
  readonly settings: SettingsStore;
  readonly bridge: BridgeClient;
  readonly points: PointsClient;
  readonly aggregator: AggregatorClient;
  readonly inference: InferenceClient;
  readonly sleep: SleepFn;
  now(): number;
  /** The partner code: explicit option, PERPS_PARTNER_CODE or the stored one. */
  partnerCode(explicit?: string): string | undefined;
  /** The resolved JSON-RPC URL of an EVM chain. */
  rpcUrl(chain: string): string;
  /** A client of the chain's JSON-RPC, checked to serve that chain. The caller destroys it. */
  rpc(chain: string): Promise<EvmRpcClient>;
  readonly resolveInput: ResolveInput;
}

export function createCompanionContext(base: { profile: Profile; settings: SettingsStore }, options: CompanionContextOptions = {}): CompanionContext {
  const resolveInput: ResolveInput = { profile: base.profile, settings: base.settings, env: options.env ?? process.env };
  const sleep = options.sleep ?? realSleep;
  const common = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.random ? { random: options.random } : {}),
    sleep,
  };
  const withRetry = { ...common, ...(options.retry ? { retry: options.retry } : {}) };
  const url = (s: CompanionService): string => resolveCompanionUrl(resolveInput, s, options.urls?.[s]);
  /**
   * A service's client, built on first use and rebuilt whenever its resolved URL changes: a URL saved in
   * Settings takes effect on the next call, so nothing (the inference key least of all) goes on being sent
   * to the root the user just replaced.
   */
  const perUrl = <T>(service: CompanionService, make: (baseUrl: string) => T): (() => T) => {
    let built: { baseUrl: string; client: T } | undefined;
    return () => {
      const baseUrl = url(service);
      if (built?.baseUrl !== baseUrl) built = { baseUrl, client: make(baseUrl) };
      return built.client;
    };
  };
  const bridge = perUrl('bridge', (baseUrl) => new BridgeClient({ baseUrl, ...withRetry }));
  const points = perUrl('platform', (baseUrl) => new PointsClient({ baseUrl, ...withRetry }));
  const aggregator = perUrl('aggregator', (baseUrl) => new AggregatorClient({ baseUrl, ...withRetry }));
  const inference = perUrl('inference', (baseUrl) => new InferenceClient({ baseUrl, ...common, ...(options.inferenceRetry ? { retry: options.inferenceRetry } : {}) }));
  const rpcUrl = (chain: string): string => resolveRpcUrl(resolveInput, parseEvmChainId(chain, 'chain'), options.rpcUrls?.[chain]);

  return {
    profile: base.profile,
    settings: base.settings,
    get bridge() {
      return bridge();
    },
    get points() {
      return points();
    },
    get aggregator() {
      return aggregator();
    },
    get inference() {
      return inference();
    },
    sleep,
    now: options.now ?? Date.now,
    partnerCode: (explicit) => resolvePartnerCode(resolveInput, explicit ?? options.partnerCode),
    rpcUrl,
    rpc: (chain) => {
      const u = rpcUrl(chain);
      const expected = EVM_CHAIN_IDS[chain];
      return withCompanionFailures(() =>
        EvmRpcClient.open({
          chain,
          url: u,
          ...(expected !== undefined ? { expectedChainId: expected } : {}),
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          ...(options.rpcPollingIntervalMs !== undefined ? { pollingIntervalMs: options.rpcPollingIntervalMs } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }),
      );
    },
    resolveInput,
  };
}

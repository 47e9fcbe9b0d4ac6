/**
 * A simulator (manual clock, real loopback HTTP) and the app's CompanionContext pointed at it, as the CLI and
 * the app wire it: sim profile, a settings store in a temporary folder, the bridge, points, aggregator and
 * inference clients, and each chain's JSON-RPC at {origin}/rpc/<chain>.
 *
 * Every HTTP request the clients make to the companion APIs is recorded (method, path, status), so tests can
 * prove what was and was not sent. The context's sleep advances the simulator's clock, so backoffs and poll
 * loops run at simulated speed; its local clock (`now`, which the requestId lifetime is judged by) is the
 * simulator's clock too unless a test asks for the wall clock.
 */
import fs from 'node:fs';
import { Wallet } from 'ethers';
import { createCompanionContext, type CompanionContext, type CompanionContextOptions } from '../../../src/main/services/companion/index.js';
import { simProfile } from '../../../src/main/profiles/profiles.js';
import { openNodeSettings, type SettingsStore } from '../../../src/main/settings/settingsStore.js';
import { WalletTransactionSigner } from '../../../src/main/signers/transactions/index.js';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { SimBed, startSimBed } from '../../support/simBed.js';
import { defaultCompanionConfig } from '../../../src/sim/companion/index.js';
import { tempDir } from '../../support/keychain.js';

export interface RecordedRequest {
  method: string;
  /** Path below the origin, with the query string. */
  path: string;
  status: number;
  body?: string;
}

export const ETH = 10n ** 18n;
const cfg = defaultCompanionConfig();

/** The simulator's token addresses, read from its configuration (tests never hardcode them). */
export function tokenOf(chain: string, symbol: string): string {
  const t = cfg.tokens.find((x) => x.chain === chain && x.symbol === symbol);
  if (!t) throw new Error(`no ${symbol} on ${chain}`);
  return t.address;
}

export function routerOf(chain: string, kind: 'bridge' | 'aggregator'): string {
  const c = cfg.chains.find((x) => x.id === chain);
  const a = kind === 'bridge' ? c?.bridgeRouter : c?.aggregatorRouter;
  if (!a) throw new Error(`no ${kind} router on ${chain}`);
  return a;
}

export class CompanionWorld extends SimBed {
  readonly requests: RecordedRequest[] = [];
  /** Runs before each recorded request is sent (tests use it to change the sim mid-flow). */
  beforeRequest: ((r: RecordedRequest) => void | Promise<void>) | null = null;

  private constructor(
    sim: RunningSimulator,
    readonly dataDir: string,
    readonly settings: SettingsStore,
  ) {
    super(sim);
  }

  static async boot(label: string, options: { seed?: number; config?: unknown } = {}): Promise<CompanionWorld> {
    const sim = await startSimBed({ seed: options.seed ?? 11, manualClock: true, ...(options.config ? { config: options.config } : {}) });
    const dataDir = tempDir(label);
    return new CompanionWorld(sim, dataDir, openNodeSettings(dataDir));
  }

  get origin(): string {
    return new URL(this.sim.urls.base_url).origin;
  }

  /** The fetch the clients use: records every request, then sends it. */
  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const rec: RecordedRequest = { method: init?.method ?? 'GET', path: url.pathname + url.search, status: 0, ...(typeof init?.body === 'string' ? { body: init.body } : {}) };
    await this.beforeRequest?.(rec);
    this.requests.push(rec);
    const res = await fetch(input, init);
    rec.status = res.status;
    return res;
  };

  /** Moves the simulated clock; yields so timers and sockets run. */
  async advance(ms: number): Promise<void> {
    if (ms > 0) this.sim.clock.advance(ms);
    await new Promise((resolve) => setImmediate(resolve));
  }

  context(options: Partial<CompanionContextOptions> & { wallClock?: boolean } = {}): CompanionContext {
    const { wallClock, ...rest } = options;
    return createCompanionContext(
      { profile: simProfile(this.sim.urls, this.dataDir), settings: this.settings },
      {
        fetch: this.fetch,
        timeoutMs: 5_000,
        retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
        inferenceRetry: { attempts: 4, baseDelayMs: 100, maxDelayMs: 1_000 },
        sleep: (ms) => this.advance(ms),
        now: wallClock ? Date.now : () => this.sim.clock.now(),
        rpcPollingIntervalMs: 50,
        env: {},
        ...rest,
      },
    );
  }

  /** Requests whose path starts with `prefix` (e.g. '/bridge/v1'), since index `from`. */
  sent(prefix: string, from = 0): RecordedRequest[] {
    return this.requests.slice(from).filter((r) => r.path.startsWith(prefix));
  }

  /** Native (wei) or ERC-20 (smallest units) funds on a simulated chain. */
  fund(chain: string, address: string, amount: bigint, token?: string): Promise<unknown> {
    return this.companionControl('/rpc/fund', { chain, address, amount: amount.toString(), ...(token ? { token } : {}) });
  }

  forceOutcome(target: { src_tx: string } | { next: true }, state: 'done' | 'refunded' | 'failed'): Promise<unknown> {
    return this.companionControl('/bridge/outcome', { ...target, state });
  }

  /** A fresh main wallet as an env-key transaction signer (the warning is captured, not printed). */
  envSigner(wallet: Wallet = Wallet.createRandom() as unknown as Wallet): { wallet: Wallet; signer: WalletTransactionSigner; warnings: string[] } {
    const warnings: string[] = [];
    const signer = WalletTransactionSigner.fromEnv('PERPS_TEST_KEY', { env: { PERPS_TEST_KEY: wallet.privateKey }, logger: { warn: (m) => warnings.push(m) } });
    return { wallet, signer, warnings };
  }

  async stop(): Promise<void> {
    await this.sim.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

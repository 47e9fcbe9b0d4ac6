/**
 * A simulator (manual clock, real loopback HTTP) and the app's own ServiceContext pointed at it, with
 * traders whose trading keys are real: created by the vault in the real keychain (a Secret Service, under
 * a service name unique to the test file, wiped afterwards) and authorized with the keys service, the
 * main wallet being an ethers Wallet.
 *
 * The context's sleep advances the simulator's clock instead of waiting, so every poll loop of the
 * services (tracker, confirmations, margin waits) runs at simulated speed and deterministically. Every
 * HTTP request the context makes to the trading API is counted and recorded.
 */
import fs from 'node:fs';
import { Wallet } from 'ethers';
import { createServiceContext, type ServiceContext } from '../../../src/main/services/serviceContext.js';
import { simProfile } from '../../../src/main/profiles/profiles.js';
import { authorizeTradingKey } from '../../../src/main/services/keys/authorize.js';
import type { Signer } from '../../../src/main/signers/signer.js';
import type { TypedData } from '../../../src/shared/eip712/index.js';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import type { ListedOrder, Market } from '../../../src/shared/protocol/index.js';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { SimBed, startSimBed } from '../../support/simBed.js';
import { tempDir, testService, wipeService } from '../../support/keychain.js';
import { readMark } from '../../../src/main/services/orders/orderContext.js';

export interface RecordedRequest {
  method: string;
  path: string;
  /** HTTP status; 0 while pending or when the connection failed without an answer. */
  status: number;
}

/** An ethers Wallet as the app's Signer interface (the main wallet of a test trader). */
export function ethersSigner(wallet: Wallet): Signer {
  return {
    kind: 'env',
    address: wallet.address,
    async signTypedData(data: TypedData): Promise<string> {
      const types = { [data.primaryType]: data.types[data.primaryType as keyof typeof data.types] as { name: string; type: string }[] };
      return wallet.signTypedData(data.domain, types, data.message as unknown as Record<string, unknown>);
    },
  };
}

export class TradingWorld extends SimBed {
  readonly requests: RecordedRequest[] = [];
  markets: Market[] = [];

  private constructor(
    sim: RunningSimulator,
    readonly ctx: ServiceContext,
    readonly keychainService: string,
    readonly dataDir: string,
  ) {
    super(sim);
  }

  /**
   * manualClock (default true): waits advance the simulated clock. With false the simulator follows the
   * wall clock (for a CLI child process, which cannot advance it) and waits really wait.
   */
  static async boot(label: string, options: { seed?: number; config?: unknown; manualClock?: boolean } = {}): Promise<TradingWorld> {
    const manual = options.manualClock ?? true;
    // The venue's random walk would move marks under the tests' feet; marks move only through /sim/mark.
    const sim = await startSimBed({ seed: options.seed ?? 7, manualClock: manual, freezeMarks: true, ...(options.config ? { config: options.config } : {}) });
    const keychainService = testService(label);
    const dataDir = tempDir(label);
    const requests: RecordedRequest[] = [];
    const base = new URL(sim.urls.base_url).pathname;
    const countingFetch: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (!url.pathname.startsWith(base)) return fetch(input, init);
      const rec: RecordedRequest = { method: init?.method ?? 'GET', path: url.pathname.slice(base.length), status: 0 };
      requests.push(rec);
      const res = await fetch(input, init);
      rec.status = res.status;
      return res;
    };
    const ctx = createServiceContext(simProfile(sim.urls, dataDir), {
      keychainService,
      fetch: countingFetch,
      timeoutMs: 5_000,
      retry: { attempts: 6, baseDelayMs: 5, maxDelayMs: 40 },
      configTtlMs: 0,
      // Waiting advances the simulated clock; the yield lets sockets and timers run between polls.
      sleep: async (ms: number) => {
        if (!manual) return new Promise<void>((resolve) => setTimeout(resolve, ms));
        if (ms > 0) sim.clock.advance(ms);
        await new Promise((resolve) => setImmediate(resolve));
      },
    });
    const world = new TradingWorld(sim, ctx, keychainService, dataDir);
    (world as { requests: RecordedRequest[] }).requests = requests;
    world.markets = await ctx.api.markets();
    return world;
  }

  async stop(): Promise<void> {
    await this.sim.stop();
    await wipeService(this.keychainService);
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  market(symbol: string): Market {
    const m = this.markets.find((x) => x.symbol === symbol);
    if (!m) throw new Error(`no market ${symbol}`);
    return m;
  }

  /** Moves simulated time (manual clock) or waits that long (wall clock). */
  async advance(ms: number): Promise<void> {
    await this.ctx.sleep(ms);
  }

  mark(symbol: string): Promise<Decimal> {
    return readMark(this.ctx, this.market(symbol));
  }

  /** Requests to the trading API since `from` (an index into `requests`). */
  since(from: number): RecordedRequest[] {
    return this.requests.slice(from);
  }

  /** A trader: fresh main wallet, a trading key in the real keychain authorized on the sim, funded. */
  async trader(fund: string | null = '100000'): Promise<Trader> {
    const main = Wallet.createRandom();
    const wallet = main.address;
    const key = await this.ctx.vault.create({ environment: this.ctx.profile.name, wallet, name: 'test' });
    await authorizeTradingKey(this.ctx, { wallet, agent: key.agent, signer: ethersSigner(new Wallet(main.privateKey)), expiresInDays: 30 });
    const t = new Trader(this, wallet, key.agent, ethersSigner(new Wallet(main.privateKey)));
    if (fund !== null) await t.fund(fund);
    return t;
  }
}

export class Trader {
  readonly accountId: string;

  constructor(
    readonly world: TradingWorld,
    readonly wallet: string,
    readonly agent: string,
    /** The main wallet (withdrawals are signed by it, not by the trading key). */
    readonly mainSigner?: Signer,
  ) {
    this.accountId = accountIdFromWallet(wallet);
  }

  async fund(amount: string): Promise<void> {
    const api = this.world.ctx.api;
    const before = new Decimal((await api.balance(this.accountId)).free_balance);
    await this.world.control('/deposit', { wallet: this.wallet, amount });
    for (let i = 0; i < 40; i++) {
      await this.world.advance(500);
      const now = new Decimal((await api.balance(this.accountId)).free_balance);
      if (now.minus(before).gte(amount)) return;
    }
    throw new Error(`deposit of ${amount} never credited`);
  }

  /** Every order-history row of the wallet (all pages). */
  history(): Promise<ListedOrder[]> {
    return this.world.ctx.api.allOrderHistory({ wallet: this.wallet });
  }

  async historyIds(): Promise<Set<string>> {
    return new Set((await this.history()).map((r) => r.order_id));
  }

  openOrders(market?: string): Promise<ListedOrder[]> {
    return this.world.ctx.api.allOpenOrders({ wallet: this.wallet, ...(market ? { market } : {}) });
  }
}

/** A size worth about `multiple` times min_order_value at `price`, on the market's size grid. */
export function sizeFor(m: Market, price: Decimal, multiple = 2): string {
  return canonical(new Decimal(m.min_order_value).mul(multiple).div(price).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_CEIL));
}

/** `price * factor` on the tick grid (down for factors below 1, up above). */
export function priceAt(m: Market, price: Decimal, factor: number | string): string {
  const raw = price.mul(factor).div(m.tick_size);
  const steps = new Decimal(factor).lt(1) ? raw.floor() : raw.ceil();
  return canonical(steps.mul(m.tick_size));
}

/**
 * A simulator, the app's clients pointed at it, and traders whose requests are built and signed the way
 * the app does it (the shared EIP-712 builders and the secp256k1 signer): these tests exercise the
 * client, so they use the client-side code, not the simulator's conformance helpers.
 */
import { TradingApiClient, type TradingApiClientOptions } from '../../../src/main/api/index.js';
import { PrivateKey } from '../../../src/main/signers/secp256k1.js';
import { VenueInfoClient, joinMarkets } from '../../../src/main/venue/index.js';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import {
  authorizeAgentTypedData,
  cancelTypedData,
  digestOf,
  marginTypedData,
  modifyTypedData,
  orderTypedData,
  revokeAgentTypedData,
  splitSignature,
  withdrawTypedData,
  type TypedData,
} from '../../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import type { CancelBody, MarginBody, Market, ModifyBody, OrderLeg, RegisterBody, RevokeBody, WithdrawBody } from '../../../src/shared/protocol/index.js';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { SimBed, startSimBed } from '../../support/simBed.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Wallet-signed actions accept any chainId above 0 that the body repeats; the trading chainId is pinned (998 on testnet). */
const WALLET_CHAIN_ID = 421614;

function clientFor(sim: RunningSimulator, options: Partial<TradingApiClientOptions>): TradingApiClient {
  return new TradingApiClient({ baseUrl: sim.urls.base_url, timeoutMs: 5_000, retry: { attempts: 5, baseDelayMs: 5, maxDelayMs: 20 }, ...options });
}

export class SimWorld extends SimBed {
  private lastNonce = 0;
  markets: Market[] = [];

  private constructor(
    sim: RunningSimulator,
    readonly api: TradingApiClient,
    readonly info: VenueInfoClient,
  ) {
    super(sim);
  }

  static async boot(apiOptions: Partial<TradingApiClientOptions> = {}): Promise<SimWorld> {
    const sim = await startSimBed({ seed: 1, manualClock: true });
    const api = clientFor(sim, apiOptions);
    const world = new SimWorld(sim, api, new VenueInfoClient({ url: sim.urls.venue_info_url }));
    world.markets = await api.markets();
    return world;
  }

  /** A client of this simulator with fast retries; options override. */
  client(options: Partial<TradingApiClientOptions> = {}): TradingApiClient {
    return clientFor(this.sim, options);
  }

  stop(): Promise<void> {
    return this.sim.stop();
  }

  now(): number {
    return this.sim.clock.now();
  }

  nonce(): number {
    this.lastNonce = Math.max(this.lastNonce + 1, this.now());
    return this.lastNonce;
  }

  advance(ms: number): Promise<unknown> {
    return this.control('/advance', { ms });
  }

  market(symbol: string): Market {
    const m = this.markets.find((x) => x.symbol === symbol);
    if (!m) throw new Error(`no market ${symbol}`);
    return m;
  }

  get defaultMarket(): Market {
    const m = this.markets.find((x) => x.is_active);
    if (!m) throw new Error('no active market');
    return m;
  }

  /** The venue mark of a market, joined on venue_asset_index / venue_symbol. */
  async mark(symbol: string): Promise<Decimal> {
    const [meta, ctxs] = await this.info.metaAndAssetCtxs();
    const j = joinMarkets([this.market(symbol)], meta, ctxs).bySymbol.get(symbol);
    if (!j?.ctx) throw new Error(`no venue ctx for ${symbol}`);
    return new Decimal(j.ctx.markPx);
  }
}

export interface LegSpec {
  market: string;
  side: 'BUY' | 'SELL';
  size: string;
  limit_price: string;
  order_type?: 'MARKET' | 'LIMIT';
  time_in_force?: 'GTC' | 'IOC' | 'ALO';
  reduce_only?: boolean;
  leverage?: number;
  client_order_id?: string;
}

let cid = 0;

export class TestTrader {
  readonly main = PrivateKey.generate();
  readonly agent = PrivateKey.generate();
  readonly wallet = this.main.address;
  readonly accountId = accountIdFromWallet(this.wallet);

  constructor(readonly world: SimWorld) {}

  static async create(world: SimWorld, opts: { register?: boolean; fund?: string | null } = {}): Promise<TestTrader> {
    const t = new TestTrader(world);
    if (opts.register !== false) await world.api.register(t.registerBody());
    const fund = opts.fund === undefined ? '10000' : opts.fund;
    if (fund !== null) await t.fund(fund);
    return t;
  }

  private signMain(data: TypedData): string {
    return this.main.signDigest(digestOf(data));
  }

  private signAgent(data: TypedData): string {
    return this.agent.signDigest(digestOf(data));
  }

  registerBody(): RegisterBody {
    const unsigned = {
      wallet_address: this.wallet,
      agent_wallet_address: this.agent.address,
      service_environment: 'Testnet' as const,
      signature_chain_id: WALLET_CHAIN_ID,
      expires_at: this.world.now() + 30 * DAY_MS,
      nonce: this.world.nonce(),
    };
    return { ...unsigned, signature: this.signMain(authorizeAgentTypedData(unsigned)) };
  }

  revokeBody(): RevokeBody {
    const unsigned = {
      wallet_address: this.wallet,
      agent_wallet_address: this.agent.address,
      service_environment: 'Testnet' as const,
      signature_chain_id: WALLET_CHAIN_ID,
      nonce: this.world.nonce(),
    };
    return { ...unsigned, signature: this.signMain(revokeAgentTypedData(unsigned)) };
  }

  /** Deposits through the control route and advances the clock until the balance shows it. */
  async fund(amount: string): Promise<void> {
    const before = new Decimal((await this.world.api.balance(this.accountId)).free_balance);
    await this.world.control('/deposit', { wallet: this.wallet, amount });
    for (let i = 0; i < 20; i++) {
      await this.world.advance(500);
      const now = new Decimal((await this.world.api.balance(this.accountId)).free_balance);
      if (now.minus(before).gte(amount)) return;
    }
    throw new Error(`deposit of ${amount} never credited`);
  }

  leg(spec: LegSpec): OrderLeg {
    const unsigned = {
      market: spec.market,
      side: spec.side,
      size: spec.size,
      limit_price: spec.limit_price,
      order_type: spec.order_type ?? 'LIMIT',
      time_in_force: spec.time_in_force ?? (spec.order_type === 'MARKET' ? 'IOC' : 'GTC'),
      reduce_only: spec.reduce_only ?? false,
      leverage: spec.leverage ?? 5,
      client_order_id: spec.client_order_id ?? `cid-${++cid}-${Math.random().toString(36).slice(2, 8)}`,
      nonce: String(this.world.nonce()),
    };
    return { ...unsigned, signature: this.signAgent(orderTypedData(this.accountId, unsigned, 'testnet')) };
  }

  /** A resting buy well under the mark: never fills, worth about twice min_order_value. */
  async restingBuy(symbol = this.world.defaultMarket.symbol, client_order_id?: string): Promise<OrderLeg> {
    const m = this.world.market(symbol);
    const mark = await this.world.mark(symbol);
    const price = mark.mul('0.8').div(m.tick_size).floor().mul(m.tick_size);
    const size = new Decimal(m.min_order_value).mul(2).div(price).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_CEIL);
    return this.leg({ market: symbol, side: 'BUY', size: canonical(size), limit_price: canonical(price), ...(client_order_id ? { client_order_id } : {}) });
  }

  /** A market buy with a generous slippage bound: fills at once against the venue book. */
  async marketBuy(symbol = this.world.defaultMarket.symbol): Promise<OrderLeg> {
    const m = this.world.market(symbol);
    const mark = await this.world.mark(symbol);
    const bound = mark.mul('1.05').div(m.tick_size).ceil().mul(m.tick_size);
    const size = new Decimal(m.min_order_value).mul(3).div(mark).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_CEIL);
    return this.leg({ market: symbol, side: 'BUY', size: canonical(size), limit_price: canonical(bound), order_type: 'MARKET', time_in_force: 'IOC' });
  }

  cancelBody(orderId: string, order_type: 'LIMIT' | 'TRIGGER' = 'LIMIT'): CancelBody {
    const unsigned = { account: this.wallet, order_type, nonce: String(this.world.nonce()) };
    return { ...unsigned, signature: this.signAgent(cancelTypedData(orderId, unsigned, 'testnet')) };
  }

  cancelBatchLeg(orderId: string, order_type: 'LIMIT' | 'TRIGGER' = 'LIMIT'): { order_id: string; order_type: 'LIMIT' | 'TRIGGER'; nonce: string; signature: string } {
    const body = this.cancelBody(orderId, order_type);
    return { order_id: orderId, order_type, nonce: body.nonce, signature: body.signature };
  }

  modifyBody(orderId: string, change: { limit_price: string; size: string }): ModifyBody {
    const unsigned = {
      account_id: this.accountId,
      client_order_id: `mod-${++cid}`,
      limit_price: change.limit_price,
      size: change.size,
      trigger_price: '0',
      nonce: String(this.world.nonce()),
    };
    return { ...unsigned, signature: this.signAgent(modifyTypedData(orderId, unsigned, 'testnet')) };
  }

  marginBody(market: string, amount: string): MarginBody {
    const unsigned = { account_id: this.accountId, market, amount, nonce: this.world.nonce() };
    return { ...unsigned, signature: this.signAgent(marginTypedData(unsigned, 'testnet')) };
  }

  withdrawBody(amount: string): WithdrawBody {
    const unsigned = { account_id: this.accountId, amount, nonce: String(this.world.nonce()), signature_chain_id: WALLET_CHAIN_ID };
    return { ...unsigned, signature: splitSignature(this.signMain(withdrawTypedData(unsigned, 'Testnet'))) };
  }
}

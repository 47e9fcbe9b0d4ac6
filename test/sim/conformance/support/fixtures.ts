/**
 * Fixtures of the conformance suite: one simulator per test file, fresh wallets per test, and
 * request builders written from the spec (never the app's).
 */
import Decimal from 'decimal.js';
import { Wallet } from 'ethers';
import { expect } from 'vitest';
import { startSimulator } from '../../../../src/sim/index.js';
import { describeRes, Http, type J, type Query, type Res } from './client.js';
import {
  accountIdOf,
  authorizeMessage,
  cancelMessage,
  domain,
  marginMessage,
  modifyMessage,
  orderMessage,
  revokeMessage,
  signTyped,
  splitSig,
  withdrawMessage,
  type LegBody,
  type ModifyBody,
  type TriggerBody,
  type TypedSigner,
} from './sign.js';

export { Decimal };
export type { J, Res };

/** The simulator's default flavour (brief): Testnet, trading chainId 998, Arbitrum testnet 421614. */
export const ENV = 'Testnet';
export const TRADING_CHAIN_ID = 998;
export const ARBITRUM_DESTINATION_CHAIN_ID = 421614;
export const DAY_MS = 24 * 60 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;

export interface Market {
  symbol: string;
  venue_symbol: string;
  venue_asset_index: number;
  max_leverage: number;
  display_max_leverage: number;
  initial_margin_ratio: string;
  maintenance_margin_ratio: string;
  maker_fee_rate: string;
  taker_fee_rate: string;
  min_order_value: string;
  max_notional: string;
  max_open_orders: number;
  slippage_bps: number;
  tick_size: string;
  sz_decimals: number;
  px_decimals: number;
  only_isolated: boolean;
  is_active: boolean;
}

interface SimHandle {
  urls: Record<string, string>;
  clock?: { now(): number };
  stop(): Promise<void> | void;
}

export function newWallet(): Wallet {
  const w = Wallet.createRandom();
  return new Wallet(w.privateKey);
}

// ---- decimal helpers ----------------------------------------------------------------------------

export const D = (v: Decimal.Value): Decimal => new Decimal(v);
/** Canonical decimal string: no exponent, no trailing zeros. */
export const fmt = (v: Decimal.Value): string => new Decimal(v).toFixed();

export function floorTick(price: Decimal.Value, tick: string): string {
  return fmt(D(price).div(tick).floor().mul(tick));
}
export function ceilTick(price: Decimal.Value, tick: string): string {
  return fmt(D(price).div(tick).ceil().mul(tick));
}
export function ceilSize(size: Decimal.Value, szDecimals: number): string {
  return fmt(D(size).toDecimalPlaces(szDecimals, Decimal.ROUND_CEIL));
}
export function floorSize(size: Decimal.Value, szDecimals: number): string {
  return fmt(D(size).toDecimalPlaces(szDecimals, Decimal.ROUND_FLOOR));
}

// ---- envelopes ------------------------------------------------------------------------------------

export function expectOk(res: Res): J {
  expect(res.status, describeRes(res)).toBe(200);
  expect(res.body?.success, describeRes(res)).toBe(true);
  expect(Number.isInteger(res.body?.timestamp), describeRes(res)).toBe(true);
  return res.body.data;
}

/** An error envelope with the exact HTTP status and error.code. */
export function expectError(res: Res, status: number, code?: string): void {
  expect(res.status, describeRes(res)).toBe(status);
  expect(res.body?.success, describeRes(res)).toBe(false);
  expect(typeof res.body?.error?.message, describeRes(res)).toBe('string');
  expect(Number.isInteger(res.body?.timestamp), describeRes(res)).toBe(true);
  if (code !== undefined) expect(res.body?.error?.code, describeRes(res)).toBe(code);
}

/** A 400 whose code is one of `codes` (where the spec allows more than one reading). */
export function expectErrorOneOf(res: Res, status: number, codes: string[]): void {
  expectError(res, status);
  expect(codes, describeRes(res)).toContain(res.body.error.code);
}

/** 409 on a replayed nonce; the spec gives no error code for it. */
export function expectReplay(res: Res): void {
  expect(res.status, describeRes(res)).toBe(409);
}

/**
 * The leg was not accepted: either the whole request failed validation (400) or the leg reads
 * REJECTED. Used where the spec says "rejected" without naming the stage or the reason.
 */
export function expectLegNotAccepted(res: Res, index = 0): void {
  if (res.status === 200) {
    const leg = res.body?.data?.[index];
    expect(leg?.status, describeRes(res)).toBe('REJECTED');
    expect(res.body.success, describeRes(res)).toBe(false);
  } else {
    expectError(res, 400, 'INVALID_REQUEST');
  }
}

export function legs(res: Res): J[] {
  expect(res.status, describeRes(res)).toBe(200);
  expect(Array.isArray(res.body?.data), describeRes(res)).toBe(true);
  return res.body.data as J[];
}

export function expectLegRejected(res: Res, index: number, reason: string): void {
  const data = legs(res);
  expect(data[index]?.status, describeRes(res)).toBe('REJECTED');
  expect(data[index]?.reason, describeRes(res)).toBe(reason);
  expect(res.body.success, describeRes(res)).toBe(false);
}

export function expectLegSubmitted(res: Res, index = 0): string {
  const data = legs(res);
  expect(data[index]?.status, describeRes(res)).toBe('SUBMITTED');
  expect(typeof data[index]?.order_id, describeRes(res)).toBe('string');
  return data[index].order_id as string;
}

// ---- the simulator context -------------------------------------------------------------------------

export interface OrderSpec {
  market: string;
  side: 'BUY' | 'SELL' | string;
  size: string;
  limit_price: string;
  order_type?: string;
  time_in_force?: string;
  reduce_only?: boolean;
  leverage?: number;
  client_order_id?: string;
  trigger?: TriggerBody;
  parent_client_order_id?: string;
  nonce?: string;
  /** Keys to leave out of the body entirely (e.g. client_order_id). */
  omit?: string[];
  /** Extra body fields. */
  extra?: Record<string, unknown>;
  /** Signing overrides: members of the signed Order message. */
  signAs?: Record<string, unknown>;
  /** Who signs (default: the trader's agent). */
  signer?: TypedSigner;
  chainId?: number;
}

let cidCounter = 0;
export const cid = (prefix = 'c'): string => `${prefix}-${++cidCounter}-${Math.random().toString(36).slice(2, 8)}`;

export class Ctx {
  readonly api: Http;
  readonly ctl: Http;
  readonly venue: Http;
  markets: Market[] = [];
  config: J = {};
  private lastNonce = 0;

  private constructor(readonly sim: SimHandle) {
    this.api = new Http(sim.urls.base_url!);
    this.ctl = new Http(sim.urls.control_url!);
    this.venue = new Http(sim.urls.venue_info_url!);
  }

  static async boot(): Promise<Ctx> {
    const sim = (await startSimulator({ port: 0, seed: 1, manualClock: true })) as unknown as SimHandle;
    const ctx = new Ctx(sim);
    // Marks move only through POST /sim/mark from here on, so price-relative tests are deterministic.
    const frozen = await ctx.ctl.post('/freeze-marks', {});
    expect(frozen.status, describeRes(frozen)).toBe(200);
    ctx.markets = expectOk(await ctx.api.get('/markets')) as Market[];
    ctx.config = expectOk(await ctx.api.get('/config'));
    return ctx;
  }

  async stop(): Promise<void> {
    await this.sim.stop();
  }

  /** The simulator's clock (manual: only /advance moves it). */
  now(): number {
    const n = this.sim.clock?.now();
    return typeof n === 'number' ? n : Math.max(this.api.lastServerTime, Date.now());
  }

  /** A fresh Unix-ms nonce, strictly increasing across the whole file. */
  nonce(): number {
    this.lastNonce = Math.max(this.lastNonce + 1, this.now());
    return this.lastNonce;
  }

  market(symbol: string): Market {
    const m = this.markets.find((x) => x.symbol === symbol);
    if (!m) throw new Error(`no market ${symbol}`);
    return m;
  }

  /** Active markets, optionally filtered. The first one is the suite's default market. */
  active(filter: (m: Market) => boolean = () => true): Market[] {
    return this.markets.filter((m) => m.is_active && filter(m));
  }

  get defaultMarket(): Market {
    const m = this.active()[0];
    if (!m) throw new Error('no active market');
    return m;
  }

  // ---- control routes ----

  async advance(ms: number): Promise<void> {
    const res = await this.ctl.post('/advance', { ms });
    expect(res.status, describeRes(res)).toBe(200);
  }

  /** Advance in steps (each step lets asynchronous work run). */
  async advanceSteps(steps: number, stepMs: number): Promise<void> {
    for (let i = 0; i < steps; i++) await this.advance(stepMs);
  }

  async setMark(symbol: string, price: Decimal.Value): Promise<void> {
    const res = await this.ctl.post('/mark', { market: symbol, price: fmt(price) });
    expect(res.status, describeRes(res)).toBe(200);
  }

  async deposit(wallet: string, amount: string, rail?: string): Promise<Res> {
    const body: Record<string, unknown> = { wallet, amount };
    if (rail !== undefined) body.rail = rail;
    const res = await this.ctl.post('/deposit', body);
    expect(res.status, describeRes(res)).toBe(200);
    return res;
  }

  async chaos(settings: Record<string, number>): Promise<void> {
    const res = await this.ctl.post('/chaos', settings);
    expect(res.status, describeRes(res)).toBe(200);
  }

  async withdrawalOutcome(body: Record<string, unknown>): Promise<Res> {
    const res = await this.ctl.post('/withdrawal-outcome', body);
    expect(res.status, describeRes(res)).toBe(200);
    return res;
  }

  async marginOutcome(body: Record<string, unknown>): Promise<Res> {
    const res = await this.ctl.post('/margin-outcome', body);
    expect(res.status, describeRes(res)).toBe(200);
    return res;
  }

  async orderOutcome(body: Record<string, unknown>): Promise<Res> {
    const res = await this.ctl.post('/order-outcome', body);
    expect(res.status, describeRes(res)).toBe(200);
    return res;
  }

  async liquidate(wallet: string, market: string, orphan = false): Promise<Res> {
    const res = await this.ctl.post('/liquidate', { wallet, market, orphan });
    expect(res.status, describeRes(res)).toBe(200);
    return res;
  }

  async setFundingRate(market: string, rate: string): Promise<void> {
    const res = await this.ctl.post('/funding-rate', { market, rate });
    expect(res.status, describeRes(res)).toBe(200);
  }

  // ---- venue reads (the venue's own public interface serves marks and books) ----

  async venueInfo(body: unknown): Promise<Res> {
    return this.venue.post('', body);
  }

  /** Current mark of a market, read from the venue joined on venue_asset_index. */
  async mark(symbol: string): Promise<Decimal> {
    const m = this.market(symbol);
    const res = await this.venueInfo({ type: 'metaAndAssetCtxs' });
    expect(res.status, describeRes(res)).toBe(200);
    const ctx = res.body?.[1]?.[m.venue_asset_index];
    expect(ctx?.markPx, describeRes(res)).toBeTypeOf('string');
    return D(ctx.markPx as string);
  }

  async book(symbol: string): Promise<{ bids: { px: string; sz: string }[]; asks: { px: string; sz: string }[] }> {
    const m = this.market(symbol);
    const res = await this.venueInfo({ type: 'l2Book', coin: m.venue_symbol });
    expect(res.status, describeRes(res)).toBe(200);
    const levels = res.body?.levels as [{ px: string; sz: string }[], { px: string; sz: string }[]];
    return { bids: levels[0], asks: levels[1] };
  }

  // ---- polling ----

  async getOrder(orderId: string): Promise<Res> {
    return this.api.get(`/orders/${encodeURIComponent(orderId)}`);
  }

  /**
   * Advances the clock step by step until the order record satisfies `pred`; returns it and the
   * distinct statuses seen on the way (a 404 is recorded as 'NOT_FOUND').
   */
  async waitOrder(orderId: string, pred: (o: J) => boolean, opts: { stepMs?: number; maxSteps?: number } = {}): Promise<{ order: J; seen: string[] }> {
    const stepMs = opts.stepMs ?? 500;
    const maxSteps = opts.maxSteps ?? 60;
    const seen: string[] = [];
    let last: Res | undefined;
    for (let i = 0; i <= maxSteps; i++) {
      last = await this.getOrder(orderId);
      const s = last.status === 404 ? 'NOT_FOUND' : last.status === 200 ? String(last.body?.data?.status) : `HTTP${last.status}`;
      if (seen[seen.length - 1] !== s) seen.push(s);
      if (last.status === 200 && pred(last.body.data)) return { order: last.body.data, seen };
      if (i < maxSteps) await this.advance(stepMs);
    }
    throw new Error(`order ${orderId} never matched; seen ${seen.join(' > ')}; last ${last ? describeRes(last) : 'none'}`);
  }

  async waitStatus(orderId: string, status: string | string[], opts: { stepMs?: number; maxSteps?: number } = {}): Promise<{ order: J; seen: string[] }> {
    const wanted = Array.isArray(status) ? status : [status];
    return this.waitOrder(orderId, (o) => wanted.includes(o.status), opts);
  }

  /** Advances until `check` returns a value other than undefined. */
  async until<T>(what: string, check: () => Promise<T | undefined>, opts: { stepMs?: number; maxSteps?: number } = {}): Promise<T> {
    const stepMs = opts.stepMs ?? 500;
    const maxSteps = opts.maxSteps ?? 60;
    for (let i = 0; i <= maxSteps; i++) {
      const v = await check();
      if (v !== undefined) return v;
      if (i < maxSteps) await this.advance(stepMs);
    }
    throw new Error(`timed out waiting for ${what}`);
  }
}

// ---- a trader: main wallet + trading key -----------------------------------------------------------

export class Trader {
  readonly accountId: string;
  readonly address: string;

  constructor(
    readonly ctx: Ctx,
    readonly wallet: Wallet,
    readonly agent: Wallet,
  ) {
    this.address = wallet.address;
    this.accountId = accountIdOf(wallet.address);
  }

  /** A fresh wallet; registered unless register: false; funded with `fund` USDC unless null. */
  static async create(ctx: Ctx, opts: { register?: boolean; fund?: string | null } = {}): Promise<Trader> {
    const t = new Trader(ctx, newWallet(), newWallet());
    if (opts.register !== false) expectOk(await t.register());
    const fund = opts.fund === undefined ? '100000' : opts.fund;
    if (fund !== null) await t.fund(fund);
    return t;
  }

  // ---- keys ----

  async registerBody(
    opts: {
      agent?: string;
      env?: string;
      signEnv?: string;
      chainId?: number;
      bodyChainId?: number;
      expiresAt?: number;
      signExpiresAt?: number;
      nonce?: number;
      signer?: TypedSigner;
      name?: string;
      key_hint?: string;
    } = {},
  ): Promise<Record<string, unknown>> {
    const agent = opts.agent ?? this.agent.address;
    const env = opts.env ?? ENV;
    const chainId = opts.chainId ?? 421614;
    const expiresAt = opts.expiresAt ?? this.ctx.now() + 30 * DAY_MS;
    const nonce = opts.nonce ?? this.ctx.nonce();
    const message = authorizeMessage(this.address, agent, opts.signEnv ?? env, opts.signExpiresAt ?? expiresAt, nonce);
    const signature = await signTyped(opts.signer ?? this.wallet, 'AuthorizeAgent', domain(chainId), message);
    const body: Record<string, unknown> = {
      wallet_address: this.address,
      agent_wallet_address: agent,
      service_environment: env,
      signature_chain_id: opts.bodyChainId ?? chainId,
      expires_at: expiresAt,
      nonce,
      signature,
    };
    if (opts.name !== undefined) body.name = opts.name;
    if (opts.key_hint !== undefined) body.key_hint = opts.key_hint;
    return body;
  }

  async register(opts: Parameters<Trader['registerBody']>[0] = {}): Promise<Res> {
    return this.ctx.api.post('/auth/register', await this.registerBody(opts));
  }

  async revokeBody(opts: { agent?: string; env?: string; signEnv?: string; chainId?: number; bodyChainId?: number; nonce?: number; signer?: TypedSigner } = {}): Promise<Record<string, unknown>> {
    const agent = opts.agent ?? this.agent.address;
    const env = opts.env ?? ENV;
    const chainId = opts.chainId ?? 421614;
    const nonce = opts.nonce ?? this.ctx.nonce();
    const signature = await signTyped(opts.signer ?? this.wallet, 'RevokeAgent', domain(chainId), revokeMessage(this.address, agent, opts.signEnv ?? env, nonce));
    return {
      wallet_address: this.address,
      agent_wallet_address: agent,
      service_environment: env,
      signature_chain_id: opts.bodyChainId ?? chainId,
      nonce,
      signature,
    };
  }

  async revoke(opts: Parameters<Trader['revokeBody']>[0] = {}): Promise<Res> {
    return this.ctx.api.post('/auth/trading-keys/revoke', await this.revokeBody(opts));
  }

  async keys(): Promise<J[]> {
    const data = expectOk(await this.ctx.api.get('/auth/trading-keys', { wallet: this.address }));
    expect(Array.isArray(data)).toBe(true);
    return data as J[];
  }

  // ---- money ----

  /** Deposits through the control route and waits until the balance shows it. */
  async fund(amount: string): Promise<void> {
    const before = D(await this.freeBalance());
    await this.ctx.deposit(this.address, amount);
    await this.ctx.until(
      `deposit of ${amount} to be credited`,
      async () => {
        const now = D(await this.freeBalance());
        return now.minus(before).gte(amount) ? true : undefined;
      },
      { stepMs: 1000, maxSteps: 180 },
    );
  }

  async balanceRes(): Promise<Res> {
    return this.ctx.api.get(`/account/${this.accountId}/balance`);
  }

  async freeBalance(): Promise<string> {
    const data = expectOk(await this.balanceRes());
    return data.free_balance as string;
  }

  async withdrawBody(
    amount: string,
    opts: {
      env?: string;
      chainId?: number;
      bodyChainId?: number;
      nonce?: string;
      signer?: TypedSigner;
      signAmount?: string;
      signDestination?: string;
      recipient?: string;
      destinationChainId?: number;
      hexSignature?: boolean;
    } = {},
  ): Promise<Record<string, unknown>> {
    const chainId = opts.chainId ?? 42161;
    const nonce = opts.nonce ?? String(this.ctx.nonce());
    const destination = opts.signDestination ?? opts.recipient ?? this.address;
    const sig = await signTyped(opts.signer ?? this.wallet, 'Withdraw', domain(chainId), withdrawMessage(this.address, destination, opts.signAmount ?? amount, opts.env ?? ENV, nonce));
    const body: Record<string, unknown> = {
      account_id: this.accountId,
      amount,
      signature: opts.hexSignature ? sig : splitSig(sig),
      nonce,
      signature_chain_id: opts.bodyChainId ?? chainId,
    };
    if (opts.recipient !== undefined) {
      body.destination_chain_id = opts.destinationChainId ?? ARBITRUM_DESTINATION_CHAIN_ID;
      body.destination_recipient = opts.recipient;
    }
    return body;
  }

  async withdraw(amount: string, opts: Parameters<Trader['withdrawBody']>[1] = {}): Promise<Res> {
    return this.ctx.api.post('/account/withdraw', await this.withdrawBody(amount, opts));
  }

  // ---- orders ----

  defaultLeverage(market: string): number {
    const m = this.ctx.markets.find((x) => x.symbol === market);
    return m ? Math.min(5, m.max_leverage) : 1;
  }

  async signLeg(spec: OrderSpec, accountId = this.accountId): Promise<LegBody> {
    const leg: LegBody = {
      market: spec.market,
      side: spec.side,
      size: spec.size,
      limit_price: spec.limit_price,
      client_order_id: spec.client_order_id ?? cid(),
      nonce: spec.nonce ?? String(this.ctx.nonce()),
    };
    if (spec.order_type !== undefined) leg.order_type = spec.order_type;
    if (spec.time_in_force !== undefined) leg.time_in_force = spec.time_in_force;
    else if (spec.order_type !== 'TRIGGER') leg.time_in_force = spec.order_type === 'LIMIT' ? 'GTC' : 'IOC';
    leg.reduce_only = spec.reduce_only ?? false;
    leg.leverage = spec.leverage ?? this.defaultLeverage(spec.market);
    if (spec.trigger !== undefined) leg.trigger = spec.trigger;
    if (spec.parent_client_order_id !== undefined) leg.parent_client_order_id = spec.parent_client_order_id;
    Object.assign(leg, spec.extra ?? {});
    const message = { ...orderMessage(accountId, leg), ...(spec.signAs ?? {}) };
    leg.signature = await signTyped(spec.signer ?? this.agent, 'Order', domain(spec.chainId ?? TRADING_CHAIN_ID), message);
    for (const k of spec.omit ?? []) delete leg[k];
    return leg;
  }

  async submitLegs(legsIn: LegBody[], accountId = this.accountId): Promise<Res> {
    return this.ctx.api.post('/orders', { account_id: accountId, orders: legsIn });
  }

  async place(...specs: OrderSpec[]): Promise<Res> {
    const signed: LegBody[] = [];
    for (const s of specs) signed.push(await this.signLeg(s));
    return this.submitLegs(signed);
  }

  /** Places one leg and returns its order_id (asserting SUBMITTED). */
  async placeOk(spec: OrderSpec): Promise<string> {
    return expectLegSubmitted(await this.place(spec));
  }

  async cancelBody(orderId: string, orderType: string, opts: { signer?: TypedSigner; signOrderId?: string; chainId?: number; account?: string; nonce?: string } = {}): Promise<Record<string, unknown>> {
    const nonce = opts.nonce ?? String(this.ctx.nonce());
    const account = opts.account ?? this.address;
    const signature = await signTyped(opts.signer ?? this.agent, 'Cancel', domain(opts.chainId ?? TRADING_CHAIN_ID), cancelMessage(this.address, opts.signOrderId ?? orderId, orderType, nonce));
    return { account, order_type: orderType, nonce, signature };
  }

  async cancel(orderId: string, orderType: string, opts: Parameters<Trader['cancelBody']>[2] = {}): Promise<Res> {
    return this.ctx.api.post(`/orders/${encodeURIComponent(orderId)}/cancel`, await this.cancelBody(orderId, orderType, opts));
  }

  async cancelLeg(orderId: string, orderType: string, opts: { signer?: TypedSigner } = {}): Promise<Record<string, unknown>> {
    const body = await this.cancelBody(orderId, orderType, opts);
    return { order_id: orderId, order_type: orderType, nonce: body.nonce, signature: body.signature };
  }

  async cancelBatch(cancels: Record<string, unknown>[]): Promise<Res> {
    return this.ctx.api.post('/orders/cancel-batch', { account: this.address, cancels });
  }

  async modifyBody(
    orderId: string,
    fields: { limit_price: string; size: string; trigger_price: string; client_order_id?: string },
    opts: { signer?: TypedSigner; signAs?: Record<string, unknown>; chainId?: number; nonce?: string; omit?: string[] } = {},
  ): Promise<Record<string, unknown>> {
    const body: ModifyBody = {
      account_id: this.accountId,
      client_order_id: fields.client_order_id ?? cid('m'),
      limit_price: fields.limit_price,
      size: fields.size,
      trigger_price: fields.trigger_price,
      nonce: opts.nonce ?? String(this.ctx.nonce()),
    };
    body.signature = await signTyped(opts.signer ?? this.agent, 'Modify', domain(opts.chainId ?? TRADING_CHAIN_ID), { ...modifyMessage(orderId, body), ...(opts.signAs ?? {}) });
    const out: Record<string, unknown> = { ...body };
    for (const k of opts.omit ?? []) delete out[k];
    return out;
  }

  async modify(orderId: string, fields: Parameters<Trader['modifyBody']>[1], opts: Parameters<Trader['modifyBody']>[2] = {}): Promise<Res> {
    return this.ctx.api.post(`/orders/${encodeURIComponent(orderId)}/modify`, await this.modifyBody(orderId, fields, opts));
  }

  async marginBody(market: string, amount: unknown, opts: { signer?: TypedSigner; signAmount?: string; nonce?: number; chainId?: number } = {}): Promise<Record<string, unknown>> {
    const nonce = opts.nonce ?? this.ctx.nonce();
    const signature = await signTyped(opts.signer ?? this.agent, 'UpdateIsolatedMargin', domain(opts.chainId ?? TRADING_CHAIN_ID), marginMessage(this.accountId, market, opts.signAmount ?? String(amount), nonce));
    return { account_id: this.accountId, market, amount, nonce, signature };
  }

  async margin(market: string, amount: unknown, opts: Parameters<Trader['marginBody']>[2] = {}): Promise<Res> {
    return this.ctx.api.post('/positions/margin', await this.marginBody(market, amount, opts));
  }

  // ---- reads ----

  async positions(): Promise<J[]> {
    const data = expectOk(await this.ctx.api.get(`/account/${this.accountId}/positions`));
    expect(Array.isArray(data.positions)).toBe(true);
    return data.positions as J[];
  }

  async position(market: string): Promise<J | undefined> {
    return (await this.positions()).find((p) => p.market === market);
  }

  /** Polls (advancing) until the position on `market` satisfies pred (or is absent when pred gets undefined). */
  async waitPosition(market: string, pred: (p: J | undefined) => boolean, opts: { stepMs?: number; maxSteps?: number } = {}): Promise<J | undefined> {
    const box = await this.ctx.until(
      `position on ${market}`,
      async () => {
        const p = await this.position(market);
        return pred(p) ? { p } : undefined;
      },
      opts,
    );
    return box.p;
  }

  async openOrders(query: Query = {}): Promise<J> {
    return expectOk(await this.ctx.api.get('/account/open-orders', { wallet: this.address, limit: 200, ...query }));
  }

  async triggers(): Promise<J[]> {
    const data = expectOk(await this.ctx.api.get('/account/position-triggers', { wallet: this.address }));
    return data.orders as J[];
  }

  async history(query: Query = {}): Promise<J[]> {
    const data = expectOk(await this.ctx.api.get('/account/order-history', { wallet: this.address, limit: 200, ...query }));
    return data.orders as J[];
  }

  async fills(query: Query = {}): Promise<J[]> {
    const data = expectOk(await this.ctx.api.get('/account/trade-history', { wallet: this.address, limit: 200, ...query }));
    return data.fills as J[];
  }

  async fundingPayments(query: Query = {}): Promise<J[]> {
    const data = expectOk(await this.ctx.api.get('/account/funding-history', { wallet: this.address, limit: 200, ...query }));
    return data.payments as J[];
  }

  async deposits(): Promise<J[]> {
    const data = expectOk(await this.ctx.api.get(`/account/${this.accountId}/deposit-history`));
    return data.deposits as J[];
  }

  async withdrawals(): Promise<J[]> {
    const data = expectOk(await this.ctx.api.get(`/account/${this.accountId}/withdrawal-history`));
    return data.withdrawals as J[];
  }
}

// ---- order shapes ------------------------------------------------------------------------------

/** Prices relative to the current mark, on the tick grid. */
export async function prices(ctx: Ctx, m: Market): Promise<{
  mark: Decimal;
  /** Far below the mark: a buy there rests. */
  restBuy: string;
  /** Far above the mark: a sell there rests. */
  restSell: string;
  /** Slippage bound of a market buy (well above the book). */
  mktBuy: string;
  /** Slippage bound of a market sell. */
  mktSell: string;
}> {
  const mark = await ctx.mark(m.symbol);
  return {
    mark,
    restBuy: floorTick(mark.mul(0.8), m.tick_size),
    restSell: ceilTick(mark.mul(1.2), m.tick_size),
    mktBuy: ceilTick(mark.mul(1.05), m.tick_size),
    mktSell: floorTick(mark.mul(0.95), m.tick_size),
  };
}

/** Smallest size (at sz_decimals) whose notional at `price` reaches `notional`. */
export function sizeForNotional(m: Market, price: Decimal.Value, notional: Decimal.Value): string {
  return ceilSize(D(notional).div(price), m.sz_decimals);
}

/** A comfortable order notional: a few times min_order_value (at least 50). */
export function comfortableNotional(m: Market): Decimal {
  return Decimal.max(D(m.min_order_value).mul(3), 50);
}

/** Opens a position with a market order and waits until /positions shows it. Returns the order id and the position. */
export async function openPosition(t: Trader, m: Market, side: 'BUY' | 'SELL', size?: string): Promise<{ orderId: string; position: J }> {
  const p = await prices(t.ctx, m);
  const px = side === 'BUY' ? p.mktBuy : p.mktSell;
  const sz = size ?? sizeForNotional(m, p.mark, comfortableNotional(m));
  const before = (await t.position(m.symbol))?.version;
  const orderId = await t.placeOk({ market: m.symbol, side, size: sz, limit_price: px, order_type: 'MARKET', time_in_force: 'IOC' });
  await t.ctx.waitStatus(orderId, 'FILLED');
  const position = await t.waitPosition(m.symbol, (pos) => pos !== undefined && pos.version !== before);
  return { orderId, position };
}

/** A LIMIT GTC order far from the mark (rests), with a comfortable notional. */
export function restingSpec(m: Market, p: { restBuy: string; restSell: string }, side: 'BUY' | 'SELL' = 'BUY', extra: Partial<OrderSpec> = {}): OrderSpec {
  const px = side === 'BUY' ? p.restBuy : p.restSell;
  return { market: m.symbol, side, size: sizeForNotional(m, px, comfortableNotional(m)), limit_price: px, order_type: 'LIMIT', time_in_force: 'GTC', ...extra };
}

/** A MARKET IOC order with a wide slippage bound. */
export function marketSpec(m: Market, p: { mark: Decimal; mktBuy: string; mktSell: string }, side: 'BUY' | 'SELL', extra: Partial<OrderSpec> = {}): OrderSpec {
  return {
    market: m.symbol,
    side,
    size: sizeForNotional(m, p.mark, comfortableNotional(m)),
    limit_price: side === 'BUY' ? p.mktBuy : p.mktSell,
    order_type: 'MARKET',
    time_in_force: 'IOC',
    ...extra,
  };
}

/**
 * A reduce-only whole-position trigger for a position of `positionSide`: `kind` SL or TP, `distance`
 * a fraction of the mark (0.1 = 10 % away, on the side where it has not fired yet).
 */
export function triggerSpec(m: Market, mark: Decimal, positionSide: 'LONG' | 'SHORT', kind: 'TP' | 'SL', distance = 0.1, extra: Partial<OrderSpec> = {}): OrderSpec {
  // Long: SL below the mark, TP above. Short: SL above, TP below. Close side is opposite to the position.
  const above = (positionSide === 'LONG') === (kind === 'TP');
  const trig = above ? ceilTick(mark.mul(1 + distance), m.tick_size) : floorTick(mark.mul(1 - distance), m.tick_size);
  // Fire price: beyond the trigger in the direction of the close (selling fires lower, buying higher).
  const side = positionSide === 'LONG' ? 'SELL' : 'BUY';
  const fire = side === 'SELL' ? floorTick(D(trig).mul(0.95), m.tick_size) : ceilTick(D(trig).mul(1.05), m.tick_size);
  return {
    market: m.symbol,
    side,
    size: '0',
    limit_price: fire,
    order_type: 'TRIGGER',
    reduce_only: true,
    trigger: { trigger_price: trig, is_market: true, tpsl: kind },
    ...extra,
  };
}

/** Whether `price` is an exact multiple of tick. */
export function onTick(price: string, tick: string): boolean {
  return D(price).mod(tick).isZero();
}

export function decimalsOf(v: string): number {
  const i = v.indexOf('.');
  return i < 0 ? 0 : v.length - i - 1;
}

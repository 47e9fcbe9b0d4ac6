/**
 * TradingApiClient against the simulator over loopback HTTP: every route decodes into its typed result,
 * reads retry through injected failures, a just-submitted order's 404 is retried, and a signed write
 * whose answer is lost is resent byte for byte and reported as landed, never executed twice.
 *
 * The route tests share one trader, but each builds what it needs from what the service reads back (a
 * listed key and a free balance: ensureTrader; an open position: ensurePosition), so each passes alone
 * and in any order; in file order the ensures find everything in place.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  NetworkError,
  TimeoutError,
  WriteLandedUnknownResultError,
  type ClientRetryInfo,
} from '../../../src/main/api/index.js';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { SimWorld, TestTrader } from './simSupport.js';

let world: SimWorld;

beforeAll(async () => {
  world = await SimWorld.boot();
});
afterAll(async () => {
  await world?.stop();
});

describe('every route decodes (one shared trader, each test ensures what it needs)', () => {
  let shared: TestTrader | undefined;
  let restingId: string;

  /**
   * The shared trader, as the service sees it: its agent key listed ACTIVE (a revoke removes it: a new
   * trader is then registered) and at least `free` in its free balance (deposited when short). With
   * `flat`, holding no position too (a new trader when it holds one: a position is not undone here).
   */
  async function ensureTrader(o: { free?: string; flat?: boolean } = {}): Promise<TestTrader> {
    const free = o.free ?? '1000';
    const t = shared;
    const listed = t ? await world.api.tradingKeys(t.wallet) : [];
    const held = t && o.flat ? (await world.api.positions(t.accountId)).positions.length : 0;
    if (!t || held > 0 || !listed.some((k) => k.agent_wallet_address === t.agent.address && k.status === 'ACTIVE')) {
      shared = await TestTrader.create(world);
      return shared;
    }
    const balance = new Decimal((await world.api.balance(t.accountId)).free_balance);
    if (balance.lt(free)) await t.fund('10000');
    return t;
  }

  /** The shared trader with an open position (a market buy that fills when it has none): its market. */
  async function ensurePosition(trader: TestTrader): Promise<string> {
    const open = (await world.api.positions(trader.accountId)).positions;
    if (open.length > 0) return open[0]!.market;
    await world.api.placeOrders({ account_id: trader.accountId, orders: [await trader.marketBuy(world.defaultMarket.symbol)] });
    for (let i = 0; i < 10 && (await world.api.positions(trader.accountId)).positions.length === 0; i++) await world.advance(200);
    const filled = (await world.api.positions(trader.accountId)).positions;
    if (filled.length === 0) throw new Error('ensurePosition: the market buy never filled');
    return filled[0]!.market;
  }

  it('markets and config', async () => {
    const markets = await world.api.markets();
    expect(markets.length).toBeGreaterThan(0);
    const pepe = markets.find((m) => m.symbol === 'PEPE');
    expect(pepe?.venue_symbol).toBe('kPEPE');
    const config = await world.api.config();
    expect(config.deposit.hypercore.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(typeof config.trader_share).toBe('number');
  });

  it('register, trading-keys, deposit history and balance', async () => {
    // A trader of its own (the register under test); it becomes the shared trader the next tests ensure.
    const t = new TestTrader(world);
    const body = t.registerBody();
    expect(await world.api.register(body)).toEqual({ expires_at: body.expires_at });
    const keys = await world.api.tradingKeys(t.wallet);
    expect(keys.map((k) => k.agent_wallet_address)).toEqual([t.agent.address]);
    expect(keys[0]!.status).toBe('ACTIVE');
    await t.fund('10000');
    const deposits = await world.api.depositHistory(t.accountId);
    expect(deposits.deposits).toHaveLength(1);
    expect(deposits.deposits[0]).toMatchObject({ amount: expect.any(String), status: 'CONFIRMED' });
    expect(await world.api.allDepositHistory(t.accountId)).toHaveLength(1);
    expect((await world.api.balance(t.accountId)).free_balance).toBe('10000');
    shared = t;
  });

  it('place, order, open-orders, modify, cancel', async () => {
    const t = await ensureTrader();
    const placed = await world.api.placeOrders({ account_id: t.accountId, orders: [await t.restingBuy()] });
    expect(placed.success).toBe(true);
    expect(placed.legs[0]).toMatchObject({ status: 'SUBMITTED', order_id: expect.any(String) });
    const id = placed.legs[0]!.order_id!;
    expect((await world.api.order(id)).order_id).toBe(id);
    await world.advance(300);
    expect((await world.api.order(id)).status).toBe('ACCEPTED');
    const open = await world.api.openOrders({ wallet: t.wallet, market: world.defaultMarket.symbol });
    expect(open.total).toBe(1);
    expect(open.orders[0]).toMatchObject({ order_id: id, status: 'open', order_type: 'LIMIT', side: 'buy' });

    const row = open.orders[0]!;
    const modified = await world.api.modify(id, t.modifyBody(id, { limit_price: row.limit_price, size: row.size }));
    expect(modified.order_id).not.toBe(id);
    await world.advance(300);
    restingId = modified.order_id;
    expect((await world.api.allOpenOrders({ wallet: t.wallet })).map((o) => o.order_id)).toEqual([restingId]);

    expect(await world.api.cancel(restingId, t.cancelBody(restingId))).toMatchObject({ status: 'SUBMITTED' });
    await world.advance(300);
    expect((await world.api.openOrders({ wallet: t.wallet })).total).toBe(0);
    expect((await world.api.order(restingId)).status).toBe('CANCELLED');
  });

  it('cancel-batch answers success:false at 200 when one leg fails, and reports each leg', async () => {
    const t = await ensureTrader();
    const placed = await world.api.placeOrders({ account_id: t.accountId, orders: [await t.restingBuy(), await t.restingBuy()] });
    const [a, b] = placed.legs.map((l) => l.order_id!);
    await world.advance(300);
    const good = t.cancelBatchLeg(a!);
    const forged = { ...t.cancelBatchLeg(b!), signature: new TestTrader(world).cancelBatchLeg(b!).signature };
    const r = await world.api.cancelBatch({ account: t.wallet, cancels: [good, forged] });
    expect(r.success).toBe(false);
    expect(r.legs.map((l) => l.status)).toEqual(['SUBMITTED', 'FAILED']);
    await world.advance(300);
    expect((await world.api.allOpenOrders({ wallet: t.wallet })).map((o) => o.order_id)).toEqual([b]);
    const rest = await world.api.cancelBatch({ account: t.wallet, cancels: [t.cancelBatchLeg(b!)] });
    expect(rest).toEqual({ success: true, legs: [expect.objectContaining({ order_id: b, status: 'SUBMITTED' })] });
    await world.advance(300);
  });

  it('a fill: positions, trade history, order history, position triggers, funding history', async () => {
    // Flat: the fill below opens the trader's one position, and its fill is the newest.
    const t = await ensureTrader({ flat: true });
    const positionMarket = world.defaultMarket.symbol;
    const placed = await world.api.placeOrders({ account_id: t.accountId, orders: [await t.marketBuy(positionMarket)] });
    expect(placed.legs[0]!.status).toBe('SUBMITTED');
    for (let i = 0; i < 10 && (await world.api.positions(t.accountId)).positions.length === 0; i++) await world.advance(200);
    const { positions } = await world.api.positions(t.accountId);
    expect(positions).toHaveLength(1);
    expect(positions[0]!.market).toBe(positionMarket);
    expect(positions[0]!.size).toMatch(/^\d/); // long: positive

    const fills = await world.api.tradeHistory({ wallet: t.wallet });
    expect(fills.total).toBeGreaterThan(0);
    expect(fills.fills[0]!.order_id).toBe(placed.legs[0]!.order_id);
    expect(await world.api.allTradeHistory({ wallet: t.wallet })).toHaveLength(fills.total);

    const history = await world.api.orderHistory({ wallet: t.wallet, limit: 200 });
    expect(history.total).toBeGreaterThan(0);
    expect(history.limit).toBe(200);
    expect(await world.api.allOrderHistory({ wallet: t.wallet })).toHaveLength(history.total);
    expect(history.orders.some((o) => o.status === 'filled')).toBe(true);

    expect(await world.api.positionTriggers(t.wallet)).toEqual({ orders: [], total: 0 });

    await world.advance(60 * 60 * 1000);
    const funding = await world.api.fundingHistory({ wallet: t.wallet });
    expect(funding.payments.length).toBeGreaterThan(0);
    expect(funding.payments[0]!.direction).toBe('LONG');
    expect(await world.api.allFundingHistory({ wallet: t.wallet })).toHaveLength(funding.total);
  });

  it('margin: submit, then the pending 404 is retried until APPLIED', async () => {
    const t = await ensureTrader();
    const positionMarket = await ensurePosition(t);
    const submitted = await world.api.adjustMargin(t.marginBody(positionMarket, '1'));
    expect(submitted.status).toBe('SUBMITTED');
    const notFound: ClientRetryInfo[] = [];
    // The simulator's clock is manual: each backoff wait advances it, so "pending" passes as it would in real time.
    const api = world.client({ sleep: async (ms) => void (await world.advance(ms)), random: () => 0.999, onRetry: (i) => notFound.push(i), retry: { attempts: 8, baseDelayMs: 50, maxDelayMs: 400 } });
    const applied = await api.marginRequest(submitted.request_id!);
    expect(applied.status).toBe('APPLIED');
    expect(notFound.length).toBeGreaterThan(0);
    expect(notFound.every((i) => i.error instanceof ApiError && i.error.status === 404)).toBe(true);
  });

  it('withdraw, withdrawal lookup and withdrawal history', async () => {
    const t = await ensureTrader();
    const earlier = (await world.api.allWithdrawalHistory(t.accountId)).map((x) => x.withdrawal_id);
    const r = await world.api.withdraw(t.withdrawBody('5'));
    expect(r.status).toBe('REQUESTED');
    const w = await world.api.withdrawal(r.withdrawal_id!);
    expect(w).toMatchObject({ withdrawal_id: r.withdrawal_id, amount: '5', destination: t.wallet });
    const history = await world.api.withdrawalHistory(t.accountId);
    // This test's one withdrawal, beside any the shared trader made before it.
    expect(history.withdrawals.map((x) => x.withdrawal_id).filter((id) => !earlier.includes(id))).toEqual([r.withdrawal_id]);
    expect(await world.api.allWithdrawalHistory(t.accountId)).toHaveLength(earlier.length + 1);
    const rejected = await world.api.withdraw(t.withdrawBody('0.5'));
    expect(rejected).toMatchObject({ status: 'REJECTED', reason: 'BELOW_MIN' });
  });

  it('revoke: the key is no longer listed', async () => {
    const t = await ensureTrader();
    expect((await world.api.tradingKeys(t.wallet)).map((k) => k.agent_wallet_address)).toEqual([t.agent.address]);
    await world.api.revoke(t.revokeBody());
    expect(await world.api.tradingKeys(t.wallet)).toEqual([]);
  });
});

describe('failures and retries', () => {
  afterEach(async () => {
    await world.resetChaos();
  });

  it('reads retry through injected 500s and all succeed', async () => {
    const t = await TestTrader.create(world, { fund: '100' });
    await world.chaos({ error_rate: 0.3 });
    const retries: ClientRetryInfo[] = [];
    const api = world.client({ retry: { attempts: 12, baseDelayMs: 1, maxDelayMs: 5 }, onRetry: (i) => retries.push(i) });
    for (let i = 0; i < 8; i++) {
      expect((await api.balance(t.accountId)).free_balance).toBe('100');
      expect((await api.markets()).length).toBe(world.markets.length);
    }
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((r) => r.error instanceof ApiError && r.error.status === 500)).toBe(true);
  });

  it('reads retry through dropped connections', async () => {
    const t = await TestTrader.create(world, { fund: null });
    await world.chaos({ drop_rate: 0.3 });
    const retries: ClientRetryInfo[] = [];
    const api = world.client({ retry: { attempts: 12, baseDelayMs: 1, maxDelayMs: 5 }, onRetry: (i) => retries.push(i) });
    for (let i = 0; i < 16; i++) expect(await api.tradingKeys(t.wallet)).toHaveLength(1);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((r) => r.error instanceof NetworkError)).toBe(true);
  });

  it('order(id) retries the 404 of a just-submitted order (persistence lag)', async () => {
    const t = await TestTrader.create(world);
    await world.chaos({ persist_lag_ms: 1500 });
    const placed = await world.api.placeOrders({ account_id: t.accountId, orders: [await t.restingBuy()] });
    const id = placed.legs[0]!.order_id!;
    await expect(world.api.order(id, { retryNotFound: false })).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const retries: ClientRetryInfo[] = [];
    const api = world.client({ sleep: async (ms) => void (await world.advance(ms)), random: () => 0.999, onRetry: (i) => retries.push(i), retry: { attempts: 8, baseDelayMs: 400, maxDelayMs: 800 } });
    expect((await api.order(id)).order_id).toBe(id);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((r) => r.error instanceof ApiError && r.error.status === 404)).toBe(true);
  });

  it('a dropped write is resent identically; the 409 is reported as landed and nothing is submitted twice', async () => {
    const t = await TestTrader.create(world);
    const leg = await t.restingBuy();
    const sent: string[] = [];
    const api = world.client({
      fetch: async (url, init) => {
        if (String(url).endsWith('/orders')) sent.push(String(init?.body));
        return fetch(url, init);
      },
      // The simulator processes the dropped request; chaos ends before the resend, which then meets the used nonce.
      sleep: async () => void (await world.chaos({ drop_rate: 0 })),
    });
    await world.chaos({ drop_rate: 1 });
    const err = await api.placeOrders({ account_id: t.accountId, orders: [leg] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WriteLandedUnknownResultError);
    const landed = err as WriteLandedUnknownResultError;
    expect(landed.firstFailure).toBeInstanceOf(NetworkError);
    expect(landed.conflict.status).toBe(409);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);

    // Reconcile by reading: exactly one order exists, and every history row is that one order.
    await world.advance(300);
    const open = await world.api.openOrders({ wallet: t.wallet });
    expect(open.total).toBe(1);
    expect(open.orders[0]).toMatchObject({ size: leg.size, limit_price: leg.limit_price, status: 'open' });
    const history = await world.api.allOrderHistory({ wallet: t.wallet });
    expect(new Set(history.map((o) => o.order_id))).toEqual(new Set([open.orders[0]!.order_id]));
  });

  it('a write answered 500 (not processed) is resent with the identical bytes and executes once', async () => {
    const t = await TestTrader.create(world);
    const leg = await t.restingBuy();
    const sent: string[] = [];
    const api = world.client({
      fetch: async (url, init) => {
        if (String(url).endsWith('/orders')) sent.push(String(init?.body));
        return fetch(url, init);
      },
      sleep: async () => void (await world.chaos({ error_rate: 0 })),
    });
    await world.chaos({ error_rate: 1 });
    const r = await api.placeOrders({ account_id: t.accountId, orders: [leg] });
    expect(r.success).toBe(true);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    await world.advance(300);
    expect((await world.api.openOrders({ wallet: t.wallet })).total).toBe(1);
  });

  it('a timed-out write is resent with the identical bytes and executes once', async () => {
    const t = await TestTrader.create(world);
    const leg = await t.restingBuy();
    await world.chaos({ latency_ms: 400 });
    const sent: string[] = [];
    const api = world.client({
      timeoutMs: 150,
      fetch: async (url, init) => {
        if (String(url).endsWith('/orders')) sent.push(String(init?.body));
        return fetch(url, init);
      },
      sleep: async () => void (await world.chaos({ latency_ms: 0 })),
    });
    // The simulator drops a request whose client hung up during the injected latency, so the resend is the
    // copy that executes (a server that had processed the first copy would answer 409: see the drop test).
    const r = await api.placeOrders({ account_id: t.accountId, orders: [leg] });
    expect(r.legs[0]!.status).toBe('SUBMITTED');
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    await world.advance(300);
    expect((await world.api.openOrders({ wallet: t.wallet })).total).toBe(1);
  });

  it('a timeout is a typed TimeoutError', async () => {
    await world.chaos({ latency_ms: 300 });
    const api = world.client({ timeoutMs: 80, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const err = await api.markets().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ timeoutMs: 80, mayHaveLanded: false });
  });

  it('the same signed body sent twice by the caller is a genuine replay (409 on a first attempt)', async () => {
    const t = await TestTrader.create(world);
    const body = { account_id: t.accountId, orders: [await t.restingBuy()] };
    await world.api.placeOrders(body);
    const err = await world.api.placeOrders(body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).not.toBeInstanceOf(WriteLandedUnknownResultError);
    expect((err as ApiError).isReplayedNonce).toBe(true);
  });

  it('a 4xx is never retried: an unregistered key answers 403 once', async () => {
    const t = await TestTrader.create(world, { register: false, fund: null });
    let calls = 0;
    const api = world.client({ fetch: (url, init) => (calls++, fetch(url, init)) });
    await expect(api.placeOrders({ account_id: t.accountId, orders: [await t.restingBuy()] })).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(calls).toBe(1);
  });
});

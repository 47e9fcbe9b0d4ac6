/**
 * Configuration and account reads: shapes, keys, pagination validation, ordering, list vocabulary.
 * Spec: "Market", "Funding config", "Account reads", "Pagination", "Limits", "Response envelope",
 * "Status vocabulary of list reads".
 */
import { isAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Ctx,
  D,
  Trader,
  expectError,
  expectLegSubmitted,
  expectOk,
  marketSpec,
  newWallet,
  prices,
  restingSpec,
  type J,
  type Market,
} from './support/fixtures.js';
import { accountIdOf } from './support/sign.js';

let ctx: Ctx;
let m: Market;
beforeAll(async () => {
  ctx = await Ctx.boot();
  m = ctx.defaultMarket;
});
afterAll(async () => {
  await ctx?.stop();
});

const DECIMAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
const LIST_STATUSES = ['open', 'triggered', 'filled', 'partially_filled_cancelled', 'cancelled', 'rejected'];

describe('GET /markets', () => {
  it('answers the envelope with every Market field in its type; decimals are canonical strings', async () => {
    const res = await ctx.api.get('/markets');
    const data = expectOk(res) as Market[];
    expect(data.length).toBeGreaterThan(0);
    for (const mk of data) {
      expect(typeof mk.symbol).toBe('string');
      expect(typeof mk.venue_symbol).toBe('string');
      for (const k of ['venue_asset_index', 'max_leverage', 'display_max_leverage', 'max_open_orders', 'slippage_bps', 'sz_decimals', 'px_decimals'] as const) {
        expect(Number.isInteger(mk[k]), `${mk.symbol}.${k}`).toBe(true);
      }
      for (const k of ['initial_margin_ratio', 'maintenance_margin_ratio', 'maker_fee_rate', 'taker_fee_rate', 'min_order_value', 'max_notional', 'tick_size'] as const) {
        expect(mk[k], `${mk.symbol}.${k}`).toMatch(DECIMAL);
      }
      expect(typeof mk.only_isolated).toBe('boolean');
      expect(typeof mk.is_active).toBe('boolean');
    }
    expect(new Set(data.map((x) => x.symbol)).size).toBe(data.length);
  });

  it('serves no mark price (market data comes from the venue)', async () => {
    const data = expectOk(await ctx.api.get('/markets')) as Record<string, unknown>[];
    for (const mk of data) for (const k of ['mark', 'mark_price', 'markPx', 'oracle_price', 'funding_rate']) expect(mk[k]).toBeUndefined();
  });
});

describe('GET /config', () => {
  it('serves deposit addresses and minimums, withdrawal minimum and new-wallet fee, and trader_share as a number in 0..1', async () => {
    const c = expectOk(await ctx.api.get('/config'));
    expect(isAddress(c.deposit.hypercore.address)).toBe(true);
    expect(c.deposit.hypercore.min_amount).toMatch(DECIMAL);
    expect(c.deposit.arbitrum.min_amount).toMatch(DECIMAL);
    expect(c.withdrawal.min_amount).toMatch(DECIMAL);
    expect(c.withdrawal.new_wallet_fee).toMatch(DECIMAL);
    expect(typeof c.trader_share).toBe('number');
    expect(c.trader_share).toBeGreaterThanOrEqual(0);
    expect(c.trader_share).toBeLessThanOrEqual(1);
  });
});

describe('envelope and routing', () => {
  it('an unknown route answers 404 in the error envelope', async () => {
    const res = await ctx.api.get('/no-such-route');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });
});

describe('500 INTERNAL_ERROR', () => {
  it('a server-side failure answers 500 INTERNAL_ERROR in the error envelope', async () => {
    await ctx.chaos({ error_rate: 1 });
    try {
      expectError(await ctx.api.get('/markets'), 500, 'INTERNAL_ERROR');
    } finally {
      await ctx.chaos({ error_rate: 0 });
    }
    expectOk(await ctx.api.get('/markets'));
  });
});

describe('balance and positions (keyed by account_id)', () => {
  it('balance answers { account, free_balance } for a fresh account', async () => {
    const w = newWallet();
    const data = expectOk(await ctx.api.get(`/account/${accountIdOf(w.address)}/balance`));
    expect(typeof data.account).toBe('string');
    expect(data.account.toLowerCase().startsWith(w.address.toLowerCase())).toBe(true);
    expect(data.free_balance).toMatch(DECIMAL);
    expect(D(data.free_balance).isZero()).toBe(true);
  });

  it('positions answers { positions: [] } for an account without positions', async () => {
    const w = newWallet();
    expect(expectOk(await ctx.api.get(`/account/${accountIdOf(w.address)}/positions`))).toEqual({ positions: [] });
  });
});

describe('account-key kinds: each read takes exactly one kind of key', () => {
  it('account_id-keyed reads refuse a plain wallet: 400 INVALID_REQUEST', async () => {
    const w = newWallet().address;
    for (const path of ['balance', 'positions', 'deposit-history', 'withdrawal-history']) {
      expectError(await ctx.api.get(`/account/${w}/${path}`), 400, 'INVALID_REQUEST');
    }
  });

  it('only subaccount index 0 is addressable: an account_id ending in 01 is refused', async () => {
    const id = accountIdOf(newWallet().address).slice(0, -2) + '01';
    expectError(await ctx.api.get(`/account/${id}/balance`), 400, 'INVALID_REQUEST');
  });

  it('wallet-keyed reads refuse an account_id in place of the wallet: 400 INVALID_REQUEST', async () => {
    const id = accountIdOf(newWallet().address);
    for (const path of ['/account/open-orders', '/account/order-history', '/account/trade-history', '/account/funding-history', '/account/position-triggers']) {
      expectError(await ctx.api.get(path, { wallet: id }), 400, 'INVALID_REQUEST');
    }
  });
});

describe('pagination validation', () => {
  const paged = ['/account/open-orders', '/account/order-history', '/account/trade-history', '/account/funding-history'];

  it.each(paged)('%s: limit 0 and 201 are 400 INVALID_REQUEST; 1 and 200 are accepted', async (route) => {
    const wallet = newWallet().address;
    expectError(await ctx.api.get(route, { wallet, limit: 0 }), 400, 'INVALID_REQUEST');
    expectError(await ctx.api.get(route, { wallet, limit: 201 }), 400, 'INVALID_REQUEST');
    expectOk(await ctx.api.get(route, { wallet, limit: 1 }));
    expectOk(await ctx.api.get(route, { wallet, limit: 200 }));
  });

  it.each(paged)('%s: offset -1 and a non-numeric limit are 400 INVALID_REQUEST; offset 0 is accepted', async (route) => {
    const wallet = newWallet().address;
    expectError(await ctx.api.get(route, { wallet, offset: -1 }), 400, 'INVALID_REQUEST');
    expectError(await ctx.api.get(route, { wallet, limit: 'ten' }), 400, 'INVALID_REQUEST');
    expectOk(await ctx.api.get(route, { wallet, offset: 0 }));
  });

  it('open-orders requires wallet: 400 INVALID_REQUEST', async () => {
    expectError(await ctx.api.get('/account/open-orders'), 400, 'INVALID_REQUEST');
  });

  it('position-triggers accepts limit/offset without validating them', async () => {
    const wallet = newWallet().address;
    for (const q of [{ limit: 0 }, { limit: 5000 }, { offset: -3 }, { limit: 'x' }]) {
      expect(expectOk(await ctx.api.get('/account/position-triggers', { wallet, ...q })).orders).toEqual([]);
    }
  });

  it('deposit and withdrawal history accept limit/offset unbounded', async () => {
    const id = accountIdOf(newWallet().address);
    for (const path of [`/account/${id}/deposit-history`, `/account/${id}/withdrawal-history`]) {
      expectOk(await ctx.api.get(path, { limit: 100000 }));
      expectOk(await ctx.api.get(path, { limit: 1, offset: 5000 }));
    }
  });
});

describe('list shapes', () => {
  it('open-orders: { orders, total }; default limit 10; offset pages; market filter', async () => {
    const t = await Trader.create(ctx, { fund: '1000000' });
    const other = ctx.active((x) => x.symbol !== m.symbol && x.max_open_orders >= 2)[0]!;
    const p = await prices(ctx, m);
    const res = await t.place(...Array.from({ length: 12 }, () => restingSpec(m, p)));
    for (let i = 0; i < 12; i++) expectLegSubmitted(res, i);
    const po = await prices(ctx, other);
    expectLegSubmitted(await t.place(restingSpec(other, po)));
    await ctx.advanceSteps(2, 1000);
    const first = expectOk(await ctx.api.get('/account/open-orders', { wallet: t.address }));
    expect(first.orders).toHaveLength(10);
    expect(first.total).toBe(13);
    const second = expectOk(await ctx.api.get('/account/open-orders', { wallet: t.address, offset: 10 }));
    expect(second.orders).toHaveLength(3);
    const ids = new Set([...first.orders, ...second.orders].map((o: J) => o.order_id));
    expect(ids.size).toBe(13);
    const filtered = expectOk(await ctx.api.get('/account/open-orders', { wallet: t.address, market: other.symbol }));
    expect(filtered.total).toBe(1);
    expect(filtered.orders[0].market).toBe(other.symbol);
  });

  it('open-orders from/to filter on submission time', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectLegSubmitted(await t.place(restingSpec(m, p)));
    await ctx.advanceSteps(2, 1000);
    const cut = ctx.now();
    await ctx.advance(1000);
    expectLegSubmitted(await t.place(restingSpec(m, p)));
    await ctx.advanceSteps(2, 1000);
    const after = expectOk(await ctx.api.get('/account/open-orders', { wallet: t.address, from: cut }));
    expect(after.total).toBe(1);
    const before = expectOk(await ctx.api.get('/account/open-orders', { wallet: t.address, to: cut }));
    expect(before.total).toBe(1);
    expect(after.orders[0].order_id).not.toBe(before.orders[0].order_id);
  });

  it('order-history: { orders, limit, offset, total }, newest first, one row per status change, list vocabulary only', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const a = expectLegSubmitted(await t.place(restingSpec(m, p)));
    await ctx.waitStatus(a, 'ACCEPTED');
    expectOk(await t.cancel(a, 'LIMIT'));
    await ctx.waitStatus(a, 'CANCELLED');
    const b = expectLegSubmitted(await t.place(marketSpec(m, p, 'BUY')));
    await ctx.waitStatus(b, 'FILLED');
    const data = expectOk(await ctx.api.get('/account/order-history', { wallet: t.address, limit: 50, offset: 0 }));
    expect(data.limit).toBe(50);
    expect(data.offset).toBe(0);
    expect(data.total).toBe(data.orders.length);
    const rows = data.orders as J[];
    for (const r of rows) expect(LIST_STATUSES).toContain(r.status);
    expect(rows.filter((r) => r.order_id === a).map((r) => r.status)).toEqual(['cancelled', 'open']);
    expect(rows.filter((r) => r.order_id === b).map((r) => r.status)[0]).toBe('filled');
    const times = rows.map((r) => r.status_at as number);
    for (let i = 1; i < times.length; i++) expect(times[i - 1]!).toBeGreaterThanOrEqual(times[i]!);
    const page = expectOk(await ctx.api.get('/account/order-history', { wallet: t.address, limit: 1, offset: 1 }));
    expect(page.orders).toHaveLength(1);
    expect(page.total).toBe(data.total);
    expect(page.orders[0]).toEqual(rows[1]);
    // Market filter.
    const none = expectOk(await ctx.api.get('/account/order-history', { wallet: t.address, market: 'NOPE' }));
    expect(none.total).toBe(0);
  });

  it('trade-history: { fills, limit, offset, total }, newest first', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    await ctx.waitStatus(expectLegSubmitted(await t.place(marketSpec(m, p, 'BUY'))), 'FILLED');
    await ctx.advance(1000);
    await ctx.waitStatus(expectLegSubmitted(await t.place(marketSpec(m, await prices(ctx, m), 'BUY'))), 'FILLED');
    const data = expectOk(await ctx.api.get('/account/trade-history', { wallet: t.address }));
    expect(data).toHaveProperty('limit');
    expect(data).toHaveProperty('offset');
    expect(data.total).toBeGreaterThanOrEqual(2);
    const times = (data.fills as J[]).map((f) => f.filled_at as number);
    for (let i = 1; i < times.length; i++) expect(times[i - 1]!).toBeGreaterThanOrEqual(times[i]!);
  });

  it('funding-history: { payments, limit, offset, total }', async () => {
    const data = expectOk(await ctx.api.get('/account/funding-history', { wallet: newWallet().address }));
    expect(data).toMatchObject({ payments: [], total: 0 });
    expect(data).toHaveProperty('limit');
    expect(data).toHaveProperty('offset');
  });

  it('position-triggers: { orders, total }, unpaginated', async () => {
    const data = expectOk(await ctx.api.get('/account/position-triggers', { wallet: newWallet().address }));
    expect(data).toEqual({ orders: [], total: 0 });
  });

  it('deposit-history: { account, deposits } with no total; a plain wallet is rejected', async () => {
    const w = newWallet();
    const data = expectOk(await ctx.api.get(`/account/${accountIdOf(w.address)}/deposit-history`));
    expect(data.deposits).toEqual([]);
    expect(typeof data.account).toBe('string');
    expect(data.total).toBeUndefined();
    expectError(await ctx.api.get(`/account/${w.address}/deposit-history`), 400, 'INVALID_REQUEST');
  });

  it('withdrawal-history: { account, withdrawals } with no total', async () => {
    const data = expectOk(await ctx.api.get(`/account/${accountIdOf(newWallet().address)}/withdrawal-history`));
    expect(data.withdrawals).toEqual([]);
    expect(typeof data.account).toBe('string');
    expect(data.total).toBeUndefined();
  });

  it('GET /withdrawal-history/{id} of an unknown id answers 404 NOT_FOUND', async () => {
    expectError(await ctx.api.get('/withdrawal-history/no-such-withdrawal'), 404, 'NOT_FOUND');
  });

  it('GET /positions/margin/{id} of an unknown id answers 404 NOT_FOUND', async () => {
    expectError(await ctx.api.get('/positions/margin/no-such-request'), 404, 'NOT_FOUND');
  });
});

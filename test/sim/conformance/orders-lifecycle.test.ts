/**
 * Order status transitions of GET /orders/{orderId} and their list-vocabulary counterparts.
 * Spec: "States and transitions > Order status", "Status vocabulary of list reads", "Meaning of
 * limit_price by type", POST /orders rule 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Ctx,
  D,
  Trader,
  ceilTick,
  expectError,
  expectLegSubmitted,
  floorTick,
  marketSpec,
  openPosition,
  prices,
  restingSpec,
  sizeForNotional,
  comfortableNotional,
  triggerSpec,
  type J,
  type Market,
} from './support/fixtures.js';

let ctx: Ctx;
let m: Market;
beforeAll(async () => {
  ctx = await Ctx.boot();
  m = ctx.defaultMarket;
});
afterAll(async () => {
  await ctx?.stop();
});

const HAPPY = ['SUBMITTED', 'ACCEPTED', 'EXECUTING', 'FILLED'];
const TERMINAL = ['FILLED', 'PARTIALLY_FILLED_CANCELLED', 'CANCELLED', 'REJECTED', 'FAILED'];

/** `seen` (404s dropped) must follow `path` in order, without going back. */
function expectFollows(seen: string[], path: string[]): void {
  const states = seen.filter((s) => s !== 'NOT_FOUND');
  let at = -1;
  for (const s of states) {
    const i = path.indexOf(s);
    expect(i, `status ${s} is not on the path ${path.join(' > ')} (seen ${seen.join(' > ')})`).toBeGreaterThan(-1);
    expect(i, `went back to ${s} (seen ${seen.join(' > ')})`).toBeGreaterThanOrEqual(at);
    at = i;
  }
}

/** Right after submit the order is queued: 404 (not persisted yet) or SUBMITTED, never further. */
async function expectQueued(id: string): Promise<void> {
  const res = await ctx.getOrder(id);
  if (res.status === 404) expectError(res, 404, 'NOT_FOUND');
  else {
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('SUBMITTED');
    expect(res.body.data.order_id).toBe(id);
  }
}

async function historyRows(t: Trader, id: string): Promise<J[]> {
  return (await t.history()).filter((r) => r.order_id === id);
}

describe('GET /orders/{orderId}', () => {
  it('an unknown order id answers 404 NOT_FOUND', async () => {
    expectError(await ctx.getOrder('no-such-order'), 404, 'NOT_FOUND');
  });
});

describe('MARKET: SUBMITTED -> ACCEPTED -> EXECUTING -> FILLED', () => {
  it('a market buy is queued at submit, then walks the happy path to FILLED with avg_fill_price within its bound', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = marketSpec(m, p, 'BUY');
    const id = expectLegSubmitted(await t.place(spec));
    await expectQueued(id);
    // Fine steps: every intermediate status is observable.
    const { order, seen } = await ctx.waitStatus(id, TERMINAL, { stepMs: 10, maxSteps: 3000 });
    expect(order.status, seen.join(' > ')).toBe('FILLED');
    expect(seen.filter((s) => s !== 'NOT_FOUND')).toEqual(HAPPY);
    expect(order.order_id).toBe(id);
    expect(typeof order.avg_fill_price).toBe('string');
    expect(D(order.avg_fill_price).lte(spec.limit_price)).toBe(true);
  });

  it('a market sell fills at or above its bound', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = marketSpec(m, p, 'SELL');
    const id = expectLegSubmitted(await t.place(spec));
    const { order, seen } = await ctx.waitStatus(id, TERMINAL, { stepMs: 100, maxSteps: 300 });
    expect(order.status).toBe('FILLED');
    expectFollows(seen, HAPPY);
    expect(D(order.avg_fill_price).gte(spec.limit_price)).toBe(true);
  });

  it('order_type omitted defaults to MARKET (signed as MARKET) and fills', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = marketSpec(m, p, 'BUY');
    delete spec.order_type;
    const id = expectLegSubmitted(await t.place(spec));
    expect((await ctx.waitStatus(id, TERMINAL)).order.status).toBe('FILLED');
  });

  it('a market order is never filled beyond its limit_price: a bound below the book leaves it unfilled and cancelled', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const bound = floorTick(p.mark.mul(0.9), m.tick_size);
    const id = expectLegSubmitted(await t.place(marketSpec(m, p, 'BUY', { limit_price: bound })));
    const { order } = await ctx.waitStatus(id, TERMINAL);
    expect(order.status).toBe('CANCELLED');
    expect(await t.fills()).toEqual([]);
    expect(await t.position(m.symbol)).toBeUndefined();
  });

  it('a market order bigger than the book within its bound fills partly: PARTIALLY_FILLED_CANCELLED, which counts as a fill', async () => {
    const book = await ctx.book(m.symbol);
    const depth = book.asks.reduce((acc, l) => acc.plus(l.sz), D(0));
    const top = book.asks[book.asks.length - 1]!;
    const notional = depth.mul(top.px).mul(3);
    const t = await Trader.create(ctx, { fund: notional.div(m.max_leverage).mul(2).plus(100_000).ceil().toFixed() });
    const p = await prices(ctx, m);
    const size = D(depth).mul(3).toDecimalPlaces(m.sz_decimals).toFixed();
    const spec = marketSpec(m, p, 'BUY', { size, limit_price: ceilTick(p.mark.mul(1.5), m.tick_size), leverage: m.max_leverage });
    const id = expectLegSubmitted(await t.place(spec));
    const { order } = await ctx.waitStatus(id, TERMINAL);
    expect(order.status).toBe('PARTIALLY_FILLED_CANCELLED');
    expect(typeof order.avg_fill_price).toBe('string');
    const pos = await t.waitPosition(m.symbol, (x) => x !== undefined);
    expect(D(pos!.size).gt(0)).toBe(true);
    expect(D(pos!.size).lt(size)).toBe(true);
    // Lowercase terminal status in history.
    expect((await historyRows(t, id)).map((r) => r.status)).toContain('partially_filled_cancelled');
  });
});

describe('LIMIT', () => {
  it('GTC below the book rests: SUBMITTED -> ACCEPTED, listed open with its fields', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p);
    const id = expectLegSubmitted(await t.place(spec));
    await expectQueued(id);
    const { seen } = await ctx.waitStatus(id, 'ACCEPTED');
    expectFollows(seen, ['SUBMITTED', 'ACCEPTED']);
    // Resting is stable.
    await ctx.advanceSteps(3, 2000);
    expect((await ctx.getOrder(id)).body.data.status).toBe('ACCEPTED');
    const row = (await t.openOrders()).orders.find((o: J) => o.order_id === id);
    expect(row).toMatchObject({
      order_id: id,
      market: m.symbol,
      side: 'buy',
      size: spec.size,
      limit_price: spec.limit_price,
      order_type: 'LIMIT',
      time_in_force: 'GTC',
      reduce_only: false,
      status: 'open',
      is_modifying: false,
    });
    expect(D(row.filled_size).isZero()).toBe(true);
    expect(Number.isInteger(row.submitted_at)).toBe(true);
    expect(Number.isInteger(row.status_at)).toBe(true);
    expect(row.parent_order_id).toBeUndefined();
    expect(row.trigger_price).toBeUndefined();
  });

  it('a resting buy fills when the mark comes down through it; history logs open then filled with avg_fill_price', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p);
    const id = expectLegSubmitted(await t.place(spec));
    await ctx.waitStatus(id, 'ACCEPTED');
    await ctx.setMark(m.symbol, floorTick(D(spec.limit_price).mul(0.97), m.tick_size));
    const { order } = await ctx.waitStatus(id, TERMINAL);
    expect(order.status).toBe('FILLED');
    expect(D(order.avg_fill_price).lte(spec.limit_price)).toBe(true);
    const rows = await historyRows(t, id);
    const statuses = rows.map((r) => r.status);
    expect(statuses).toContain('open');
    expect(statuses).toContain('filled');
    // Newest first: the filled row precedes the open row.
    expect(statuses.indexOf('filled')).toBeLessThan(statuses.lastIndexOf('open'));
    expect(typeof rows.find((r) => r.status === 'filled')!.avg_fill_price).toBe('string');
    expect((await t.openOrders()).orders.some((o: J) => o.order_id === id)).toBe(false);
    await ctx.setMark(m.symbol, p.mark);
  });

  it('IOC that does not cross is take-or-cancel: CANCELLED, never listed open', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const id = expectLegSubmitted(await t.place(restingSpec(m, p, 'BUY', { time_in_force: 'IOC' })));
    const { order } = await ctx.waitStatus(id, TERMINAL);
    expect(order.status).toBe('CANCELLED');
    expect((await t.openOrders()).orders).toEqual([]);
  });

  it('IOC that crosses fills', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const id = expectLegSubmitted(await t.place(restingSpec(m, p, 'BUY', { time_in_force: 'IOC', limit_price: p.mktBuy, size: sizeForNotional(m, p.mark, comfortableNotional(m)) })));
    expect((await ctx.waitStatus(id, TERMINAL)).order.status).toBe('FILLED');
  });

  it('post-only (ALO) that would cross passes submit as SUBMITTED, then reads REJECTED post_only_would_take', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const id = expectLegSubmitted(await t.place(restingSpec(m, p, 'BUY', { time_in_force: 'ALO', limit_price: p.mktBuy })));
    const { order, seen } = await ctx.waitStatus(id, TERMINAL);
    expect(order.status).toBe('REJECTED');
    expect(order.reason).toBe('post_only_would_take');
    expectFollows(seen, ['SUBMITTED', 'REJECTED']);
    const rows = await historyRows(t, id);
    const rejected = rows.find((r) => r.status === 'rejected');
    expect(rejected?.reason).toBe('post_only_would_take');
    expect(await t.fills()).toEqual([]);
  });

  it('post-only that does not cross rests and is listed with time_in_force ALO', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const id = expectLegSubmitted(await t.place(restingSpec(m, p, 'SELL', { time_in_force: 'ALO' })));
    await ctx.waitStatus(id, 'ACCEPTED');
    const row = (await t.openOrders()).orders.find((o: J) => o.order_id === id);
    expect(row).toMatchObject({ status: 'open', order_type: 'LIMIT', time_in_force: 'ALO', side: 'sell' });
  });
});

describe('FAILED and persistence lag', () => {
  it('an order the venue cannot route reads FAILED on the single-order route and never appears with a list status of its own', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    await ctx.orderOutcome({ next: true, outcome: 'FAILED' });
    const id = expectLegSubmitted(await t.place(restingSpec(m, p)));
    const { order, seen } = await ctx.waitStatus(id, TERMINAL);
    expect(order.status).toBe('FAILED');
    expectFollows(seen, ['SUBMITTED', 'FAILED']);
    const rows = await historyRows(t, id);
    for (const r of rows) expect(['open', 'triggered', 'filled', 'partially_filled_cancelled', 'cancelled', 'rejected']).toContain(r.status);
    expect((await t.openOrders()).orders.some((o: J) => o.order_id === id)).toBe(false);
  });

  it('orders persist asynchronously: GET /orders/{id} answers 404 NOT_FOUND until persisted, then the record', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    await ctx.chaos({ persist_lag_ms: 3000 });
    try {
      const id = expectLegSubmitted(await t.place(restingSpec(m, p)));
      expectError(await ctx.getOrder(id), 404, 'NOT_FOUND');
      const { order, seen } = await ctx.waitStatus(id, 'ACCEPTED', { stepMs: 500 });
      expect(seen[0]).toBe('NOT_FOUND');
      expect(order.order_id).toBe(id);
    } finally {
      await ctx.chaos({ persist_lag_ms: 0 });
    }
  });
});

describe('TRIGGER', () => {
  it('an armed trigger stays SUBMITTED (long life is normal), is listed open as a TRIGGER, then fires: ACCEPTED ... FILLED, logged triggered', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    // 5 % away: well inside the liquidation distance of the default leverage.
    const spec = triggerSpec(m, p.mark, 'LONG', 'SL', 0.05);
    const id = expectLegSubmitted(await t.place(spec));
    await ctx.advanceSteps(10, 2000);
    expect((await ctx.getOrder(id)).body.data.status).toBe('SUBMITTED');
    const row = (await t.openOrders()).orders.find((o: J) => o.order_id === id);
    expect(row).toMatchObject({
      order_id: id,
      market: m.symbol,
      side: 'sell',
      order_type: 'TRIGGER',
      reduce_only: true,
      status: 'open',
      trigger_price: spec.trigger!.trigger_price,
      tpsl: 'sl',
      is_trigger_market: true,
    });
    // A long's stop fires as the mark falls: direction down (the spec's sample value).
    expect(row.trigger_direction).toBe('down');
    // The mark falls through the SL trigger.
    await ctx.setMark(m.symbol, floorTick(D(spec.trigger!.trigger_price).mul(0.99), m.tick_size));
    const { order, seen } = await ctx.waitStatus(id, TERMINAL, { stepMs: 100, maxSteps: 300 });
    expect(order.status, JSON.stringify({ order, seen })).toBe('FILLED');
    expectFollows(seen, HAPPY);
    const statuses = (await historyRows(t, id)).map((r) => r.status);
    expect(statuses).toContain('open');
    expect(statuses).toContain('triggered');
    await t.waitPosition(m.symbol, (x) => x === undefined);
    await ctx.setMark(m.symbol, p.mark);
  });

  it('a TP on a short fires when the mark moves in favour (down) and closes the position', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'SELL');
    const p = await prices(ctx, m);
    const spec = triggerSpec(m, p.mark, 'SHORT', 'TP', 0.1);
    const id = expectLegSubmitted(await t.place(spec));
    await ctx.setMark(m.symbol, floorTick(D(spec.trigger!.trigger_price).mul(0.99), m.tick_size));
    expect((await ctx.waitStatus(id, TERMINAL)).order.status).toBe('FILLED');
    await t.waitPosition(m.symbol, (x) => x === undefined);
    await ctx.setMark(m.symbol, p.mark);
  });
});

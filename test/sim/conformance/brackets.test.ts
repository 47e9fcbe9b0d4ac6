/**
 * Bracket orders: an opening entry plus whole-position TP/SL legs attached by parent_client_order_id.
 * Spec: "Bracket orders" rules table, PENDING_PARENT rows of "Order status", leg reasons
 * bracket_parent_invalid, bracket_child_invalid, bracket_tp_wrong_side, bracket_sl_wrong_side,
 * bracket_parent_not_filled, bracket_no_position, bracket_parent_missing, bracket_replaced,
 * modify_not_modifiable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Ctx,
  D,
  Trader,
  ceilTick,
  cid,
  expectError,
  expectLegRejected,
  expectLegSubmitted,
  expectOk,
  floorTick,
  marketSpec,
  openPosition,
  prices,
  restingSpec,
  type J,
  type Market,
  type OrderSpec,
} from './support/fixtures.js';
import { describeRes } from './support/client.js';

let ctx: Ctx;
let m: Market;
beforeAll(async () => {
  ctx = await Ctx.boot();
  m = ctx.defaultMarket;
});
afterAll(async () => {
  await ctx?.stop();
});

const TERMINAL = ['FILLED', 'PARTIALLY_FILLED_CANCELLED', 'CANCELLED', 'REJECTED', 'FAILED'];

/** An attached whole-position leg: reduce-only TRIGGER, size 0, side opposite to the entry. */
function leg(entry: OrderSpec, kind: 'TP' | 'SL', triggerPrice: string, extra: Partial<OrderSpec> = {}): OrderSpec {
  const side = entry.side === 'BUY' ? 'SELL' : 'BUY';
  const fire = side === 'SELL' ? floorTick(D(triggerPrice).mul(0.95), m.tick_size) : ceilTick(D(triggerPrice).mul(1.05), m.tick_size);
  return {
    market: entry.market,
    side,
    size: '0',
    limit_price: fire,
    order_type: 'TRIGGER',
    reduce_only: true,
    trigger: { trigger_price: triggerPrice, is_market: true, tpsl: kind },
    parent_client_order_id: entry.client_order_id,
    ...extra,
  };
}

/** Trigger price `f` times the reference, on the grid. */
const at = (ref: string | ReturnType<typeof D>, f: number): string => (f >= 1 ? ceilTick(D(ref).mul(f), m.tick_size) : floorTick(D(ref).mul(f), m.tick_size));

/** A long LIMIT entry resting below the book with TP above and SL below its limit_price. */
async function longLimitBracket(): Promise<{ entry: OrderSpec; tp: OrderSpec; sl: OrderSpec }> {
  const p = await prices(ctx, m);
  const entry = restingSpec(m, p, 'BUY', { client_order_id: cid('entry') });
  return { entry, tp: leg(entry, 'TP', at(entry.limit_price, 1.05)), sl: leg(entry, 'SL', at(entry.limit_price, 0.9)) };
}

async function waitPendingParent(id: string): Promise<J> {
  return (await ctx.waitStatus(id, 'PENDING_PARENT')).order;
}

describe('bracket shape: 400 INVALID_REQUEST', () => {
  it('parent_client_order_id naming no leg of the batch', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    expectError(await t.place(entry, { ...tp, parent_client_order_id: 'not-in-batch' }), 400, 'INVALID_REQUEST');
  });

  it('attached leg that is not a TRIGGER', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const { entry } = await longLimitBracket();
    expectError(await t.place(entry, restingSpec(m, p, 'SELL', { reduce_only: true, parent_client_order_id: entry.client_order_id })), 400, 'INVALID_REQUEST');
  });

  it('attached leg that is not reduce-only', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    expectError(await t.place(entry, { ...tp, reduce_only: false }), 400, 'INVALID_REQUEST');
  });

  it('attached leg whose size is not 0', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    expectError(await t.place(entry, { ...tp, size: entry.size }), 400, 'INVALID_REQUEST');
  });

  it('client_order_id values not unique in a bracket batch', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    expectError(await t.place(entry, { ...tp, client_order_id: entry.client_order_id }), 400, 'INVALID_REQUEST');
  });
});

describe('bracket business rules: the whole group REJECTED with one reason, other legs unaffected', () => {
  it('bracket_parent_invalid: a reduce-only entry', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'SELL');
    const p = await prices(ctx, m);
    const { entry, tp, sl } = await longLimitBracket();
    const res = await t.place({ ...entry, reduce_only: true }, tp, sl, restingSpec(m, p, 'SELL'));
    for (const i of [0, 1, 2]) expectLegRejected(res, i, 'bracket_parent_invalid');
    expectLegSubmitted(res, 3);
  });

  it('bracket_parent_invalid: a TRIGGER entry', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const trig: OrderSpec = {
      market: m.symbol,
      side: 'SELL',
      size: '0',
      limit_price: at(p.mark, 0.85),
      order_type: 'TRIGGER',
      reduce_only: true,
      trigger: { trigger_price: at(p.mark, 0.9), is_market: true, tpsl: 'SL' },
      client_order_id: cid('trig-entry'),
    };
    const child = leg(trig, 'TP', at(p.mark, 0.8));
    const res = await t.place(trig, child);
    expectLegRejected(res, 0, 'bracket_parent_invalid');
    expectLegRejected(res, 1, 'bracket_parent_invalid');
  });

  it('bracket_child_invalid: two TP legs', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    const res = await t.place(entry, tp, leg(entry, 'TP', at(entry.limit_price, 1.1)));
    for (const i of [0, 1, 2]) expectLegRejected(res, i, 'bracket_child_invalid');
  });

  it('bracket_child_invalid: two SL legs', async () => {
    const t = await Trader.create(ctx);
    const { entry, sl } = await longLimitBracket();
    const res = await t.place(entry, sl, leg(entry, 'SL', at(entry.limit_price, 0.8)));
    for (const i of [0, 1, 2]) expectLegRejected(res, i, 'bracket_child_invalid');
  });

  it('bracket_child_invalid: a leg on the same side as the entry', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    const res = await t.place(entry, { ...tp, side: 'BUY' });
    for (const i of [0, 1]) expectLegRejected(res, i, 'bracket_child_invalid');
  });

  it('bracket_child_invalid: a leg on another market', async () => {
    const other = ctx.active((x) => x.symbol !== m.symbol)[0];
    expect(other, 'needs a second active market').toBeDefined();
    const t = await Trader.create(ctx);
    const { entry } = await longLimitBracket();
    const po = await prices(ctx, other!);
    const tp: OrderSpec = {
      market: other!.symbol,
      side: 'SELL',
      size: '0',
      limit_price: floorTick(po.mark.mul(1.1), other!.tick_size),
      order_type: 'TRIGGER',
      reduce_only: true,
      trigger: { trigger_price: ceilTick(po.mark.mul(1.2), other!.tick_size), is_market: true, tpsl: 'TP' },
      parent_client_order_id: entry.client_order_id,
    };
    const res = await t.place(entry, tp);
    for (const i of [0, 1]) expectLegRejected(res, i, 'bracket_child_invalid');
  });

  it('bracket_tp_wrong_side: long LIMIT entry with TP below its limit_price; the valid SL is rejected with the same reason', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const { entry, sl } = await longLimitBracket();
    const res = await t.place(entry, leg(entry, 'TP', at(entry.limit_price, 0.95)), sl, restingSpec(m, p, 'SELL'));
    for (const i of [0, 1, 2]) expectLegRejected(res, i, 'bracket_tp_wrong_side');
    expectLegSubmitted(res, 3);
  });

  it('bracket_sl_wrong_side: long LIMIT entry with SL above its limit_price', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    const res = await t.place(entry, tp, leg(entry, 'SL', at(entry.limit_price, 1.02)));
    for (const i of [0, 1, 2]) expectLegRejected(res, i, 'bracket_sl_wrong_side');
  });

  it('short LIMIT entry: TP above the limit is bracket_tp_wrong_side, SL below is bracket_sl_wrong_side', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const entry = restingSpec(m, p, 'SELL', { client_order_id: cid('short') });
    const goodTp = leg(entry, 'TP', at(entry.limit_price, 0.95));
    const goodSl = leg(entry, 'SL', at(entry.limit_price, 1.1));
    const r1 = await t.place(entry, leg(entry, 'TP', at(entry.limit_price, 1.05)), goodSl);
    for (const i of [0, 1, 2]) expectLegRejected(r1, i, 'bracket_tp_wrong_side');
    const e2 = { ...entry, client_order_id: cid('short') };
    const r2 = await t.place(e2, { ...goodTp, parent_client_order_id: e2.client_order_id }, leg(e2, 'SL', at(entry.limit_price, 0.9)));
    for (const i of [0, 1, 2]) expectLegRejected(r2, i, 'bracket_sl_wrong_side');
    const e3 = { ...entry, client_order_id: cid('short') };
    const r3 = await t.place(e3, { ...goodTp, parent_client_order_id: e3.client_order_id }, { ...goodSl, parent_client_order_id: e3.client_order_id });
    for (const i of [0, 1, 2]) expectLegSubmitted(r3, i);
  });

  it('a MARKET entry is checked against the current mark at submit, not its limit_price', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    // Between the mark and the slippage bound: valid against the mark, wrong side against limit_price.
    const entry = marketSpec(m, p, 'BUY', { client_order_id: cid('mkt'), limit_price: ceilTick(p.mark.mul(1.1), m.tick_size) });
    const tp = leg(entry, 'TP', at(p.mark, 1.03));
    const sl = leg(entry, 'SL', at(p.mark, 0.9));
    expect(D(tp.trigger!.trigger_price).lt(entry.limit_price)).toBe(true);
    const ok = await t.place(entry, tp, sl);
    for (const i of [0, 1, 2]) expectLegSubmitted(ok, i);
    const t2 = await Trader.create(ctx);
    const p2 = await prices(ctx, m);
    const e2 = marketSpec(m, p2, 'BUY', { client_order_id: cid('mkt') });
    const bad = await t2.place(e2, leg(e2, 'TP', at(p2.mark, 0.98)));
    for (const i of [0, 1]) expectLegRejected(bad, i, 'bracket_tp_wrong_side');
  });
});

describe('PENDING_PARENT', () => {
  it('attached legs read PENDING_PARENT, list as open TRIGGERs with parent_order_id, and stay out of position-triggers', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp, sl } = await longLimitBracket();
    const res = await t.place(entry, tp, sl);
    const [entryId, tpId, slId] = [0, 1, 2].map((i) => expectLegSubmitted(res, i));
    expect(res.body.success).toBe(true);
    await waitPendingParent(tpId!);
    await waitPendingParent(slId!);
    const open = (await t.openOrders()).orders as J[];
    for (const [id, kind] of [
      [tpId, 'tp'],
      [slId, 'sl'],
    ] as const) {
      const row = open.find((o) => o.order_id === id);
      expect(row, `leg ${id} listed`).toMatchObject({ status: 'open', order_type: 'TRIGGER', parent_order_id: entryId, tpsl: kind, reduce_only: true });
    }
    expect((await t.triggers()).map((o) => o.order_id)).not.toContain(tpId);
    expect((await t.triggers()).map((o) => o.order_id)).not.toContain(slId);
    // Logged as open in history.
    expect((await t.history()).some((r) => r.order_id === tpId && r.status === 'open')).toBe(true);
  });

  it('a pending leg is not armed and cannot fire even when the mark is past its trigger', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const entry = restingSpec(m, p, 'BUY', { client_order_id: cid('entry') });
    // TP above the entry's limit (valid) but below the current mark: an armed long TP would fire at once.
    const tp = leg(entry, 'TP', at(entry.limit_price, 1.05));
    expect(D(tp.trigger!.trigger_price).lt(p.mark)).toBe(true);
    const res = await t.place(entry, tp);
    const tpId = expectLegSubmitted(res, 1);
    await waitPendingParent(tpId);
    await ctx.advanceSteps(5, 2000);
    expect((await ctx.getOrder(tpId)).body.data.status).toBe('PENDING_PARENT');
    expect(await t.fills()).toEqual([]);
  });

  it('PENDING_PARENT -> SUBMITTED when the entry fills: armed as a whole-position trigger, parent_order_id gone, listed in position-triggers', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp, sl } = await longLimitBracket();
    const res = await t.place(entry, tp, sl);
    const [entryId, tpId, slId] = [0, 1, 2].map((i) => expectLegSubmitted(res, i));
    await ctx.waitStatus(entryId!, 'ACCEPTED');
    await waitPendingParent(tpId!);
    const before = await prices(ctx, m);
    // Mark down through the entry (but above the SL trigger).
    await ctx.setMark(m.symbol, at(entry.limit_price, 0.98));
    expect((await ctx.waitStatus(entryId!, TERMINAL)).order.status).toBe('FILLED');
    await ctx.waitStatus(tpId!, 'SUBMITTED');
    await ctx.waitStatus(slId!, 'SUBMITTED');
    const trig = await ctx.until('legs in position-triggers', async () => {
      const list = await t.triggers();
      return list.some((o) => o.order_id === tpId) && list.some((o) => o.order_id === slId) ? list : undefined;
    });
    for (const row of trig.filter((o) => o.order_id === tpId || o.order_id === slId)) expect(row.parent_order_id).toBeUndefined();
    const open = (await t.openOrders()).orders as J[];
    expect(open.find((o) => o.order_id === tpId)?.parent_order_id).toBeUndefined();
    await ctx.setMark(m.symbol, before.mark);
  });

  it('a pending leg does not block a close of an existing position (no close_trigger_coexistence)', async () => {
    const t = await Trader.create(ctx);
    const { position } = await openPosition(t, m, 'BUY');
    const { entry, sl } = await longLimitBracket();
    const res = await t.place(entry, sl);
    await waitPendingParent(expectLegSubmitted(res, 1));
    const p = await prices(ctx, m);
    const closeId = expectLegSubmitted(await t.place(marketSpec(m, p, 'SELL', { size: position.closeable, reduce_only: true })));
    expect((await ctx.waitStatus(closeId, TERMINAL)).order.status).toBe('FILLED');
  });

  it('a pending leg can be cancelled (order_type TRIGGER); the entry stays', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    const res = await t.place(entry, tp);
    const entryId = expectLegSubmitted(res, 0);
    const tpId = expectLegSubmitted(res, 1);
    await waitPendingParent(tpId);
    expect(expectOk(await t.cancel(tpId, 'TRIGGER')).status).toBe('SUBMITTED');
    expect((await ctx.waitStatus(tpId, TERMINAL)).order.status).toBe('CANCELLED');
    expect((await ctx.getOrder(entryId)).body.data.status).toBe('ACCEPTED');
  });

  it('a pending leg cannot be modified: modify_not_modifiable', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    const res = await t.place(entry, tp);
    const tpId = expectLegSubmitted(res, 1);
    await waitPendingParent(tpId);
    const mod = await t.modify(tpId, { limit_price: tp.limit_price, size: '0', trigger_price: at(entry.limit_price, 1.08) });
    expect(mod.text, describeRes(mod)).toContain('modify_not_modifiable');
    if (mod.status === 200) expect(mod.body.data?.status, describeRes(mod)).toBe('REJECTED');
    await ctx.advanceSteps(3, 1000);
    expect((await ctx.getOrder(tpId)).body.data.status).toBe('PENDING_PARENT');
  });
});

describe('system cancellation of attached legs', () => {
  it('entry cancelled unfilled: legs CANCELLED bracket_parent_not_filled (also in history)', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp, sl } = await longLimitBracket();
    const res = await t.place(entry, tp, sl);
    const [entryId, tpId, slId] = [0, 1, 2].map((i) => expectLegSubmitted(res, i));
    await ctx.waitStatus(entryId!, 'ACCEPTED');
    expectOk(await t.cancel(entryId!, 'LIMIT'));
    expect((await ctx.waitStatus(entryId!, TERMINAL)).order.status).toBe('CANCELLED');
    for (const id of [tpId!, slId!]) {
      const { order } = await ctx.waitStatus(id, TERMINAL);
      expect(order).toMatchObject({ status: 'CANCELLED', reason: 'bracket_parent_not_filled' });
    }
    const rows = (await t.history()).filter((r) => r.order_id === tpId && r.status === 'cancelled');
    expect(rows[0]?.reason).toBe('bracket_parent_not_filled');
  });

  it('entry rejected (post-only would take): legs CANCELLED bracket_parent_not_filled', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const entry = restingSpec(m, p, 'BUY', { client_order_id: cid('alo'), time_in_force: 'ALO', limit_price: p.mktBuy });
    const res = await t.place(entry, leg(entry, 'TP', at(entry.limit_price, 1.05)), leg(entry, 'SL', at(entry.limit_price, 0.9)));
    const [entryId, tpId, slId] = [0, 1, 2].map((i) => expectLegSubmitted(res, i));
    expect((await ctx.waitStatus(entryId!, TERMINAL)).order).toMatchObject({ status: 'REJECTED', reason: 'post_only_would_take' });
    for (const id of [tpId!, slId!]) expect((await ctx.waitStatus(id, TERMINAL)).order).toMatchObject({ status: 'CANCELLED', reason: 'bracket_parent_not_filled' });
  });

  it('entry IOC that never fills: legs CANCELLED bracket_parent_not_filled', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp } = await longLimitBracket();
    const res = await t.place({ ...entry, time_in_force: 'IOC' }, tp);
    const entryId = expectLegSubmitted(res, 0);
    const tpId = expectLegSubmitted(res, 1);
    expect((await ctx.waitStatus(entryId, TERMINAL)).order.status).toBe('CANCELLED');
    expect((await ctx.waitStatus(tpId, TERMINAL)).order).toMatchObject({ status: 'CANCELLED', reason: 'bracket_parent_not_filled' });
  });

  it('entry partly filled then cancelled (PARTIALLY_FILLED_CANCELLED) counts as a fill: legs arm', async () => {
    const book = await ctx.book(m.symbol);
    const depth = book.asks.reduce((acc, l) => acc.plus(l.sz), D(0));
    const top = book.asks[book.asks.length - 1]!;
    const t = await Trader.create(ctx, { fund: depth.mul(top.px).mul(3).div(m.max_leverage).mul(2).plus(100_000).ceil().toFixed() });
    const p = await prices(ctx, m);
    const entry = marketSpec(m, p, 'BUY', {
      client_order_id: cid('pfc'),
      size: depth.mul(3).toDecimalPlaces(m.sz_decimals).toFixed(),
      limit_price: ceilTick(p.mark.mul(1.5), m.tick_size),
      leverage: m.max_leverage,
    });
    const res = await t.place(entry, leg(entry, 'TP', at(p.mark, 1.3)), leg(entry, 'SL', at(p.mark, 0.7)));
    const [entryId, tpId, slId] = [0, 1, 2].map((i) => expectLegSubmitted(res, i));
    expect((await ctx.waitStatus(entryId!, TERMINAL)).order.status).toBe('PARTIALLY_FILLED_CANCELLED');
    await ctx.waitStatus(tpId!, 'SUBMITTED');
    await ctx.waitStatus(slId!, 'SUBMITTED');
  });

  it('cancelling an entry that has partly filled arms its legs instead of cancelling them', async () => {
    const book = await ctx.book(m.symbol);
    const top = book.asks[0]!;
    const t = await Trader.create(ctx, { fund: D(top.px).mul(top.sz).mul(4).plus(100_000).ceil().toFixed() });
    // A GTC buy at the best ask for twice its size: half fills at once, the rest rests.
    const entry: OrderSpec = {
      market: m.symbol,
      side: 'BUY',
      size: D(top.sz).mul(2).toDecimalPlaces(m.sz_decimals).toFixed(),
      limit_price: top.px,
      order_type: 'LIMIT',
      time_in_force: 'GTC',
      client_order_id: cid('partial'),
    };
    const res = await t.place(entry, leg(entry, 'TP', at(top.px, 1.05)), leg(entry, 'SL', at(top.px, 0.95)));
    const [entryId, tpId, slId] = [0, 1, 2].map((i) => expectLegSubmitted(res, i));
    await ctx.until('entry partly filled and resting', async () => {
      const row = ((await t.openOrders()).orders as J[]).find((o) => o.order_id === entryId);
      return row && D(row.filled_size).gt(0) ? row : undefined;
    });
    expect((await ctx.getOrder(tpId!)).body.data.status).toBe('PENDING_PARENT');
    expectOk(await t.cancel(entryId!, 'LIMIT'));
    expect((await ctx.waitStatus(entryId!, TERMINAL)).order.status).toBe('PARTIALLY_FILLED_CANCELLED');
    await ctx.waitStatus(tpId!, 'SUBMITTED');
    await ctx.waitStatus(slId!, 'SUBMITTED');
  });

  it('entry never persisted at the venue (FAILED, could not be routed): legs CANCELLED bracket_parent_missing', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp, sl } = await longLimitBracket();
    // The control route makes the venue unable to route the next order.
    await ctx.orderOutcome({ next: true, outcome: 'FAILED' });
    const res = await t.place(entry, tp, sl);
    const [entryId, tpId, slId] = [0, 1, 2].map((i) => expectLegSubmitted(res, i));
    expect((await ctx.waitStatus(entryId!, TERMINAL)).order.status).toBe('FAILED');
    for (const id of [tpId!, slId!]) expect((await ctx.waitStatus(id, TERMINAL)).order).toMatchObject({ status: 'CANCELLED', reason: 'bracket_parent_missing' });
  });

  it('entry filled but no position on its side at settlement: legs CANCELLED bracket_no_position', async () => {
    const t = await Trader.create(ctx);
    const p0 = await prices(ctx, m);
    const { position } = await openPosition(t, m, 'SELL', ceilTickSize(D(sizeOf(p0.mark)).mul(2)));
    const p = await prices(ctx, m);
    // Buy half the short back through a bracket: the account stays short, no long to attach to.
    const half = D(position.size).abs().div(2).toDecimalPlaces(m.sz_decimals).toFixed();
    const entry = marketSpec(m, p, 'BUY', { client_order_id: cid('nopos'), size: half });
    const res = await t.place(entry, leg(entry, 'TP', at(p.mark, 1.2)), leg(entry, 'SL', at(p.mark, 0.8)));
    const [entryId, tpId, slId] = [0, 1, 2].map((i) => expectLegSubmitted(res, i));
    expect((await ctx.waitStatus(entryId!, TERMINAL)).order.status).toBe('FILLED');
    for (const id of [tpId!, slId!]) expect((await ctx.waitStatus(id, TERMINAL)).order).toMatchObject({ status: 'CANCELLED', reason: 'bracket_no_position' });
  });

  it('a newly armed bracket leg replaces an armed whole-position trigger of the same kind: bracket_replaced; the other kind stays', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    // Standalone whole-position TP and SL armed on the long.
    const r0 = await t.place(
      { market: m.symbol, side: 'SELL', size: '0', limit_price: at(p.mark, 1.25), order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: at(p.mark, 1.3), is_market: true, tpsl: 'TP' } },
      { market: m.symbol, side: 'SELL', size: '0', limit_price: at(p.mark, 0.65), order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: at(p.mark, 0.7), is_market: true, tpsl: 'SL' } },
    );
    const oldTp = expectLegSubmitted(r0, 0);
    const oldSl = expectLegSubmitted(r0, 1);
    await ctx.advanceSteps(2, 1000);
    // A bracket adding to the long with a TP only.
    const p2 = await prices(ctx, m);
    const entry = marketSpec(m, p2, 'BUY', { client_order_id: cid('add') });
    const res = await t.place(entry, leg(entry, 'TP', at(p2.mark, 1.2)));
    const entryId = expectLegSubmitted(res, 0);
    const newTp = expectLegSubmitted(res, 1);
    expect((await ctx.waitStatus(entryId, TERMINAL)).order.status).toBe('FILLED');
    await ctx.waitStatus(newTp, 'SUBMITTED');
    expect((await ctx.waitStatus(oldTp, TERMINAL)).order).toMatchObject({ status: 'CANCELLED', reason: 'bracket_replaced' });
    expect((await ctx.getOrder(oldSl)).body.data.status).toBe('SUBMITTED');
    const trig = (await t.triggers()).map((o) => o.order_id);
    expect(trig).toContain(newTp);
    expect(trig).toContain(oldSl);
    expect(trig).not.toContain(oldTp);
  });
});

describe('modifying a bracket entry', () => {
  it('legs follow the entry to the new order_id when their levels stay on the right side', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp, sl } = await longLimitBracket();
    const res = await t.place(entry, tp, sl);
    const [entryId, tpId, slId] = [0, 1, 2].map((i) => expectLegSubmitted(res, i));
    await ctx.waitStatus(entryId!, 'ACCEPTED');
    await waitPendingParent(tpId!);
    const newPrice = at(entry.limit_price, 0.99);
    const mod = await t.modify(entryId!, { limit_price: newPrice, size: entry.size, trigger_price: '0' });
    const newId = expectOk(mod).order_id as string;
    expect(newId).not.toBe(entryId);
    const rows = await ctx.until('legs follow the new entry', async () => {
      const open = (await t.openOrders()).orders as J[];
      const legsNow = open.filter((o) => o.order_id === tpId || o.order_id === slId);
      return legsNow.length === 2 && legsNow.every((o) => o.parent_order_id === newId) ? legsNow : undefined;
    });
    expect(rows).toHaveLength(2);
  });

  it('a new limit_price putting the TP on the wrong side is rejected bracket_tp_wrong_side; entry and legs stay', async () => {
    const t = await Trader.create(ctx);
    const { entry, tp, sl } = await longLimitBracket();
    const res = await t.place(entry, tp, sl);
    const [entryId, tpId] = [0, 1].map((i) => expectLegSubmitted(res, i));
    await ctx.waitStatus(entryId!, 'ACCEPTED');
    await waitPendingParent(tpId!);
    // Above the TP trigger (still below the book so the entry would rest).
    const mod = await t.modify(entryId!, { limit_price: at(tp.trigger!.trigger_price, 1.01), size: entry.size, trigger_price: '0' });
    expect(mod.text, describeRes(mod)).toContain('bracket_tp_wrong_side');
    await ctx.advanceSteps(3, 1000);
    expect((await ctx.getOrder(entryId!)).body.data.status).toBe('ACCEPTED');
    expect((await ctx.getOrder(tpId!)).body.data.status).toBe('PENDING_PARENT');
  });

  it('a new limit_price putting the SL on the wrong side is rejected bracket_sl_wrong_side', async () => {
    const t = await Trader.create(ctx);
    const { entry, sl } = await longLimitBracket();
    const res = await t.place(entry, sl);
    const entryId = expectLegSubmitted(res, 0);
    const slId = expectLegSubmitted(res, 1);
    await ctx.waitStatus(entryId, 'ACCEPTED');
    await waitPendingParent(slId);
    const mod = await t.modify(entryId, { limit_price: at(sl.trigger!.trigger_price, 0.99), size: entry.size, trigger_price: '0' });
    expect(mod.text, describeRes(mod)).toContain('bracket_sl_wrong_side');
    await ctx.advanceSteps(3, 1000);
    expect((await ctx.getOrder(entryId)).body.data.status).toBe('ACCEPTED');
    expect((await ctx.getOrder(slId)).body.data.status).toBe('PENDING_PARENT');
  });
});

/** Size worth a comfortable notional at `mark`. */
function sizeOf(mark: ReturnType<typeof D>): string {
  return D(Math.max(Number(m.min_order_value) * 3, 50)).div(mark).toDecimalPlaces(m.sz_decimals, 2).toFixed();
}
function ceilTickSize(v: ReturnType<typeof D>): string {
  return v.toDecimalPlaces(m.sz_decimals, 2).toFixed();
}

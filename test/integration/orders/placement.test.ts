/**
 * Placing orders through the services against the simulator: per-leg results, every order followed to
 * the state it was waited for, triggers firing on a mark move, and bracket legs waiting in PENDING_PARENT
 * until their entry fills, then arming.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { followOrder, placeOrders, OrderTracker, type LegInput } from '../../../src/main/services/orders/index.js';
import { prepareLegs } from '../../../src/main/services/orders/prepareOrder.js';
import { submitOrder } from '../../../src/main/services/orders/submitOrder.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import { TradingWorld, Trader, priceAt, sizeFor } from './tradingWorld.js';

let w: TradingWorld;
const SYM = 'BTC';
beforeAll(async () => {
  w = await TradingWorld.boot('orders-placement');
});
afterAll(async () => {
  await w?.stop();
});

async function longPosition(t: Trader): Promise<void> {
  const m = w.market(SYM);
  const mark = await w.mark(SYM);
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark, 3), leverage: 5 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined, 'long to show');
}

describe('placing', () => {
  it('sends the POST and nothing else: no order-history read before a placement (issue 17)', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const prepared = await prepareLegs(w.ctx, {
      wallet: t.wallet,
      legs: Array.from({ length: 3 }, (_, i) => ({ market: SYM, side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', limit_price: new Decimal(priceAt(m, mark, 0.9)).minus(new Decimal(m.tick_size).mul(i)).toFixed() })),
    });
    const signer = await w.ctx.tradingSigner(t.wallet);
    const from = w.requests.length;
    const r = await submitOrder(w.ctx, prepared, signer);
    expect(r.success).toBe(true);
    expect(r.reconciled).toBe(false);
    expect(w.since(from).map((q) => `${q.method} ${q.path}`)).toEqual(['POST /orders']);
  });

  it('a resting limit is followed until it rests; a market order until it fills', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const limit = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'buy', size: sizeFor(m, mark), order_type: 'limit', limit_price: priceAt(m, mark, 0.9) }] }, { wait: true });
    expect(limit.success).toBe(true);
    expect(limit.legs[0]).toMatchObject({ status: 'SUBMITTED', leg: { order_type: 'LIMIT', time_in_force: 'GTC', side: 'BUY' } });
    expect(limit.legs[0]!.final).toMatchObject({ status: 'ACCEPTED', list_status: 'open', terminal: false });

    const market = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark) }] }, { wait: true });
    const leg = market.legs[0]!;
    expect(leg.leg).toMatchObject({ order_type: 'MARKET', time_in_force: 'IOC' });
    // The computed bound: mark plus the market's slippage_bps, rounded down to the tick.
    const bound = mark.mul(new Decimal(1).plus(new Decimal(m.slippage_bps).div(10_000))).div(m.tick_size).floor().mul(m.tick_size);
    expect(new Decimal(leg.leg.limit_price).eq(bound)).toBe(true);
    expect(leg.final).toMatchObject({ status: 'FILLED', terminal: true });
    expect(new Decimal(leg.final!.avg_fill_price!).lte(leg.leg.limit_price)).toBe(true);
  });

  it('an explicit --price on a market order is the bound as given', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const bound = priceAt(m, mark, 1.01);
    const legs = [{ market: SYM, side: 'BUY', size: sizeFor(m, mark), limit_price: bound }];
    // 100 bps is wider than the market's own 50 bps bound: the fat-finger guard asks for the allowance.
    await expect(placeOrders(w.ctx, { wallet: t.wallet, legs })).rejects.toMatchObject({ code: 'FAR_PRICE' });
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs, allow: { farPrice: true } }, { wait: true });
    expect(r.legs[0]!.leg.limit_price).toBe(bound);
    expect(r.legs[0]!.final?.status).toBe('FILLED');
  });

  it('a batch gets per-leg results with unique client ids; a post-only order that would cross ends REJECTED', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const legs: LegInput[] = [
      { market: SYM, side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.9) },
      { market: SYM, side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', time_in_force: 'ALO', limit_price: priceAt(m, mark, 1.02) },
      { market: SYM, side: 'SELL', size: sizeFor(m, mark), order_type: 'LIMIT', limit_price: priceAt(m, mark, 1.1) },
    ];
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs }, { wait: true });
    expect(r.legs.map((l) => l.status)).toEqual(['SUBMITTED', 'SUBMITTED', 'SUBMITTED']);
    expect(new Set(r.legs.map((l) => l.client_order_id)).size).toBe(3);
    expect(new Set(r.legs.map((l) => l.order_id)).size).toBe(3);
    expect(r.legs.map((l) => l.final?.status)).toEqual(['ACCEPTED', 'REJECTED', 'ACCEPTED']);
    expect(r.legs[1]!.final?.reason).toBe('post_only_would_take');
  });

  it('order get --wait follows one order to its terminal status', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.97) }] }, { wait: true });
    const id = r.legs[0]!.order_id!;
    expect((await followOrder(w.ctx, id)).status).toBe('ACCEPTED');
    // The mark falls through the limit: the resting buy fills as maker.
    await w.setMark(SYM, priceAt(m, mark, 0.96));
    const done = await followOrder(w.ctx, id, { wait: true, wallet: t.wallet });
    expect(done).toMatchObject({ status: 'FILLED', terminal: true });
    await w.setMark(SYM, mark.toFixed());
  });
});

describe('triggers', () => {
  it('an armed stop-loss fires on a mark move and closes the whole position', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    await longPosition(t);
    const mark = await w.mark(SYM);
    const stop = priceAt(m, mark, 0.99);
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: stop, tpsl: 'SL' } }] }, { wait: true });
    const leg = r.legs[0]!;
    expect(leg.leg.time_in_force).toBeUndefined();
    // The fire price sits below the trigger by the slippage tolerance (a SELL executes downwards).
    expect(new Decimal(leg.leg.limit_price).lt(stop)).toBe(true);
    expect(leg.final).toMatchObject({ status: 'SUBMITTED', armed: true });
    expect((await w.ctx.api.positionTriggers(t.wallet)).orders.map((o) => o.order_id)).toEqual([leg.order_id]);

    const tracker = new OrderTracker({ api: w.ctx.api, wallet: t.wallet, sleep: w.ctx.sleep });
    tracker.track(leg.order_id!, { market: SYM, order_type: 'TRIGGER', status: 'SUBMITTED', justSubmitted: false });
    // The mark falls to the stop: it fires, and the book there is within its fire price.
    await w.setMark(SYM, stop);
    const seen: string[] = [];
    const [done] = await tracker.waitFor([leg.order_id!], { onChange: (c) => c.forEach((o) => seen.push(o.list_status ?? o.status)) });
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'FILLED', terminal: true });
    expect(seen).toContain('filled');
    await waitForPosition(w.ctx, t.accountId, SYM, (p) => p === undefined, 'position to close');
    await w.setMark(SYM, mark.toFixed());
  });
});

describe('brackets', () => {
  it('a LIMIT entry with TP and SL: legs wait in PENDING_PARENT, then arm once the entry fills', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const entryPrice = new Decimal(priceAt(m, mark, 0.95));
    const legs: LegInput[] = [
      { market: SYM, side: 'BUY', size: sizeFor(m, entryPrice, 3), order_type: 'LIMIT', limit_price: entryPrice.toFixed(), leverage: 5, client_order_id: 'entry-1' },
      { market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, entryPrice, 1.03), tpsl: 'TP' }, parent_client_order_id: 'entry-1' },
      { market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, entryPrice, 0.98), tpsl: 'SL' }, parent_client_order_id: 'entry-1' },
    ];
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs }, { wait: true });
    expect(r.legs.map((l) => l.final?.status)).toEqual(['ACCEPTED', 'PENDING_PARENT', 'PENDING_PARENT']);
    const [entryId, tpId, slId] = r.legs.map((l) => l.order_id!);
    const open = await t.openOrders(SYM);
    expect(open.filter((o) => o.parent_order_id === entryId).map((o) => o.order_id).sort()).toEqual([tpId, slId].sort());
    // Not armed: position-triggers excludes legs awaiting their entry.
    expect((await w.ctx.api.positionTriggers(t.wallet)).orders).toEqual([]);

    const tracker = new OrderTracker({ api: w.ctx.api, wallet: t.wallet, sleep: w.ctx.sleep });
    for (const l of r.legs) tracker.track(l.order_id!, { market: SYM, order_type: l.leg.order_type, status: l.final!.status, justSubmitted: false });
    // The mark comes down to the entry: it fills, and the legs arm once the fill is in the position.
    await w.setMark(SYM, entryPrice.toFixed());
    const states = await tracker.waitFor([entryId!, tpId!, slId!], { until: (o) => o.terminal || o.armed });
    expect(states.map((s) => [s.status, s.armed])).toEqual([
      ['FILLED', false],
      ['SUBMITTED', true],
      ['SUBMITTED', true],
    ]);
    const armed = (await w.ctx.api.positionTriggers(t.wallet)).orders;
    expect(armed.map((o) => o.order_id).sort()).toEqual([tpId, slId].sort());
    expect(armed.every((o) => !o.parent_order_id)).toBe(true);
    await w.setMark(SYM, mark.toFixed());
  });

  it('--tp/--sl on a MARKET entry: the legs are followed until armed', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const { bracketLegInputs } = await import('../../../src/main/services/orders/index.js');
    const entry: LegInput = { market: SYM, side: 'SELL', size: sizeFor(m, mark, 3), leverage: 5, client_order_id: 'short-1' };
    const kids = bracketLegInputs({ market: SYM, side: 'SELL', client_order_id: 'short-1' }, { tp: priceAt(m, mark, 0.95), sl: priceAt(m, mark, 1.05) });
    expect(kids.map((k) => [k.side, k.size, k.reduce_only, k.trigger?.tpsl])).toEqual([
      ['BUY', '0', true, 'TP'],
      ['BUY', '0', true, 'SL'],
    ]);
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [entry, ...kids] }, { wait: true });
    expect(r.legs.map((l) => l.final?.status)).toEqual(['FILLED', 'SUBMITTED', 'SUBMITTED']);
    expect(r.legs.slice(1).every((l) => l.final?.armed)).toBe(true);
    // A BUY trigger's fire price is above its trigger (it executes upwards).
    expect(r.legs.slice(1).every((l) => new Decimal(l.leg.limit_price).gt(l.leg.trigger!.trigger_price))).toBe(true);
  });
});

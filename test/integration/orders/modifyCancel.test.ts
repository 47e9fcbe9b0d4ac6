/**
 * Modify (the new id replaces the old in tracking; PENDING_PARENT legs and in-flight modifies refused up
 * front; a modify racing a trigger is dropped and the original stays) and cancel (single, batch, all;
 * confirmed asynchronously through open-orders).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { ValidationError } from '../../../src/main/services/errors.js';
import { OrderTracker, cancelAll, cancelOrder, cancelOrders, modifyOrder, placeOrders, type LegInput } from '../../../src/main/services/orders/index.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import { TradingWorld, Trader, priceAt, sizeFor } from './tradingWorld.js';

let w: TradingWorld;
const SYM = 'BTC';
const OTHER = 'ETH';
beforeAll(async () => {
  w = await TradingWorld.boot('orders-modify-cancel');
});
afterAll(async () => {
  await w?.stop();
});

async function resting(t: Trader, symbol = SYM, factor = 0.9, count = 1): Promise<string[]> {
  const m = w.market(symbol);
  const mark = await w.mark(symbol);
  const legs: LegInput[] = Array.from({ length: count }, (_, i) => {
    const price = new Decimal(priceAt(m, mark, factor)).minus(new Decimal(m.tick_size).mul(i));
    return { market: symbol, side: 'BUY', size: sizeFor(m, price), order_type: 'LIMIT', limit_price: price.toFixed() };
  });
  const ids: string[] = [];
  for (let i = 0; i < legs.length; i += 20) {
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: legs.slice(i, i + 20) }, { wait: true });
    expect(r.legs.every((l) => l.final?.status === 'ACCEPTED')).toBe(true);
    ids.push(...r.legs.map((l) => l.order_id!));
  }
  return ids;
}

async function noPostSince(from: number): Promise<void> {
  expect(w.since(from).filter((r) => r.method === 'POST')).toEqual([]);
}

describe('modify', () => {
  it('replaces a resting limit: the new id takes over tracking, the old one ends CANCELLED (modified)', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const [id] = await resting(t);
    const mark = await w.mark(SYM);
    const price = priceAt(m, mark, 0.85);
    const size = sizeFor(m, new Decimal(price), 3);
    const tracker = new OrderTracker({ api: w.ctx.api, wallet: t.wallet, sleep: w.ctx.sleep });
    const r = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: id!, price, size }, { wait: true, tracker });
    expect(r).toMatchObject({ status: 'SUBMITTED', outcome: 'applied', old_order_id: id, sent: { limit_price: price, size, trigger_price: '0' } });
    expect(r.new_order_id).not.toBe(id);
    expect(r.final).toMatchObject({ order_id: r.new_order_id, status: 'ACCEPTED' });
    expect(tracker.get(id!)?.replaced_by).toBe(r.new_order_id);
    const open = await t.openOrders(SYM);
    expect(open.map((o) => [o.order_id, o.limit_price, o.size])).toEqual([[r.new_order_id, price, size]]);
    const old = (await t.history()).find((h) => h.order_id === id && h.status === 'cancelled');
    expect(old?.reason).toBe('modified');
  });

  it('refuses a bracket leg awaiting its entry (PENDING_PARENT) and a second modify in flight, before signing', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const entryPrice = new Decimal(priceAt(m, mark, 0.9));
    const r = await placeOrders(
      w.ctx,
      {
        wallet: t.wallet,
        legs: [
          { market: SYM, side: 'BUY', size: sizeFor(m, entryPrice), order_type: 'LIMIT', limit_price: entryPrice.toFixed(), client_order_id: 'e' },
          { market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, entryPrice, 1.05), tpsl: 'TP' }, parent_client_order_id: 'e' },
        ],
      },
      { wait: true },
    );
    const [entryId, legId] = r.legs.map((l) => l.order_id!);
    let from = w.requests.length;
    const e1 = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: legId!, price: priceAt(m, entryPrice, 1.04), size: '0' }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ValidationError);
    expect((e1 as ValidationError).code).toBe('MODIFY_NOT_MODIFIABLE');
    await noPostSince(from);

    // Moving the entry so that its pending TP would be below the new limit price: refused (bracket_tp_wrong_side).
    from = w.requests.length;
    const e2 = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: entryId!, price: priceAt(m, entryPrice, 1.06), size: sizeFor(m, entryPrice) }).catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(ValidationError);
    expect((e2 as ValidationError).message).toMatch(/bracket_tp_wrong_side/);
    await noPostSince(from);

    // A modify without waiting leaves the old order is_modifying until it applies: modifying it again is refused.
    const first = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: entryId!, price: priceAt(m, entryPrice, 0.99), size: sizeFor(m, entryPrice) });
    expect(first.status).toBe('SUBMITTED');
    from = w.requests.length;
    const e3 = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: entryId!, price: priceAt(m, entryPrice, 0.98), size: sizeFor(m, entryPrice) }).catch((e: unknown) => e);
    expect(e3).toBeInstanceOf(ValidationError);
    expect((e3 as ValidationError).code).toBe('MODIFY_IN_FLIGHT');
    await noPostSince(from);
    // The pending leg follows the entry to its new id.
    await w.advance(1_000);
    const open = await t.openOrders(SYM);
    expect(open.find((o) => o.order_id === legId)?.parent_order_id).toBe(first.new_order_id);
  });

  it('moves an armed trigger; a modify racing the trigger firing is dropped and the original stays', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const buy = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark, 3), leverage: 5 }] }, { wait: true });
    expect(buy.legs[0]!.final?.status).toBe('FILLED');
    await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined, 'long');
    const sl = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, mark, 0.97), tpsl: 'SL' } }] }, { wait: true });
    const slId = sl.legs[0]!.order_id!;
    // A new trigger price already past the mark is refused up front.
    const bad = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: slId, price: priceAt(m, mark, 1), size: '0', triggerPrice: priceAt(m, mark, 1.01) }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);

    const moved = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: slId, price: priceAt(m, mark, 0.975), size: '0', triggerPrice: priceAt(m, mark, 0.98) }, { wait: true });
    expect(moved).toMatchObject({ outcome: 'applied', final: { status: 'SUBMITTED', armed: true } });
    expect((await w.ctx.api.positionTriggers(t.wallet)).orders.map((o) => [o.order_id, o.trigger_price])).toEqual([[moved.new_order_id, priceAt(m, mark, 0.98)]]);

    // Race: the modify is accepted, then the mark fires the original before the swap applies.
    const tracker = new OrderTracker({ api: w.ctx.api, wallet: t.wallet, sleep: w.ctx.sleep });
    const race = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: moved.new_order_id!, price: priceAt(m, mark, 0.95), size: '0', triggerPrice: priceAt(m, mark, 0.955) }, { tracker });
    expect(race.status).toBe('SUBMITTED');
    await w.setMark(SYM, priceAt(m, mark, 0.98));
    const [newer] = await tracker.waitFor([race.new_order_id!]);
    expect(newer).toMatchObject({ status: 'CANCELLED', reason: 'modify_dropped' });
    await w.setMark(SYM, mark.toFixed());
  });
});

describe('cancel', () => {
  it('cancels one order (type read from open-orders) and confirms it through open-orders', async () => {
    const t = await w.trader();
    const [id] = await resting(t);
    const r = await cancelOrder(w.ctx, { wallet: t.wallet, orderId: id! });
    expect(r.results).toEqual([{ order_id: id, order_type: 'LIMIT', status: 'SUBMITTED', reason: null, confirmed: true, final_status: 'CANCELLED', final_reason: null }]);
    expect(await t.openOrders()).toEqual([]);
    // Cancelling it again is refused before anything is signed.
    const from = w.requests.length;
    const again = await cancelOrder(w.ctx, { wallet: t.wallet, orderId: id! }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ValidationError);
    expect((again as ValidationError).code).toBe('ORDER_NOT_OPEN');
    await noPostSince(from);
    // With an explicit type the cancel is sent, and the service's REJECTED reason is reported.
    const sent = await cancelOrder(w.ctx, { wallet: t.wallet, orderId: id!, orderType: 'LIMIT' });
    expect(sent.results[0]).toMatchObject({ status: 'REJECTED', reason: 'order_not_open' });
  });

  it('cancels 25 orders through cancel-batch (two requests) and confirms every one', async () => {
    const t = await w.trader();
    const ids = await resting(t, SYM, 0.9, 25);
    const from = w.requests.length;
    const r = await cancelOrders(w.ctx, { wallet: t.wallet, targets: ids.map((order_id) => ({ order_id })) });
    expect(w.since(from).filter((x) => x.method === 'POST' && x.path === '/orders/cancel-batch').length).toBe(2);
    expect(r.results.every((x) => x.status === 'SUBMITTED' && x.confirmed && x.final_status === 'CANCELLED')).toBe(true);
    expect(await t.openOrders()).toEqual([]);
  });

  it('cancel-all on one market leaves the others; bracket legs leave with their entry', async () => {
    const t = await w.trader();
    await resting(t, SYM, 0.9, 3);
    const other = await resting(t, OTHER, 0.9, 2);
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const entryPrice = new Decimal(priceAt(m, mark, 0.88));
    await placeOrders(w.ctx, {
      wallet: t.wallet,
      legs: [
        { market: SYM, side: 'BUY', size: sizeFor(m, entryPrice), order_type: 'LIMIT', limit_price: entryPrice.toFixed(), client_order_id: 'e' },
        { market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, entryPrice, 1.05), tpsl: 'TP' }, parent_client_order_id: 'e' },
      ],
    });
    await w.advance(500);
    expect((await t.openOrders(SYM)).length).toBe(5);
    const r = await cancelAll(w.ctx, { wallet: t.wallet, market: SYM });
    // The pending leg was not cancelled separately: its entry's cancel takes it along.
    expect(r.results.length).toBe(4);
    expect(r.remaining).toEqual([]);
    expect(await t.openOrders(SYM)).toEqual([]);
    const leg = (await t.history()).find((h) => h.order_type === 'TRIGGER' && h.status === 'cancelled');
    expect(leg?.reason).toBe('bracket_parent_not_filled');
    expect((await t.openOrders()).map((o) => o.order_id).sort()).toEqual([...other].sort());
    const all = await cancelAll(w.ctx, { wallet: t.wallet });
    expect(all.results.map((x) => x.final_status)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(await t.openOrders()).toEqual([]);
  });
});

/**
 * The order tracker's economy and fallbacks: one order-history request per poll however many orders are
 * tracked, backing off while nothing changes, single reads only where lists cannot tell (an order that
 * never shows up in a list: FAILED, or not persisted yet), and a 404 right after submit being normal.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { OrderTracker, placeOrders, type LegInput } from '../../../src/main/services/orders/index.js';
import { TradingWorld, priceAt, sizeFor } from './tradingWorld.js';

let w: TradingWorld;
const SYM = 'BTC';
beforeAll(async () => {
  w = await TradingWorld.boot('orders-tracking');
});
afterAll(async () => {
  await w?.stop();
});
afterEach(async () => {
  await w.resetChaos();
});

function restingLegs(count: number, mark: Decimal): LegInput[] {
  const m = w.market(SYM);
  return Array.from({ length: count }, (_, i) => {
    const price = new Decimal(priceAt(m, mark, 0.8)).minus(new Decimal(m.tick_size).mul(i));
    return { market: SYM, side: 'BUY', size: sizeFor(m, price), order_type: 'LIMIT', limit_price: price.toFixed() };
  });
}

describe('order tracker', () => {
  it('follows 50 orders with one order-history request per poll and no single reads', async () => {
    const t = await w.trader();
    const mark = await w.mark(SYM);
    const ids: string[] = [];
    for (let i = 0; i < 50; i += 20) {
      const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: restingLegs(Math.min(20, 50 - i), mark.minus(i)) });
      ids.push(...r.legs.map((l) => l.order_id!));
    }
    const requests: string[] = [];
    const tracker = new OrderTracker({ api: w.ctx.api, wallet: t.wallet, sleep: w.ctx.sleep, onRequest: (r) => requests.push(r) });
    for (const id of ids) tracker.track(id, { market: SYM, order_type: 'LIMIT', status: 'SUBMITTED', justSubmitted: true });
    let polls = 0;
    const before = w.requests.length;
    const states = await tracker.waitFor(ids, { until: (o) => o.status === 'ACCEPTED', onChange: () => polls++ });
    expect(states.every((s) => s.status === 'ACCEPTED')).toBe(true);
    expect(requests.filter((r) => r === 'order')).toEqual([]);
    // Each poll is exactly one trading-API request, and it is order-history.
    const sent = w.since(before);
    expect(sent.every((r) => r.method === 'GET' && r.path === '/account/order-history')).toBe(true);
    expect(sent.length).toBeLessThanOrEqual(4);

    // Nothing changes for a simulated minute: polls back off instead of hammering.
    const quiet = w.requests.length;
    const n = await tracker.watchFor(60_000);
    expect(w.since(quiet).length).toBe(n);
    expect(n).toBeLessThanOrEqual(20);
    expect(w.since(quiet).every((r) => r.path === '/account/order-history')).toBe(true);
  });

  it('an order that never appears in a list (FAILED: not routable) is found through GET /orders/{id}', async () => {
    const t = await w.trader();
    const mark = await w.mark(SYM);
    await w.control('/order-outcome', { next: true, outcome: 'FAILED' });
    const requests: string[] = [];
    const tracker = new OrderTracker({ api: w.ctx.api, wallet: t.wallet, sleep: w.ctx.sleep, onRequest: (r) => requests.push(r) });
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: restingLegs(1, mark) }, { wait: true, tracker });
    expect(r.legs[0]!.final).toMatchObject({ status: 'FAILED', terminal: true, source: 'single' });
    expect(requests.filter((x) => x === 'order').length).toBeGreaterThanOrEqual(1);
    expect(requests.filter((x) => x === 'order').length).toBeLessThanOrEqual(3);
  });

  it('a 404 right after submit is normal (persistence lag): the order is followed until it rests', async () => {
    const t = await w.trader();
    const mark = await w.mark(SYM);
    await w.chaos({ persist_lag_ms: 10_000 });
    const requests: string[] = [];
    const tracker = new OrderTracker({ api: w.ctx.api, wallet: t.wallet, sleep: w.ctx.sleep, onRequest: (r) => requests.push(r) });
    const before = w.requests.length;
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: restingLegs(1, mark) }, { wait: true, tracker });
    expect(r.legs[0]!.final).toMatchObject({ status: 'ACCEPTED', list_status: 'open' });
    // It was looked up singly while invisible (404s) and none of that surfaced as an error.
    expect(requests).toContain('order');
    expect(w.since(before).some((x) => x.path.startsWith('/orders/'))).toBe(true);
  });

  it('a tracked order that changes shows up on the next poll, read from history', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.99), leverage: 5 }] }, { wait: true });
    const id = r.legs[0]!.order_id!;
    const tracker = new OrderTracker({ api: w.ctx.api, wallet: t.wallet, sleep: w.ctx.sleep });
    tracker.track(id, { market: SYM, order_type: 'LIMIT', status: 'ACCEPTED', justSubmitted: false });
    await w.setMark(SYM, priceAt(m, mark, 0.985));
    const [done] = await tracker.waitFor([id]);
    expect(done).toMatchObject({ status: 'FILLED', list_status: 'filled', source: 'list' });
    expect(new Decimal(done!.avg_fill_price!).eq(priceAt(m, mark, 0.99))).toBe(true);
    await w.setMark(SYM, mark.toFixed());
  });
});

/**
 * Faults injected through /sim/chaos: server errors (500 without processing), dropped connections (the
 * request is processed, the answer never arrives), latency and persistence lag. Whatever happens, every
 * order placed is accounted for, none is submitted twice (proved from order-history: exactly one order
 * id per leg and per applied modify), and cancels end with nothing open.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { cancelAll, modifyOrder, placeOrders, type LegInput, type PlaceOrdersResult } from '../../../src/main/services/orders/index.js';
import { TradingWorld, Trader, priceAt, sizeFor } from './tradingWorld.js';

let w: TradingWorld;
const SYM = 'BTC';
beforeAll(async () => {
  w = await TradingWorld.boot('orders-chaos', { seed: 11 });
});
afterAll(async () => {
  await w?.stop();
});
afterEach(async () => {
  await w.resetChaos();
});

let priceStep = 0;
/** Resting legs, each at its own price so every order in history can be told apart. */
async function uniqueLegs(count: number): Promise<LegInput[]> {
  const m = w.market(SYM);
  const mark = await w.mark(SYM);
  return Array.from({ length: count }, () => {
    const price = new Decimal(priceAt(m, mark, 0.8)).minus(new Decimal(m.tick_size).mul(++priceStep));
    return { market: SYM, side: 'BUY', size: sizeFor(m, price), order_type: 'LIMIT', limit_price: price.toFixed() };
  });
}

/** Order ids in history per (limit_price, size) of the legs placed: each must be exactly one. */
async function expectEachOnce(t: Trader, placed: PlaceOrdersResult[]): Promise<void> {
  const rows = await t.history();
  const ids = new Set(rows.map((r) => r.order_id));
  const legs = placed.flatMap((p) => p.legs);
  expect(legs.every((l) => l.status === 'SUBMITTED' && l.order_id !== null), JSON.stringify(legs.map((l) => [l.status, l.order_id]))).toBe(true);
  for (const l of legs) {
    const matching = new Set(rows.filter((r) => new Decimal(r.limit_price).eq(l.leg.limit_price) && new Decimal(r.size).eq(l.leg.size) && r.order_type === 'LIMIT').map((r) => r.order_id));
    expect([...matching], `leg at ${l.leg.limit_price}`).toEqual([l.order_id]);
  }
  expect(ids.size).toBe(legs.length);
}

describe('chaos', () => {
  it('server errors: requests are resent identically, nothing lost, nothing doubled', async () => {
    const t = await w.trader();
    await w.chaos({ error_rate: 0.3 });
    const placed: PlaceOrdersResult[] = [];
    for (let i = 0; i < 3; i++) placed.push(await placeOrders(w.ctx, { wallet: t.wallet, legs: await uniqueLegs(4) }, { wait: true }));
    await w.resetChaos();
    await expectEachOnce(t, placed);
    // The faults did happen.
    expect(w.requests.filter((r) => r.status === 500).length).toBeGreaterThan(3);
  });

  it('dropped connections: a landed write is reconciled from history instead of being signed again', async () => {
    const t = await w.trader();
    await w.chaos({ drop_rate: 0.35 });
    const placed: PlaceOrdersResult[] = [];
    for (let i = 0; i < 6; i++) placed.push(await placeOrders(w.ctx, { wallet: t.wallet, legs: await uniqueLegs(3) }, { wait: true }));
    await w.resetChaos();
    await expectEachOnce(t, placed);
    // Answers of writes were lost (the connection dropped after processing); with this seed one batch's
    // every resend met 409, so its legs were found by reading history instead of being signed again.
    expect(w.requests.some((r) => r.status === 0 && r.method === 'POST')).toBe(true);
    expect(w.requests.some((r) => r.status === 409 && r.path === '/orders')).toBe(true);
    expect(placed.some((p) => p.reconciled)).toBe(true);
    expect(placed.every((p) => p.legs.every((l) => l.final?.status === 'ACCEPTED'))).toBe(true);
  });

  it('latency and persistence lag: placement, modify and cancel-all still settle', async () => {
    const t = await w.trader();
    await w.chaos({ latency_ms: 30, persist_lag_ms: 2_500 });
    const placed = await placeOrders(w.ctx, { wallet: t.wallet, legs: await uniqueLegs(3) }, { wait: true });
    expect(placed.legs.map((l) => l.final?.status)).toEqual(['ACCEPTED', 'ACCEPTED', 'ACCEPTED']);
    const m = w.market(SYM);
    const target = placed.legs[0]!;
    const newPrice = new Decimal(target.leg.limit_price).minus(new Decimal(m.tick_size).mul(1000)).toFixed();
    const mod = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: target.order_id!, price: newPrice, size: target.leg.size }, { wait: true });
    expect(mod.outcome).toBe('applied');
    const res = await cancelAll(w.ctx, { wallet: t.wallet });
    expect(res.remaining).toEqual([]);
    expect(res.results.every((r) => r.confirmed)).toBe(true);
    await w.resetChaos();
    await w.advance(3_000);
    // Three orders and one replacement: four ids, each once.
    expect((await t.historyIds()).size).toBe(4);
    expect(await t.openOrders()).toEqual([]);
  });

  it('everything at once: errors, drops, latency and lag across place, modify and cancel-all', async () => {
    const t = await w.trader();
    await w.chaos({ error_rate: 0.15, drop_rate: 0.15, latency_ms: 5, persist_lag_ms: 1_000 });
    const placed: PlaceOrdersResult[] = [];
    for (let i = 0; i < 3; i++) placed.push(await placeOrders(w.ctx, { wallet: t.wallet, legs: await uniqueLegs(3) }, { wait: true }));
    const m = w.market(SYM);
    const target = placed[0]!.legs[0]!;
    const mod = await modifyOrder(w.ctx, { wallet: t.wallet, orderId: target.order_id!, price: new Decimal(target.leg.limit_price).minus(new Decimal(m.tick_size).mul(5000)).toFixed(), size: target.leg.size }, { wait: true });
    expect(['applied']).toContain(mod.outcome);
    const res = await cancelAll(w.ctx, { wallet: t.wallet });
    await w.resetChaos();
    expect(res.remaining).toEqual([]);
    await w.advance(2_000);
    expect(await t.openOrders()).toEqual([]);
    const rows = await t.history();
    expect(new Set(rows.map((r) => r.order_id)).size).toBe(9 + 1);
    // Every order ended cancelled (the modified one as 'modified'); none was placed twice.
    const finalById = new Map<string, string>();
    for (const r of [...rows].reverse()) finalById.set(r.order_id, r.status);
    expect([...finalById.values()].every((s) => s === 'cancelled')).toBe(true);
  });
});

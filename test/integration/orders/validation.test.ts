/**
 * Every order rule refuses BEFORE anything is signed or sent: the error is a ValidationError naming the
 * field, no POST reaches the simulator, and the account's order-history stays empty. Values come from the
 * simulator's live /markets (never hardcoded): ticks, decimals, minimums, ceilings, caps and leverage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import type { Market } from '../../../src/shared/protocol/index.js';
import { ValidationError } from '../../../src/main/services/errors.js';
import { placeOrders, prepareLegs, type LegInput } from '../../../src/main/services/orders/index.js';
import { TradingWorld, Trader, priceAt, sizeFor } from './tradingWorld.js';

let w: TradingWorld;
let t: Trader;
beforeAll(async () => {
  w = await TradingWorld.boot('orders-validation');
  t = await w.trader();
});
afterAll(async () => {
  await w?.stop();
});

/** Market records by role, found from the live config rather than by name. */
function active(filter: (m: Market) => boolean): Market {
  const m = w.markets.find((x) => x.is_active && filter(x));
  if (!m) throw new Error('no market fits');
  return m;
}

/** Places and expects a ValidationError naming `field`; proves nothing was sent and history is empty. */
async function refused(legs: LegInput[], field: RegExp, who: Trader = t): Promise<ValidationError> {
  const mark = w.requests.length;
  const historyBefore = (await w.ctx.api.orderHistory({ wallet: who.wallet, limit: 200 })).total;
  const err = await placeOrders(w.ctx, { wallet: who.wallet, legs }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  const v = err as ValidationError;
  expect(v.exitCode).toBe(2);
  expect(v.field ?? '').toMatch(field);
  const sent = w.since(mark).filter((r) => r.method === 'POST');
  expect(sent, 'nothing may be sent after a validation error').toEqual([]);
  expect((await w.ctx.api.orderHistory({ wallet: who.wallet, limit: 200 })).total).toBe(historyBefore);
  return v;
}

describe('order rules refuse before signing', () => {
  it('limit_price off the tick (even within px_decimals)', async () => {
    const m = active((x) => new Decimal(x.tick_size).decimalPlaces() < x.px_decimals);
    const mark = await w.mark(m.symbol);
    const onTick = new Decimal(priceAt(m, mark, 0.9));
    const offTick = canonical(onTick.plus(new Decimal(m.tick_size).div(2)));
    const v = await refused([{ market: m.symbol, side: 'BUY', size: sizeFor(m, onTick), order_type: 'LIMIT', limit_price: offTick }], /limit_price$/);
    expect(v.message).toMatch(/tick_size/);
  });

  it('size with more than sz_decimals places', async () => {
    const m = active(() => true);
    const mark = await w.mark(m.symbol);
    const price = priceAt(m, mark, 0.9);
    const tooFine = canonical(new Decimal(sizeFor(m, new Decimal(price))).plus(new Decimal(1).div(new Decimal(10).pow(m.sz_decimals + 1))));
    await refused([{ market: m.symbol, side: 'BUY', size: tooFine, order_type: 'LIMIT', limit_price: price }], /size$/);
  });

  it('trigger_price with more than px_decimals places', async () => {
    const m = active(() => true);
    const mark = await w.mark(m.symbol);
    const tp = canonical(new Decimal(priceAt(m, mark, 1.1)).plus(new Decimal(1).div(new Decimal(10).pow(m.px_decimals + 1))));
    await refused([{ market: m.symbol, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: tp, tpsl: 'TP' } }], /trigger_price$/);
  });

  it('min_order_value after rounding, with the reduce-only exemption', async () => {
    const m = active(() => true);
    const mark = await w.mark(m.symbol);
    const price = new Decimal(priceAt(m, mark, 0.9));
    const step = new Decimal(1).div(new Decimal(10).pow(m.sz_decimals));
    const small = canonical(Decimal.max(new Decimal(m.min_order_value).div(price).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_FLOOR).minus(step), step));
    const leg: LegInput = { market: m.symbol, side: 'BUY', size: small, order_type: 'LIMIT', limit_price: canonical(price) };
    await refused([leg], /size$/);
    // Reduce-only legs are exempt: the same leg passes every client-side rule.
    await expect(prepareLegs(w.ctx, { wallet: t.wallet, legs: [{ ...leg, reduce_only: true }] })).resolves.toBeDefined();

    // "After rounding": worth the minimum at the mark, but not at the SELL bound (mark minus a 20%
    // tolerance, rounded to the tick) that is the leg's limit_price.
    const bps = 2_000;
    const bound = mark.mul(new Decimal(1).minus(new Decimal(bps).div(10_000)));
    const atMark = new Decimal(m.min_order_value).div(mark).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_CEIL);
    expect(atMark.mul(mark).gte(m.min_order_value) && atMark.mul(bound).lt(m.min_order_value)).toBe(true);
    await refused([{ market: m.symbol, side: 'SELL', size: canonical(atMark), slippage_bps: bps }], /size$/);
  });

  it("max_notional, with '0' meaning no ceiling", async () => {
    const capped = active((x) => !new Decimal(x.max_notional).isZero());
    const cMark = await w.mark(capped.symbol);
    const cPrice = new Decimal(priceAt(capped, cMark, 0.9));
    const over = canonical(new Decimal(capped.max_notional).div(cPrice).mul('1.01').toDecimalPlaces(capped.sz_decimals, Decimal.ROUND_CEIL));
    const v = await refused([{ market: capped.symbol, side: 'BUY', size: over, order_type: 'LIMIT', limit_price: canonical(cPrice) }], /size$/);
    expect(v.message).toMatch(/max_notional/);

    const open = w.markets.find((x) => x.is_active && new Decimal(x.max_notional).isZero());
    if (open) {
      const oMark = await w.mark(open.symbol);
      const oPrice = new Decimal(priceAt(open, oMark, 0.9));
      // A huge order value is no client-side violation where the ceiling is the '0' sentinel. (This account
      // cannot pay for it: the free-balance check, a separate rule with its own tests, is set aside here.)
      const huge = canonical(new Decimal(capped.max_notional).mul(10).div(oPrice).toDecimalPlaces(open.sz_decimals, Decimal.ROUND_CEIL));
      await expect(prepareLegs(w.ctx, { wallet: t.wallet, legs: [{ market: open.symbol, side: 'BUY', size: huge, order_type: 'LIMIT', limit_price: canonical(oPrice) }] }, { checkBalance: false })).resolves.toBeDefined();
    }
  });

  it('MARKET must be IOC; ALO only on LIMIT; a trigger takes no time in force', async () => {
    const m = active(() => true);
    const mark = await w.mark(m.symbol);
    const size = sizeFor(m, mark);
    await refused([{ market: m.symbol, side: 'BUY', size, order_type: 'MARKET', time_in_force: 'GTC' }], /time_in_force$/);
    const v = await refused([{ market: m.symbol, side: 'BUY', size, order_type: 'MARKET', time_in_force: 'ALO' }], /time_in_force$/);
    expect(v.message).toMatch(/market_order_must_be_ioc/);
    await refused([{ market: m.symbol, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, time_in_force: 'ALO', trigger: { trigger_price: priceAt(m, mark, 1.1), tpsl: 'TP' } }], /time_in_force$/);
  });

  it('only market triggers (is_market true)', async () => {
    const m = active(() => true);
    const mark = await w.mark(m.symbol);
    await refused([{ market: m.symbol, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, mark, 1.1), tpsl: 'TP', is_market: false } }], /is_market$/);
  });

  it('a trigger already past the mark on its fire side', async () => {
    const m = active(() => true);
    const mark = await w.mark(m.symbol);
    // SELL SL fires as the mark falls: a trigger above the mark would fire at once.
    await refused([{ market: m.symbol, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, mark, 1.05), tpsl: 'SL' } }], /trigger_price$/);
    // BUY TP fires as the mark falls too.
    await refused([{ market: m.symbol, side: 'BUY', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, mark, 1.05), tpsl: 'TP' } }], /trigger_price$/);
    // At the mark exactly counts as past.
    await refused([{ market: m.symbol, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: canonical(mark), tpsl: 'TP' } }], /trigger_price$/);
  });

  it('inactive and unknown markets', async () => {
    const inactive = w.markets.find((x) => !x.is_active);
    expect(inactive, 'the default sim config lists an inactive market').toBeDefined();
    await refused([{ market: inactive!.symbol, side: 'BUY', size: '1', order_type: 'LIMIT', limit_price: inactive!.tick_size }], /market$/);
    await refused([{ market: 'NOPE', side: 'BUY', size: '1', order_type: 'LIMIT', limit_price: '1' }], /market$/);
  });

  it('leverage within 1..max_leverage', async () => {
    const m = active(() => true);
    const mark = await w.mark(m.symbol);
    const leg: LegInput = { market: m.symbol, side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.9) };
    await refused([{ ...leg, leverage: m.max_leverage + 1 }], /leverage$/);
    await refused([{ ...leg, leverage: 0 }], /leverage$/);
    await expect(prepareLegs(w.ctx, { wallet: t.wallet, legs: [{ ...leg, leverage: m.max_leverage }] })).resolves.toBeDefined();
  });

  it('values as JSON numbers are refused (they have been through a float)', async () => {
    const m = active(() => true);
    await refused([{ market: m.symbol, side: 'BUY', size: 0.1 as unknown as string, order_type: 'LIMIT', limit_price: '1' }], /size$/);
  });

  it('batch shape: 1..20 legs, unique client ids, parents inside the batch', async () => {
    const m = active((x) => x.max_open_orders >= 21);
    const mark = await w.mark(m.symbol);
    const leg = (i: number): LegInput => ({ market: m.symbol, side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.9), client_order_id: `c${i}` });
    await refused(Array.from({ length: 21 }, (_, i) => leg(i)), /^orders$/);
    await refused([leg(1), leg(1)], /client_order_id$/);
    await refused([leg(1), { ...leg(2), order_type: 'TRIGGER', limit_price: undefined, size: '0', reduce_only: true, side: 'SELL', trigger: { trigger_price: priceAt(m, mark, 1.1), tpsl: 'TP' }, parent_client_order_id: 'nobody' }], /parent_client_order_id$/);
  });

  it('bracket levels on the wrong side of the reference (limit price, or the mark for a MARKET entry)', async () => {
    const m = active(() => true);
    const mark = await w.mark(m.symbol);
    const entryPrice = priceAt(m, mark, 0.9);
    const entry: LegInput = { market: m.symbol, side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', limit_price: entryPrice, client_order_id: 'e' };
    const kid = (tpsl: 'TP' | 'SL', trigger: string): LegInput => ({ market: m.symbol, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: trigger, tpsl }, parent_client_order_id: 'e' });
    // A long's TP must be above the entry's limit price, even though it is below the mark.
    let v = await refused([entry, kid('TP', priceAt(m, new Decimal(entryPrice), 0.99))], /trigger_price$/);
    expect(v.message).toMatch(/bracket_tp_wrong_side/);
    // TP above the limit price but below the mark is fine for a LIMIT entry (the reference is the limit price).
    await expect(prepareLegs(w.ctx, { wallet: t.wallet, legs: [entry, kid('TP', priceAt(m, mark, 0.95))] })).resolves.toBeDefined();
    // A MARKET entry's reference is the mark: an SL above the mark is on the wrong side.
    v = await refused([{ market: m.symbol, side: 'BUY', size: sizeFor(m, mark), order_type: 'MARKET', client_order_id: 'e' }, kid('SL', priceAt(m, mark, 1.01))], /trigger_price$/);
    expect(v.message).toMatch(/bracket_sl_wrong_side/);
    // Two TPs on one entry.
    await refused([entry, kid('TP', priceAt(m, mark, 1.1)), kid('TP', priceAt(m, mark, 1.2))], /tpsl$/);
  });

  it('max_open_orders counts resting orders, armed triggers and pending bracket legs', async () => {
    const m = active((x) => x.max_open_orders <= 10);
    const u = await w.trader();
    const mark = await w.mark(m.symbol);
    const price = priceAt(m, mark, 0.8);
    const size = sizeFor(m, new Decimal(price));
    const resting = (i: number): LegInput => ({ market: m.symbol, side: 'BUY', size, order_type: 'LIMIT', limit_price: price, client_order_id: `r${i}` });
    // Fill the cap but for two slots, with resting orders.
    const first = await placeOrders(w.ctx, { wallet: u.wallet, legs: Array.from({ length: m.max_open_orders - 2 }, (_, i) => resting(i)) }, { wait: true });
    expect(first.success).toBe(true);
    // An entry with TP and SL brings three counting legs: one over the cap.
    const entry: LegInput = { ...resting(99), client_order_id: 'entry' };
    const kids: LegInput[] = [
      { market: m.symbol, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, new Decimal(price), 1.05), tpsl: 'TP' }, parent_client_order_id: 'entry' },
      { market: m.symbol, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, new Decimal(price), 0.95), tpsl: 'SL' }, parent_client_order_id: 'entry' },
    ];
    const v = await refused([entry, ...kids], /max_open_orders/, u);
    expect(v.message).toContain(String(m.max_open_orders));
    // MARKET and IOC legs never rest and do not count.
    await expect(prepareLegs(w.ctx, { wallet: u.wallet, legs: [{ ...resting(100), time_in_force: 'IOC' }] })).resolves.toBeDefined();
    // The entry with one leg fits exactly.
    const ok = await placeOrders(w.ctx, { wallet: u.wallet, legs: [entry, kids[0]!] }, { wait: true });
    expect(ok.success).toBe(true);
    expect(ok.legs.map((l) => l.final?.status)).toEqual(['ACCEPTED', 'PENDING_PARENT']);
    await refused([resting(200)], /max_open_orders/, u);
  });

  it('nothing at all was sent for the validation trader', async () => {
    expect((await w.ctx.api.orderHistory({ wallet: t.wallet, limit: 200 })).total).toBe(0);
  });
});

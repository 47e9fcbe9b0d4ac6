/**
 * Position management through the services against the simulator (real HTTP on loopback, trading keys in
 * the real keychain): TP/SL on a position (set, move with a Modify, remove with a Cancel; a wrong-side
 * level refused before anything is sent), partial closes by percentage and size, a limit close that rests
 * (and then fills when the mark reaches it), close-all over several markets, and the fat-finger guard on a
 * far limit price.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { ValidationError } from '../../../src/main/services/errors.js';
import { placeOrders, prepareOrder } from '../../../src/main/services/orders/index.js';
import {
  closePosition,
  prepareCloseAll,
  preparePositionTpsl,
  readPosition,
  submitCloseAll,
  submitPositionTpsl,
  waitForPosition,
} from '../../../src/main/services/positions/index.js';
import { TradingWorld, Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
beforeAll(async () => {
  w = await TradingWorld.boot('position-mgmt');
  for (const market of ['ETH', 'BTC']) await w.control('/funding-rate', { market, rate: '0' });
});
afterAll(async () => {
  await w?.stop();
});

async function open(t: Trader, sym: string, side: 'BUY' | 'SELL', multiple = 6): Promise<Decimal> {
  const m = w.market(sym);
  const mark = await w.mark(sym);
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: sym, side, size: sizeFor(m, mark, multiple), leverage: 5 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  const p = await waitForPosition(w.ctx, t.accountId, sym, (x) => x !== undefined && (side === 'BUY' ? new Decimal(x.size).isPos() : new Decimal(x.size).isNeg()), 'position');
  return new Decimal(p!.size);
}

async function armedLevels(t: Trader, sym: string): Promise<{ tp: string[]; sl: string[] }> {
  const rows = (await w.ctx.api.positionTriggers(t.wallet)).orders.filter((o) => o.market === sym && o.order_type === 'TRIGGER');
  return { tp: rows.filter((o) => o.tpsl === 'tp').map((o) => canonical(o.trigger_price!)), sl: rows.filter((o) => o.tpsl === 'sl').map((o) => canonical(o.trigger_price!)) };
}

describe('TP/SL on the position', () => {
  it('sets both levels, moves the stop, removes the take-profit: the armed triggers follow', async () => {
    const t = await w.trader();
    const sym = 'ETH';
    const m = w.market(sym);
    await open(t, sym, 'BUY');
    const mark = await w.mark(sym);
    const tp = priceAt(m, mark, 1.1);
    const sl = priceAt(m, mark, 0.9);

    const set = await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: sym, tp, sl });
    expect(set.view.changes.map((c) => c.action)).toEqual(['set', 'set']);
    const applied = await submitPositionTpsl(w.ctx, set, await w.ctx.tradingSigner(t.wallet));
    expect(applied.ok).toBe(true);
    expect(applied.changes.map((c) => [c.kind, c.status])).toEqual([
      ['tp', 'done'],
      ['sl', 'done'],
    ]);
    expect(await armedLevels(t, sym)).toEqual({ tp: [tp], sl: [sl] });
    // Whole-position reduce-only triggers: closeable reads 0 while they are armed (rule 3).
    expect((await readPosition(w.ctx, t.accountId, sym))!.closeable).toBe('0');

    const sl2 = priceAt(m, mark, 0.95);
    const move = await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: sym, tp: null, sl: sl2 });
    expect(move.requests.map((r) => r.typedData.primaryType)).toEqual(['Cancel', 'Modify']);
    expect(move.view.summary[1]).toMatch(/^Move the stop-loss from .+ to .+$/);
    const oldSl = move.view.before.sl!.order_id;
    const moved = await submitPositionTpsl(w.ctx, move, await w.ctx.tradingSigner(t.wallet));
    expect(moved.ok, JSON.stringify(moved.changes)).toBe(true);
    const slChange = moved.changes.find((c) => c.kind === 'sl')!;
    expect(slChange).toMatchObject({ action: 'move', order_id: oldSl, status: 'done' });
    expect(slChange.new_order_id).not.toBe(oldSl);
    expect(await armedLevels(t, sym)).toEqual({ tp: [], sl: [sl2] });
  });

  it('refuses a wrong-side level against the mark before anything is sent; a short reads the other way', async () => {
    const t = await w.trader();
    const sym = 'BTC';
    const m = w.market(sym);
    await open(t, sym, 'SELL');
    const mark = await w.mark(sym);
    const from = w.requests.length;
    const issued = await t.historyIds();
    for (const input of [{ tp: priceAt(m, mark, 1.05) }, { sl: priceAt(m, mark, 0.95) }, { tp: canonical(mark) }]) {
      const err = await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: sym, ...input }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).code).toBe('TPSL_WRONG_SIDE');
    }
    expect(w.since(from).filter((x) => x.method === 'POST')).toEqual([]);
    expect(await t.historyIds()).toEqual(issued);
    // The right sides for a short: TP below, SL above; the triggers buy.
    const p = await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: sym, tp: priceAt(m, mark, 0.9), sl: priceAt(m, mark, 1.1) });
    expect(p.place!.legs.map((l) => l.side)).toEqual(['BUY', 'BUY']);
    expect((await submitPositionTpsl(w.ctx, p, await w.ctx.tradingSigner(t.wallet))).ok).toBe(true);
  });
});

describe('partial and limit close', () => {
  it('a percentage closes that part at market, its triggers cancelled first; the rest stays open', async () => {
    const t = await w.trader();
    const sym = 'ETH';
    const m = w.market(sym);
    const size = await open(t, sym, 'BUY', 8);
    const mark = await w.mark(sym);
    const armed = await submitPositionTpsl(w.ctx, await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: sym, sl: priceAt(m, mark, 0.9) }), await w.ctx.tradingSigner(t.wallet));
    const r = await closePosition(w.ctx, { wallet: t.wallet, market: sym, percent: '50' });
    const expected = size.div(2).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_DOWN);
    expect(r.cancelled_triggers.map((c) => c.order_id)).toEqual([armed.changes[0]!.new_order_id]);
    expect(r.order.leg).toMatchObject({ side: 'SELL', order_type: 'MARKET', reduce_only: true, size: canonical(expected) });
    expect(r.order.final?.status).toBe('FILLED');
    expect(r.closed).toBe(false);
    expect(new Decimal(r.position_after!.size).eq(size.minus(expected))).toBe(true);

    // Then a size: exactly that much.
    const left = new Decimal(r.position_after!.size);
    const some = await closePosition(w.ctx, { wallet: t.wallet, market: sym, size: canonical(left.div(4).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_DOWN)) });
    expect(new Decimal(some.position_after!.size).eq(left.minus(some.order.leg.size))).toBe(true);
  });

  it('a limit close rests (reduce-only LIMIT GTC) and the submit ends once it rests; it fills when the mark gets there', async () => {
    const t = await w.trader();
    const sym = 'BTC';
    const m = w.market(sym);
    const size = await open(t, sym, 'BUY');
    const mark = await w.mark(sym);
    const price = priceAt(m, mark, 1.02);
    const r = await closePosition(w.ctx, { wallet: t.wallet, market: sym, price });
    expect(r).toMatchObject({ resting: true, closed: false });
    expect(r.order.leg).toMatchObject({ order_type: 'LIMIT', time_in_force: 'GTC', reduce_only: true, side: 'SELL', limit_price: price, size: canonical(size) });
    expect(r.order.final?.status).toBe('ACCEPTED');
    const open1 = await t.openOrders(sym);
    expect(open1.map((o) => [o.order_id, o.order_type, o.reduce_only])).toEqual([[r.order.order_id, 'LIMIT', true]]);
    // Resting reduce-only orders reserve what they will close.
    expect((await readPosition(w.ctx, t.accountId, sym))!.closeable).toBe('0');
    await w.setMark(sym, priceAt(m, mark, 1.03));
    await waitForPosition(w.ctx, t.accountId, sym, (p) => p === undefined, 'the limit close to fill');
  });

  it('a limit close far past the mark is refused without the allowance, nothing sent', async () => {
    const t = await w.trader();
    const sym = 'ETH';
    const m = w.market(sym);
    await open(t, sym, 'BUY');
    const mark = await w.mark(sym);
    const from = w.requests.length;
    const err = await closePosition(w.ctx, { wallet: t.wallet, market: sym, price: priceAt(m, mark, 0.5) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'FAR_PRICE', kind: 'validation' });
    expect(w.since(from).filter((x) => x.method === 'POST')).toEqual([]);
  });
});

describe('close all', () => {
  it('closes every open position, each after cancelling its triggers', async () => {
    const t = await w.trader();
    await open(t, 'ETH', 'BUY');
    await open(t, 'BTC', 'SELL');
    const eth = w.market('ETH');
    const ethMark = await w.mark('ETH');
    await submitPositionTpsl(w.ctx, await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: 'ETH', tp: priceAt(eth, ethMark, 1.2) }), await w.ctx.tradingSigner(t.wallet));
    const prepared = await prepareCloseAll(w.ctx, { wallet: t.wallet });
    expect(prepared.closes.map((c) => c.market).sort()).toEqual(['BTC', 'ETH']);
    expect(prepared.requests.map((r) => r.typedData.primaryType).sort()).toEqual(['Cancel', 'Order', 'Order']);
    const r = await submitCloseAll(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet));
    expect(r.results.map((x) => [x.market, x.outcome]).sort()).toEqual([
      ['BTC', 'closed'],
      ['ETH', 'closed'],
    ]);
    expect(r.results.find((x) => x.market === 'ETH')!.result!.cancelled_triggers).toHaveLength(1);
    expect((await w.ctx.api.positions(t.accountId)).positions).toEqual([]);
  });
});

describe('the fat-finger guard against the simulator', () => {
  it('a limit buy at 10^30 against a short is refused (it used to be signed and fill at market)', async () => {
    const t = await w.trader();
    // BTC has no max_notional ceiling ('0'), so nothing but the guard stands between the price and a fill.
    const sym = 'BTC';
    expect(w.market(sym).max_notional).toBe('0');
    const size = await open(t, sym, 'SELL');
    const from = w.requests.length;
    const err = await prepareOrder(w.ctx, { wallet: t.wallet, intent: { kind: 'single', market: sym, side: 'BUY', order_type: 'LIMIT', size: canonical(size.abs()), limit_price: '1' + '0'.repeat(30), reduce_only: true } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'FAR_PRICE' });
    expect(w.since(from).filter((x) => x.method === 'POST')).toEqual([]);
    expect((await readPosition(w.ctx, t.accountId, sym))!.size).toBe(canonical(size));
  });
});

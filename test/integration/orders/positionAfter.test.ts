/**
 * The review's position_after against the simulator over real HTTP: each order is prepared (the review
 * says which position it would leave), submitted exactly as prepared, and filled at its limit price by
 * moving the venue mark onto it through the control API; /positions must then show exactly the size,
 * entry and isolated margin the review predicted (rounding included), and the review's liquidation
 * estimate is that position's. Open, add at another price and leverage, reduce, flip, and close to flat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import type { OrderReview } from '../../../src/shared/orders/review.js';
import { liquidationPrice, type Position } from '../../../src/shared/protocol/index.js';
import { prepareOrder, submitOrder } from '../../../src/main/services/orders/index.js';
import { readPosition, waitForPosition } from '../../../src/main/services/positions/index.js';
import { TradingWorld, priceAt, sizeFor, type Trader } from './tradingWorld.js';

let w: TradingWorld;
const SYM = 'ETH';

beforeAll(async () => {
  w = await TradingWorld.boot('position-after');
  // Hourly funding is paid into isolated margin: a zero rate keeps it exactly what the orders made it.
  await w.control('/funding-rate', { market: SYM, rate: '0' });
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

type PositionAfter = OrderReview['position_after'];
type Intent = { side: 'BUY' | 'SELL'; size: string; price: string; leverage?: number; reduce_only?: boolean };

/** Prepares a resting limit, submits it, fills it by moving the mark onto its price, and returns the review and the position after. */
async function fillAtLimit(t: Trader, o: Intent): Promise<{ predicted: PositionAfter; actual: Position | undefined }> {
  const before = await readPosition(w.ctx, t.accountId, SYM);
  const prepared = await prepareOrder(w.ctx, {
    wallet: t.wallet,
    intent: { kind: 'single', market: SYM, side: o.side, order_type: 'LIMIT', size: o.size, limit_price: o.price, ...(o.leverage ? { leverage: o.leverage } : {}), ...(o.reduce_only ? { reduce_only: true } : {}) },
  });
  const predicted = prepared.view.position_after;
  const placed = await submitOrder(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet), { wait: true });
  expect(placed.legs[0]!.final?.status).toBe('ACCEPTED');
  await w.setMark(SYM, o.price);
  await waitForPosition(w.ctx, t.accountId, SYM, (p) => (p?.version ?? 0) !== (before?.version ?? 0) || (p === undefined) !== (before === undefined), 'the fill to show on /positions');
  return { predicted, actual: await readPosition(w.ctx, t.accountId, SYM) };
}

function expectSame(predicted: PositionAfter, actual: Position | undefined): void {
  if (predicted === null) {
    expect(actual).toBeUndefined();
    return;
  }
  expect(actual).toBeDefined();
  expect({ size: actual!.size, entry_price: actual!.entry_price, isolated_margin: actual!.isolated_margin }).toEqual({
    size: predicted.size,
    entry_price: predicted.entry_price,
    isolated_margin: predicted.isolated_margin,
  });
  const liq = liquidationPrice(actual!, w.market(SYM).maintenance_margin_ratio);
  expect(predicted.liquidation_price).toBe(liq ? canonical(liq) : null);
}

describe("the review's position_after is the position the simulator books", () => {
  it('open, add at another price and leverage, reduce, flip, close to flat', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);

    // Open a long resting below the mark, at 7x.
    const p1 = priceAt(m, mark, 0.97);
    const s1 = sizeFor(m, new Decimal(p1), 40);
    const open = await fillAtLimit(t, { side: 'BUY', size: s1, price: p1, leverage: 7 });
    expect(open.predicted).toMatchObject({ size: s1, entry_price: p1 });
    expectSame(open.predicted, open.actual);

    // Add lower, at 3x: a size-weighted entry (8 places) and more margin (rounded up to 6).
    const p2 = priceAt(m, new Decimal(p1), 0.985);
    const s2 = sizeFor(m, new Decimal(p2), 23);
    const added = await fillAtLimit(t, { side: 'BUY', size: s2, price: p2, leverage: 3 });
    expect(new Decimal(added.predicted!.size).eq(new Decimal(s1).plus(s2))).toBe(true);
    expectSame(added.predicted, added.actual);

    // Reduce with a reduce-only sell above: margin released pro rata, entry unchanged.
    const p3 = priceAt(m, new Decimal(p2), 1.01);
    const s3 = canonical(new Decimal(added.actual!.size).div(3).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_DOWN));
    const reduced = await fillAtLimit(t, { side: 'SELL', size: s3, price: p3, reduce_only: true });
    expect(reduced.predicted!.entry_price).toBe(added.actual!.entry_price);
    expectSame(reduced.predicted, reduced.actual);

    // Flip: a sell larger than the long closes it and opens a short at 5x.
    const p4 = priceAt(m, new Decimal(p3), 1.004);
    const s4 = canonical(new Decimal(reduced.actual!.size).plus(sizeFor(m, new Decimal(p4), 15)));
    const flipped = await fillAtLimit(t, { side: 'SELL', size: s4, price: p4, leverage: 5 });
    expect(new Decimal(flipped.predicted!.size).isNeg()).toBe(true);
    expectSame(flipped.predicted, flipped.actual);

    // Close to flat with a reduce-only buy below: the review says no position is left.
    const p5 = priceAt(m, new Decimal(p4), 0.995);
    const closed = await fillAtLimit(t, { side: 'BUY', size: canonical(new Decimal(flipped.actual!.size).abs()), price: p5, reduce_only: true });
    expect(closed.predicted).toBeNull();
    expectSame(closed.predicted, closed.actual);
  });
});

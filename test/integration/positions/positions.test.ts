/**
 * Positions through the services against the simulator: close exactly as lifecycle rule 4 (cancel the
 * armed triggers, wait until position-triggers is clear, one reduce-only MARKET leg sized from
 * closeable), reverse (rule 5), waiting for /positions to reflect fills, and isolated margin followed to
 * APPLIED or REJECTED with the service's reasons.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { ValidationError } from '../../../src/main/services/errors.js';
import { placeOrders, prepareLegs } from '../../../src/main/services/orders/index.js';
import { adjustMargin, closePosition, readPosition, reversePosition, waitForPosition, waitForPositionChange } from '../../../src/main/services/positions/index.js';
import { TradingWorld, Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
const SYM = 'ETH';
beforeAll(async () => {
  w = await TradingWorld.boot('positions');
  // Margin assertions compare isolated_margin before and after; hourly funding is paid into it and the
  // sim clock starts from the wall clock, so a zero rate keeps an hour boundary out of the comparison.
  await w.control('/funding-rate', { market: SYM, rate: '0' });
});
afterAll(async () => {
  await w?.stop();
});

async function open(t: Trader, side: 'BUY' | 'SELL', multiple = 3): Promise<void> {
  const m = w.market(SYM);
  const mark = await w.mark(SYM);
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side, size: sizeFor(m, mark, multiple), leverage: 5 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined && (side === 'BUY' ? new Decimal(p.size).isPos() : new Decimal(p.size).isNeg()), 'position');
}

describe('positions', () => {
  it('/positions lags a fill; waiting shows the position once it catches up', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark, 3), leverage: 5 }] });
    expect(r.legs[0]!.status).toBe('SUBMITTED');
    // Queued, not filled (lifecycle rule 1): no position yet.
    expect(await readPosition(w.ctx, t.accountId, SYM)).toBeUndefined();
    const p = await waitForPositionChange(w.ctx, t.accountId, SYM, undefined);
    expect(new Decimal(p!.size).eq(r.legs[0]!.leg.size)).toBe(true);
  });

  it('close: cancels the armed triggers first, then one reduce-only MARKET leg for the closeable size', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    await open(t, 'BUY');
    const mark = await w.mark(SYM);
    const triggers = await placeOrders(
      w.ctx,
      {
        wallet: t.wallet,
        legs: [
          { market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, mark, 1.1), tpsl: 'TP' } },
          { market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, mark, 0.9), tpsl: 'SL' } },
        ],
      },
      { wait: true },
    );
    expect(triggers.legs.every((l) => l.final?.armed)).toBe(true);
    // A bracket leg awaiting its entry does not block a close and is left alone.
    const entryPrice = new Decimal(priceAt(m, mark, 0.8));
    const pending = await placeOrders(
      w.ctx,
      {
        wallet: t.wallet,
        legs: [
          { market: SYM, side: 'BUY', size: sizeFor(m, entryPrice), order_type: 'LIMIT', limit_price: entryPrice.toFixed(), client_order_id: 'e' },
          { market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, entryPrice, 0.95), tpsl: 'SL' }, parent_client_order_id: 'e' },
        ],
      },
      { wait: true },
    );
    expect(pending.legs[1]!.final?.status).toBe('PENDING_PARENT');

    // A plain reduce-only order now would meet close_trigger_coexistence: refused before sending.
    const before = await readPosition(w.ctx, t.accountId, SYM);
    const refused = await prepareLegs(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'SELL', size: before!.size, reduce_only: true }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).message).toMatch(/close_trigger_coexistence/);

    const r = await closePosition(w.ctx, { wallet: t.wallet, market: SYM });
    expect(r.cancelled_triggers.map((c) => c.order_id).sort()).toEqual(triggers.legs.map((l) => l.order_id).sort());
    expect(r.order.leg).toMatchObject({ side: 'SELL', order_type: 'MARKET', time_in_force: 'IOC', reduce_only: true });
    expect(new Decimal(r.order.leg.size).eq(new Decimal(before!.size).abs())).toBe(true);
    expect(r.order.final?.status).toBe('FILLED');
    expect(r).toMatchObject({ closed: true, position_after: null });
    expect(await t.openOrders(SYM).then((o) => o.map((x) => x.order_id).sort())).toEqual(pending.legs.map((l) => l.order_id).sort());

    // Order of events in history: both triggers cancelled before the closing order was accepted.
    const rows = await t.history();
    const cancelledAt = Math.max(...rows.filter((x) => triggers.legs.some((l) => l.order_id === x.order_id) && x.status === 'cancelled').map((x) => x.status_at));
    const closeSubmitted = rows.find((x) => x.order_id === r.order.order_id)!.submitted_at;
    expect(closeSubmitted).toBeGreaterThanOrEqual(cancelledAt);
  });

  it('close a short; closing without a position is refused before anything is sent', async () => {
    const t = await w.trader();
    await open(t, 'SELL');
    const r = await closePosition(w.ctx, { wallet: t.wallet, market: SYM });
    expect(r.order.leg.side).toBe('BUY');
    expect(r.closed).toBe(true);
    const from = w.requests.length;
    const err = await closePosition(w.ctx, { wallet: t.wallet, market: SYM }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).code).toBe('NO_OPEN_POSITION');
    expect(w.since(from).filter((x) => x.method === 'POST')).toEqual([]);
  });

  it('reverse: exit, wait for flat, then the same size the other way', async () => {
    const t = await w.trader();
    await open(t, 'BUY');
    const long = await readPosition(w.ctx, t.accountId, SYM);
    const r = await reversePosition(w.ctx, { wallet: t.wallet, market: SYM, leverage: 5 });
    expect(r.close.closed).toBe(true);
    expect(r.entry.legs[0]!.leg.side).toBe('SELL');
    expect(new Decimal(r.position_after.size).eq(new Decimal(long!.size).neg())).toBe(true);
    // Two separate market orders: no atomic flip.
    expect(r.close.order.order_id).not.toBe(r.entry.legs[0]!.order_id);
  });
});

describe('isolated margin', () => {
  it('adds margin and follows the request to APPLIED (404 while pending is normal)', async () => {
    const t = await w.trader();
    await open(t, 'BUY');
    const before = (await readPosition(w.ctx, t.accountId, SYM))!;
    const from = w.requests.length;
    const r = await adjustMargin(w.ctx, { wallet: t.wallet, market: SYM, amount: '25.50' }, { wait: true });
    expect(r).toMatchObject({ status: 'APPLIED', amount: '25.5', reason: null });
    expect(w.since(from).some((x) => x.path.startsWith('/positions/margin/') && x.status === 404)).toBe(true);
    const after = await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined && p.version > before.version, 'margin to show');
    expect(new Decimal(after!.isolated_margin).minus(before.isolated_margin).eq('25.5')).toBe(true);
    const removed = await adjustMargin(w.ctx, { wallet: t.wallet, market: SYM, amount: '-10' }, { wait: true });
    expect(removed.status).toBe('APPLIED');
  });

  it('REJECTED with the reason surfaced: removing too much, no position, a declined transfer', async () => {
    const t = await w.trader();
    await open(t, 'BUY');
    const pos = (await readPosition(w.ctx, t.accountId, SYM))!;
    const tooMuch = await adjustMargin(w.ctx, { wallet: t.wallet, market: SYM, amount: '-' + pos.isolated_margin }, { wait: true });
    expect(tooMuch).toMatchObject({ status: 'REJECTED', reason: 'EXCEEDS_MAX_REMOVABLE' });
    expect(tooMuch.explanation).toMatch(/margin/);

    const none = await adjustMargin(w.ctx, { wallet: t.wallet, market: 'BTC', amount: '5' }, { wait: true });
    expect(none).toMatchObject({ status: 'REJECTED', reason: 'NO_OPEN_POSITION' });

    await w.control('/margin-outcome', { next: true, outcome: 'TRANSFER_DECLINED' });
    const declined = await adjustMargin(w.ctx, { wallet: t.wallet, market: SYM, amount: '5' }, { wait: true });
    expect(declined).toMatchObject({ status: 'REJECTED', reason: 'TRANSFER_DECLINED' });
  });

  it('refuses a zero, unsigned-junk or unknown-market amount before signing', async () => {
    const t = await w.trader(null);
    const from = w.requests.length;
    for (const [market, amount, field] of [
      [SYM, '0', /amount/],
      [SYM, '1e3', /amount/],
      [SYM, '+5', /amount/],
      ['NOPE', '5', /market/],
    ] as const) {
      const err = await adjustMargin(w.ctx, { wallet: t.wallet, market, amount }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).message).toMatch(field);
    }
    expect(w.since(from).filter((x) => x.method === 'POST')).toEqual([]);
  });
});

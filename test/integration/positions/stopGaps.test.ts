/**
 * Stops that stop (issue 35, item 1), on the simulator: a stop-loss fires with the stop tolerance
 * (default 10%), not the market's slippage_bps, so a mark that gaps 1% or 3% through the level still
 * closes the position; a 30% gap is more than the tolerance, the service cancels the fired stop
 * unfilled (no_liquidity_within_limit), and readProtection reports it failed from the order history.
 * A take-profit keeps the market's slippage; a per-market tolerance and an order's own --slippage-bps win.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { placeOrders, prepareOrder } from '../../../src/main/services/orders/index.js';
import { preparePositionTpsl, readPosition, readProtection, submitPositionTpsl, waitForPosition } from '../../../src/main/services/positions/index.js';
import { updatePreferences } from '../../../src/main/services/settings/preferences.js';
import { slippageBoundOf } from '../../../src/shared/orders/slippageBound.js';
import { TradingWorld, Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
const SYM = 'ETH';
let start: Decimal;
beforeAll(async () => {
  w = await TradingWorld.boot('stop-gaps');
  await w.control('/funding-rate', { market: SYM, rate: '0' });
  start = await w.mark(SYM);
});
afterAll(async () => {
  await w?.stop();
});

async function openLong(t: Trader): Promise<void> {
  await w.setMark(SYM, start.toFixed());
  const m = w.market(SYM);
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, start, 6), leverage: 2 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined, 'position');
}

async function armStop(t: Trader, level: string): Promise<string> {
  const prepared = await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: SYM, sl: level });
  const applied = await submitPositionTpsl(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet));
  expect(applied.ok).toBe(true);
  return prepared.view.changes[0]!.fire_price!;
}

/** Gaps the mark `pct` percent through `level` and lets the fired stop run its course on the sim clock. */
async function gap(level: string, pct: number): Promise<void> {
  const m = w.market(SYM);
  await w.setMark(SYM, priceAt(m, new Decimal(level), 1 - pct / 100));
  await w.advance(5_000);
}

describe('a stop-loss gapped through', () => {
  for (const pct of [1, 3]) {
    it(`${pct}% through its level: it fires within the 10% tolerance and the long is closed`, async () => {
      const t = await w.trader();
      const m = w.market(SYM);
      await openLong(t);
      const level = priceAt(m, start, 0.98);
      const fire = await armStop(t, level);
      // The worst fill price is the level less 10%, not less the market's slippage_bps.
      const expected = slippageBoundOf('SELL', new Decimal(level), 1000, m.tick_size);
      expect(expected.ok && expected.bound.toFixed()).toBe(fire);
      const before = await readProtection(w.ctx, t.wallet);
      expect(before.byMarket.get(SYM)!.sl).toMatchObject({ state: 'armed', armed: { limit_price: fire } });
      await gap(level, pct);
      await waitForPosition(w.ctx, t.accountId, SYM, (p) => p === undefined, 'the stop to close the long');
      const rows = (await w.ctx.api.orderHistory({ wallet: t.wallet })).orders;
      expect(rows.some((r) => r.order_type === 'TRIGGER' && r.tpsl === 'sl' && r.status === 'filled')).toBe(true);
    });
  }

  it('30% through its level: more than the tolerance, the service cancels it unfilled and the desk reports it failed', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    await openLong(t);
    const level = priceAt(m, start, 0.98);
    await armStop(t, level);
    await gap(level, 30);
    const rows = (await w.ctx.api.orderHistory({ wallet: t.wallet })).orders.filter((r) => r.tpsl === 'sl');
    expect(rows.find((r) => r.status === 'cancelled')?.reason).toBe('no_liquidity_within_limit');
    expect(await readPosition(w.ctx, t.accountId, SYM)).toBeDefined();
    const p = (await readProtection(w.ctx, t.wallet)).byMarket.get(SYM)!;
    expect(p.sl).toMatchObject({ state: 'failed', failure: { reason_code: 'no_liquidity_within_limit', reason: 'no liquidity within 10%', trigger_price: level } });
    expect(p.tp.state).toBe('none');
  });
});

describe('which tolerance a trigger fires with', () => {
  it('TP keeps the market slippage; a per-market stop tolerance and an order\'s own slippage_bps win', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    await openLong(t);
    const tp = priceAt(m, start, 1.05);
    const sl = priceAt(m, start, 0.95);
    const both = await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: SYM, tp, sl });
    const fire = Object.fromEntries(both.view.changes.map((c) => [c.kind, c.fire_price]));
    const bound = (side: 'BUY' | 'SELL', level: string, bps: number) => {
      const r = slippageBoundOf(side, new Decimal(level), bps, m.tick_size);
      return r.ok ? r.bound.toFixed() : null;
    };
    expect(fire.tp).toBe(bound('SELL', tp, m.slippage_bps));
    expect(fire.sl).toBe(bound('SELL', sl, 1000));

    updatePreferences(w.ctx.settings, { stop_tolerance_by_market: { [SYM]: 250 } });
    try {
      const own = await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: SYM, sl });
      expect(own.view.changes[0]!.fire_price).toBe(bound('SELL', sl, 250));
      const one = await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: SYM, sl, slippageBps: 80 });
      expect(one.view.changes[0]!.fire_price).toBe(bound('SELL', sl, 80));
      // A bracket entry's stop leg, and a plain SL trigger, take the same tolerance.
      const bracket = await prepareOrder(w.ctx, { wallet: t.wallet, intent: { kind: 'bracket', market: SYM, side: 'BUY', size: sizeFor(m, start, 2), order_type: 'MARKET', leverage: 2, tp: { trigger_price: tp }, sl: { trigger_price: sl } } });
      const legs = Object.fromEntries(bracket.legs.map((l) => [l.trigger?.tpsl ?? 'entry', l.limit_price]));
      expect(legs.SL).toBe(bound('SELL', sl, 250));
      expect(legs.TP).toBe(bound('SELL', tp, m.slippage_bps));
    } finally {
      updatePreferences(w.ctx.settings, { stop_tolerance_by_market: {} });
    }
  });
});

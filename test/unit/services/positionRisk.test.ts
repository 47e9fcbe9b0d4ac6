/**
 * The risk reads of the services with an in-memory service (no simulator): a position view's liquidation
 * estimate and distance, which armed triggers are its TP and SL (whole-position only, newest first, never
 * a leg awaiting its entry), the closeable note; the account's health figures and when the venue is asked
 * for marks; and the review's position_after for each kind of leg (MARKET at the mark, LIMIT at its price,
 * a standalone trigger at its fire price, attached TP/SL left out, several legs in order).
 */
import { describe, expect, it } from 'vitest';
import { prepareLegs, prepareOrder } from '../../../src/main/services/orders/index.js';
import { readAccountHealth } from '../../../src/main/services/reads/accountHealth.js';
import { positionRiskView, readPositionViews } from '../../../src/main/services/reads/positionRisk.js';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { liquidationPrice } from '../../../src/shared/protocol/index.js';
import { BTC, ETH, MAIN, listed, position, tradingWorld } from './tradingFakes.js';

describe('position views', () => {
  const long = position({ market: 'BTC', size: '0.1', entry_price: '60000', isolated_margin: '600', closeable: '0' });

  it('estimate, distance, PnL at the mark; the whole-position TP and SL; the closeable note', () => {
    const tp = listed({ order_id: 't1', market: 'BTC', tpsl: 'tp', trigger_price: '70000', limit_price: '69650', submitted_at: 5 });
    const olderTp = listed({ order_id: 't0', market: 'BTC', tpsl: 'tp', trigger_price: '68000', submitted_at: 1 });
    const sl = listed({ order_id: 's1', market: 'BTC', tpsl: 'sl', trigger_price: '55000', limit_price: '54725' });
    // A partial (sized) trigger is not the position's TP; nor is another market's.
    const partial = listed({ order_id: 'x', market: 'BTC', tpsl: 'tp', size: '0.05', trigger_price: '65000' });
    const other = listed({ order_id: 'y', market: 'ETH', tpsl: 'sl', trigger_price: '2000' });
    const v = positionRiskView(long, { mark: '61000', market: BTC, triggers: [olderTp, partial, tp, sl, other] });
    const liq = liquidationPrice(long, BTC.maintenance_margin_ratio)!;
    expect(v).toMatchObject({
      side: 'LONG',
      mark: '61000',
      unrealized_pnl: '100',
      notional: '6100',
      return_on_margin: '0.16666667',
      liquidation_price: liq.toFixed(),
      liquidation_distance: new Decimal('61000').minus(liq).div('61000').toDecimalPlaces(8).toFixed(),
      tp: { order_id: 't1', trigger_price: '70000', limit_price: '69650' },
      sl: { order_id: 's1', trigger_price: '55000', limit_price: '54725' },
      closeable_note: 'Close cancels the armed TP/SL first',
    });
  });

  it('without a mark: no PnL and no distance, the estimate still; without the market: no estimate; no triggers: no note', () => {
    const v = positionRiskView(long, { market: BTC });
    expect(v).toMatchObject({ mark: null, unrealized_pnl: null, liquidation_distance: null, tp: null, sl: null, closeable_note: null });
    expect(v.liquidation_price).not.toBeNull();
    expect(positionRiskView(long, { mark: '61000' }).liquidation_price).toBeNull();
    // closeable 0 because resting reduce-only orders reserve it, not triggers: no note.
    expect(positionRiskView(long, { mark: '61000', market: BTC, triggers: [listed({ order_id: 'e', market: 'ETH' })] }).closeable_note).toBeNull();
  });

  it('reads positions, triggers, markets and marks together; no venue read without positions', async () => {
    const empty = tradingWorld();
    expect((await readPositionViews(empty.ctx, MAIN)).positions).toEqual([]);
    expect(empty.calls).not.toContain('venue');
    const w = tradingWorld({ positions: [position({ market: 'ETH', size: '-2', entry_price: '3000', isolated_margin: '1200' })], marks: { ETH: '3100' } });
    const [eth] = (await readPositionViews(w.ctx, MAIN)).positions;
    expect(eth).toMatchObject({ side: 'SHORT', mark: '3100', unrealized_pnl: '-200' });
    expect(eth!.liquidation_price).toBe(liquidationPrice({ size: '-2', entry_price: '3000', isolated_margin: '1200' }, ETH.maintenance_margin_ratio)!.toFixed());
  });
});

describe('account health', () => {
  it('computed from the balance, positions, ratios and marks; says it is computed', async () => {
    const w = tradingWorld({
      freeBalance: '1000',
      positions: [position({ market: 'BTC', size: '0.1', entry_price: '60000', isolated_margin: '600' }), position({ market: 'ETH', size: '-2', entry_price: '3000', isolated_margin: '1200' })],
      marks: { BTC: '61000', ETH: '3100' },
    });
    const h = await readAccountHealth(w.ctx, MAIN);
    // uPnL 100 - 200; equity 1000 + 1800 - 100; maintenance 6100 x 0.025 + 6200 x 0.025.
    expect(h).toMatchObject({ free_balance: '1000', posted_margin: '1800', unrealized_pnl: '-100', equity: '2700', open_notional: '12300', maintenance_margin: '307.5', withdrawable: '1000', computed: true });
    expect(h.margin_ratio).toBe(new Decimal('307.5').div(2700).toDecimalPlaces(8).toFixed());
    expect(h.account_leverage).toBe(new Decimal('12300').div(2700).toDecimalPlaces(8).toFixed());
    expect(h.note).toMatch(/no equity endpoint/);
  });

  it('uses the marks it is given and asks the venue only for the others', async () => {
    const w = tradingWorld({ positions: [position({ market: 'BTC', size: '0.1' })], marks: { BTC: '61000' } });
    const h = await readAccountHealth(w.ctx, MAIN, { marks: (m) => (m === 'BTC' ? '62000' : undefined) });
    expect(w.calls).not.toContain('venue');
    expect(h.unrealized_pnl).toBe('200');
    await readAccountHealth(w.ctx, MAIN, { marks: () => undefined });
    expect(w.calls).toContain('venue');
  });
});

describe("the review's position_after", () => {
  it('a MARKET entry at the mark with its leverage; attached TP/SL left out', async () => {
    const w = tradingWorld({ marks: { BTC: '60000' } });
    const p = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'bracket', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.1', leverage: 10, tp: { trigger_price: '65000' }, sl: { trigger_price: '55000' } } });
    expect(p.view.position_after).toEqual({ size: '0.1', entry_price: '60000', isolated_margin: '600', liquidation_price: liquidationPrice({ size: '0.1', entry_price: '60000', isolated_margin: '600' }, BTC.maintenance_margin_ratio)!.toFixed() });
  });

  it('a LIMIT adds to the open position at its price; a standalone whole-position trigger closes it', async () => {
    const w = tradingWorld({ positions: [position({ market: 'ETH', size: '1', entry_price: '3000', isolated_margin: '600' })] });
    const add = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'LIMIT', size: '1', limit_price: '2900', leverage: 2 } });
    // Margin: 2900 x max(1/2, ETH's IMR 0.2) = 1450; entry (3000 + 2900) / 2.
    expect(add.view.position_after).toMatchObject({ size: '2', entry_price: '2950', isolated_margin: '2050' });
    const sl = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'ETH', side: 'SELL', order_type: 'TRIGGER', size: '0', reduce_only: true, trigger: { trigger_price: '2500', tpsl: 'SL' } } });
    expect(sl.view.position_after).toBeNull();
  });

  it('several legs apply in order; other markets are left out', async () => {
    const w = tradingWorld({ positions: [position({ market: 'ETH', size: '-1', entry_price: '3000', isolated_margin: '600' })] });
    const p = await prepareLegs(w.ctx, {
      wallet: MAIN,
      legs: [
        { market: 'ETH', side: 'BUY', size: '0.5', order_type: 'LIMIT', limit_price: '2950', reduce_only: true },
        { market: 'BTC', side: 'BUY', size: '0.01', order_type: 'LIMIT', limit_price: '59000', leverage: 5 },
        { market: 'ETH', side: 'BUY', size: '1', order_type: 'LIMIT', limit_price: '2940', leverage: 5 },
      ],
    });
    // Half the short closes (margin 300 released), then the buy of 1 closes the rest and opens 0.5 long.
    expect(p.view.position_after).toMatchObject({ size: '0.5', entry_price: '2940', isolated_margin: '294' });
  });
});

/**
 * The renderer's advanced-execution rules: the Scale tab's ladder (the shared ladder, its errors on the
 * field they concern, costs from the review's function, the intent main's scale strategy takes), the
 * TWAP tab's checks (5 s between slices, each slice above the minimum order value), and where a line
 * dragged on the chart may land.
 */
import { describe, expect, it } from 'vitest';
import { judgeLimitMove, judgePositionDrag, judgeTriggerMove, snapToTick } from '../../../src/renderer/src/features/chart/chartDrag.js';
import { checkScale, initialScale, scaleIntent } from '../../../src/renderer/src/features/orderTicket/scaleTicket.js';
import { checkTwap, initialTwap, twapRequest } from '../../../src/renderer/src/features/twap/twapTicket.js';
import type { MarketView } from '../../../src/shared/ipc.js';
import { TwapPreviewRequestSchema } from '../../../src/shared/ipc/twap.js';
import { OrderIntentSchema } from '../../../src/shared/orders/intents.js';

const ETH = {
  symbol: 'ETH', venue_symbol: 'ETH', joined: true, is_active: true, only_isolated: true, mark: '3000', oracle: '3000', mid: '3000', prev_day_px: '3000', change_24h: '0',
  funding_rate: '0', open_interest: '1', day_volume: '1', max_leverage: 25, display_max_leverage: 25, tick_size: '0.1', sz_decimals: 4, px_decimals: 1, min_order_value: '10',
  max_notional: '0', max_open_orders: 50, maker_fee_rate: '0.0002', taker_fee_rate: '0.0005', initial_margin_ratio: '0.04', maintenance_margin_ratio: '0.02', slippage_bps: 50,
} satisfies MarketView;

const ctx = { side: 'BUY' as const, leverage: 5, reduceOnly: false, postOnly: false, mark: '3000', positions: [] };

describe('Scale tab', () => {
  it('lists the ladder the strategy will send and costs it as the review does', () => {
    const c = checkScale({ ...initialScale, from: '2990', to: '2950', count: '5', total: '1', skew: '3' }, ETH, ctx);
    expect(c.ok).toBe(true);
    expect(c.rungs!.map((r) => r.price)).toEqual(['2990', '2980', '2970', '2960', '2950']);
    expect(c.rungs!.map((r) => r.size)).toEqual(['0.1', '0.15', '0.2', '0.25', '0.3']);
    // All resting below the mark: maker fees; margin at 1/5 of the notional.
    // 0.1x2990 + 0.15x2980 + 0.2x2970 + 0.25x2960 + 0.3x2950
    expect(c.notional!.toFixed()).toBe('2965');
    expect(c.fee!.toFixed()).toBe('0.593');
    expect(c.margin!.toFixed()).toBe('593');
    const intent = scaleIntent({ ...initialScale, from: '2990', to: '2950', count: '5', total: '1', skew: '3' }, ETH, { side: 'BUY', leverage: 5, reduceOnly: false, postOnly: true });
    expect(OrderIntentSchema.parse(intent)).toEqual({ kind: 'scale', market: 'ETH', side: 'BUY', from_price: '2990', to_price: '2950', count: 5, total_size: '1', skew: '3', time_in_force: 'ALO', leverage: 5 });
  });

  it('puts each ladder error on its field: too narrow a range on the count, a leg below the minimum on the total', () => {
    expect(checkScale({ ...initialScale, from: '2990', to: '2990.2', count: '5', total: '1' }, ETH, ctx).errors.count).toMatch(/5 legs do not fit .* 3 distinct prices/);
    const small = checkScale({ ...initialScale, from: '2990', to: '2950', count: '5', total: '0.01' }, ETH, ctx);
    expect(small.ok).toBe(false);
    // Equal sizes: the lowest price is the smallest leg.
    expect(small.errors.total).toMatch(/the smallest leg, 5 of 5 \(BUY 0\.002 at 2950\), is worth 5\.9 USDC, below ETH's min_order_value 10/);
    expect(checkScale({ ...initialScale, from: '2990', to: '2950', count: '21', total: '1' }, ETH, ctx).errors.count).toBe('2 to 20 legs');
  });

  it('shows an off-tick end as an error on its field, naming the valid prices either side, never a rounded ladder (issue 26.15)', () => {
    for (const side of ['BUY', 'SELL'] as const) {
      const to = checkScale({ ...initialScale, from: '3300', to: '3200.55', count: '5', total: '1' }, ETH, { ...ctx, side });
      expect(to.ok).toBe(false);
      expect(to.rungs).toBeNull();
      expect(to.errors.to).toMatch(/^3200\.55 is not a multiple of ETH's tick_size 0\.1: the nearest valid prices are 3200\.5 and 3200\.6/);
      const from = checkScale({ ...initialScale, from: '3300.01', to: '3200', count: '5', total: '1' }, ETH, { ...ctx, side });
      expect(from.ok).toBe(false);
      expect(from.errors.from).toMatch(/the nearest valid prices are 3300 and 3300\.1/);
    }
  });

  it('judges the fields by the one decimal grammar: "1.", ".5" and "5 " are not numbers (issue 26.18)', () => {
    for (const bad of ['1.', '.5', '5 ', ' 5', '1e3', '+1', '01']) {
      expect(checkScale({ ...initialScale, from: bad, to: '2950', count: '5', total: '1' }, ETH, ctx).errors.from, bad).toBeDefined();
      expect(checkScale({ ...initialScale, from: '2990', to: '2950', count: '5', total: bad }, ETH, ctx).errors.total, bad).toBeDefined();
      expect(checkScale({ ...initialScale, from: '2990', to: '2950', count: '5', total: '1', skew: bad }, ETH, ctx).errors.skew, bad).toBeDefined();
    }
  });
});

describe('TWAP tab', () => {
  it('refuses slices under 5 s apart, naming how many fit, and slices below the minimum order value', () => {
    expect(checkTwap({ ...initialTwap, duration: '15s', slices: '4' }, '0.04', ETH, '3000').errors.slices).toMatch(/at least 5 s: use at most 3 slices/);
    const ok = checkTwap({ ...initialTwap, duration: '15s', slices: '3' }, '0.04', ETH, '3000');
    expect(ok.ok).toBe(true);
    expect(ok.intervalS).toBe(5);
    expect(checkTwap({ ...initialTwap, duration: '5m', slices: '10' }, '0.02', ETH, '3000').errors.size).toMatch(/about 6\.00 USDC, below the minimum 10/);
    expect(checkTwap({ ...initialTwap, randomizeTimePct: '60' }, '1', ETH, '3000').errors.randomizeTimePct).toBe('0 to 40 %');
  });

  it('takes the duration and the size in the grammars the command line takes (issue 26.18)', () => {
    expect(checkTwap({ ...initialTwap, duration: '1h30m' }, '1', ETH, '3000').ok).toBe(true);
    for (const bad of ['1h99m', '90', '5 m', '1.5h', '30m1h', '', '0s']) expect(checkTwap({ ...initialTwap, duration: bad }, '1', ETH, '3000').errors.duration, bad).toBeDefined();
    for (const bad of ['1.', '.5', '5 ', ' 1']) expect(checkTwap(initialTwap, bad, ETH, '3000').errors.size, bad).toBeDefined();
  });

  it('asks main for what the ticket shows', () => {
    const req = twapRequest({ duration: '2m30s', slices: '10', randomizeTimePct: '20', randomizeSizePct: '10' }, { market: ETH, side: 'SELL', size: '1', leverage: 3, reduceOnly: true, slippageBps: 30 });
    expect(TwapPreviewRequestSchema.parse(req)).toEqual({ market: 'ETH', side: 'SELL', total_size: '1', duration_s: 150, slices: 10, randomize_time_pct: 20, randomize_size_pct: 10, reduce_only: true, slippage_bps: 30 });
  });
});

describe('chart drags', () => {
  it('snap to the tick', () => {
    expect(snapToTick(2999.96, '0.1')).toBe('3000');
    expect(snapToTick(3012.3449, '0.5')).toBe('3012.5');
  });

  it('refuse a limit moved across the mark', () => {
    expect(judgeLimitMove('buy', '2990', '3000')).toEqual({ ok: true, value: '2990' });
    expect(judgeLimitMove('buy', '3000', '3000')).toMatchObject({ ok: false, reason: expect.stringMatching(/would execute at once\. Drag it below the mark/) });
    expect(judgeLimitMove('sell', '2990', '3000')).toMatchObject({ ok: false, reason: expect.stringMatching(/Drag it above the mark/) });
  });

  it('move a trigger with its fire price, and refuse one moved past the mark', () => {
    const sl = { side: 'sell' as const, tpsl: 'sl' as const, trigger_price: '2900', limit_price: '2885.5' };
    expect(judgeTriggerMove(sl, '2850', '3000', '0.1')).toEqual({ ok: true, value: { trigger: '2850', fire: '2835.5' } });
    expect(judgeTriggerMove(sl, '3010', '3000', '0.1')).toMatchObject({ ok: false, reason: expect.stringMatching(/stop-loss sell trigger must be below the mark 3000/) });
    const shortTp = { side: 'buy' as const, tpsl: 'tp' as const, trigger_price: '2900', limit_price: '2914.5' };
    expect(judgeTriggerMove(shortTp, '3050', '3000', '0.1')).toMatchObject({ ok: false, reason: expect.stringMatching(/must be below the mark/) });
  });

  it('make a TP on the profitable side of a position, an SL on the other, and refuse one past liquidation', () => {
    expect(judgePositionDrag('LONG', '3100', '3000', '2500')).toEqual({ ok: true, value: { kind: 'tp', price: '3100' } });
    expect(judgePositionDrag('LONG', '2900', '3000', '2500')).toEqual({ ok: true, value: { kind: 'sl', price: '2900' } });
    expect(judgePositionDrag('SHORT', '2900', '3000', '3500')).toEqual({ ok: true, value: { kind: 'tp', price: '2900' } });
    expect(judgePositionDrag('LONG', '2400', '3000', '2500')).toMatchObject({ ok: false, reason: expect.stringMatching(/beyond the liquidation estimate 2500/) });
    expect(judgePositionDrag('LONG', '3000', '3000', '2500')).toMatchObject({ ok: false, reason: expect.stringMatching(/At the mark/) });
  });
});

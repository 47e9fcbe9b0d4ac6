/**
 * The ticket's Chase type (features/chase/chaseTicket.ts): every field judged by the command line's own
 * rules (shared/algos/chase/chaseFlags.ts, the duration grammar) and refused at that field, never rounded;
 * what the ticket accepts, main's chase:preview schema and the same rules accept too (fast-check both ways).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkChase, chaseRequest, initialChase } from '../../../src/renderer/src/features/chase/chaseTicket.js';
import { parseChaseFlags } from '../../../src/shared/algos/chase/chaseFlags.js';
import { ChasePreviewRequestSchema } from '../../../src/shared/ipc/chase.js';
import type { MarketView } from '../../../src/shared/ipc.js';

const ETH = {
  symbol: 'ETH', venue_symbol: 'ETH', joined: true, is_active: true, only_isolated: true, mark: '3000', oracle: '3000', mid: '3000', prev_day_px: '3000', change_24h: '0',
  funding_rate: '0', open_interest: '1', day_volume: '1', max_leverage: 25, display_max_leverage: 25, tick_size: '0.1', sz_decimals: 4, px_decimals: 1, min_order_value: '10',
  max_notional: '0', max_open_orders: 50, maker_fee_rate: '0.0002', taker_fee_rate: '0.0005', initial_margin_ratio: '0.04', maintenance_margin_ratio: '0.02', slippage_bps: 50,
} satisfies MarketView;

describe('the ticket Chase type', () => {
  it('refuses bad numbers at their own field, each with the rule that refused it', () => {
    const bad = checkChase({ offsetTicks: '1.5', maxDistance: 'far%', timeout: '30', takerAfter: '5 m', onLimit: 'leave' }, '1e-2', ETH, '3000');
    expect(bad.ok).toBe(false);
    expect(bad.errors).toEqual({
      size: expect.stringMatching(/Not a number/),
      offsetTicks: "'1.5' is not a whole number of ticks (0, 1, 2, ...)",
      maxDistance: expect.stringMatching(/^'far' is not a percent \(such as 0.5%\) or a price distance/),
      timeout: expect.stringMatching(/a number needs a unit, such as 30s/),
      takerAfter: expect.stringMatching(/is not a duration/),
    });
    expect(checkChase({ ...initialChase, maxDistance: '0.05' }, '0.01', ETH, '3000').errors.maxDistance).toMatch(/Less than one tick \(0.1\)/);
    expect(checkChase({ ...initialChase, maxDistance: '100%' }, '0.01', ETH, '3000').errors.maxDistance).toMatch(/below 100%/);
    expect(checkChase({ ...initialChase, offsetTicks: '1001' }, '0.01', ETH, '3000').errors.offsetTicks).toMatch(/at most 1000 ticks/);
    expect(checkChase({ ...initialChase, timeout: '2m', takerAfter: '2m' }, '0.01', ETH, '3000').errors.takerAfter).toMatch(/Shorter than the timeout/);
    // Not rounded: one decimal place more than the market's is refused, and a size worth less than the minimum too.
    expect(checkChase(initialChase, '0.00001', ETH, '3000').errors.size).toBe('At most 4 decimal places');
    expect(checkChase(initialChase, '0.003', ETH, '3000').errors.size).toMatch(/Worth about 9.00 USDC, below the minimum 10/);
  });

  it('makes the request main takes: no limit, no timeout and no crossing when left empty; the max distance from the mark now', () => {
    const ok = checkChase({ ...initialChase, maxDistance: '0.5%' }, '0.01', ETH, '3000');
    expect(ok).toEqual({ ok: true, errors: {}, maxDistanceNow: '15' });
    const req = chaseRequest({ ...initialChase, maxDistance: '0.5%', onLimit: 'cancel' }, { market: ETH, side: 'SELL', size: '0.01', leverage: 3 });
    expect(ChasePreviewRequestSchema.parse(req)).toEqual({ market: 'ETH', side: 'SELL', size: '0.01', offset_ticks: '0', max_distance: '0.5%', on_limit: 'cancel', leverage: 3 });
  });

  it('accepts exactly what the command line rules accept, for any text in any field (fast-check)', () => {
    // Mostly texts near the rules' edges (so whole valid tickets come up often), some of any kind.
    const field = (near: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...near), weight: 5 }, { arbitrary: fc.string({ maxLength: 8 }), weight: 1 });
    const duration = field(['', '30s', '2m', '5m', '1h30m', '0s', '30', ' 5m', '5M']);
    fc.assert(
      fc.property(field(['0', '3', '1000', '1001', '-1', '01', '1.0']), field(['', '0.5%', '25', '0.05', '99.9%', '100%', '1e2', '0%']), duration, duration, (offsetTicks, maxDistance, timeout, takerAfter) => {
        const c = checkChase({ offsetTicks, maxDistance, timeout, takerAfter, onLimit: 'leave' }, '0.01', ETH, '3000');
        let rules = true;
        try {
          const s = parseChaseFlags({ offsetTicks, ...(maxDistance !== '' ? { maxDistance } : {}), ...(timeout !== '' ? { timeout } : {}), ...(takerAfter !== '' ? { takerAfter } : {}) });
          if (s.max_distance?.kind === 'price' && Number(s.max_distance.value) < 0.1) rules = false;
        } catch {
          rules = false;
        }
        expect(c.ok).toBe(rules);
        if (c.ok) expect(ChasePreviewRequestSchema.safeParse(chaseRequest({ offsetTicks, maxDistance, timeout, takerAfter, onLimit: 'leave' }, { market: ETH, side: 'BUY', size: '0.01', leverage: 2 })).success).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

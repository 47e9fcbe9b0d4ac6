/**
 * The pure rules of issue 35's stops (src/shared/orders): the stop tolerance as people type it (never
 * rounded), a TP/SL judged armed, none or failed from the service's rows, a failure set aside once the
 * position was flat since, and a re-arm level judged past the mark on its fire side.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/index.js';
import { levelPastMark } from '../../src/shared/orders/rearmRecord.js';
import { protectionOf, wasFlatSince, type ProtectionOrderRow } from '../../src/shared/orders/stopProtection.js';
import { parseStopTolerancePercent, stopToleranceBpsFor } from '../../src/shared/orders/stopTolerance.js';

const row = (o: Partial<ProtectionOrderRow> & { order_id: string; status: string; status_at: number }): ProtectionOrderRow => ({
  market: 'ETH',
  side: 'sell',
  size: '0',
  order_type: 'TRIGGER',
  tpsl: 'sl',
  trigger_price: '3300',
  limit_price: '2970',
  filled_size: '0',
  submitted_at: 1_000,
  reason: null,
  ...o,
});

describe('stop tolerance', () => {
  it('parses percentages to whole basis points and refuses the rest, never rounding', () => {
    expect(parseStopTolerancePercent('10')).toEqual({ ok: true, bps: 1000 });
    expect(parseStopTolerancePercent('7.5%')).toEqual({ ok: true, bps: 750 });
    expect(parseStopTolerancePercent('0.01')).toEqual({ ok: true, bps: 1 });
    for (const bad of ['', 'ten', '-1', '1e1', '7.555', '0', '50.01', '100']) expect(parseStopTolerancePercent(bad).ok, bad).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), (bps) => {
        expect(parseStopTolerancePercent(new Decimal(bps).div(100).toFixed())).toEqual({ ok: true, bps });
      }),
    );
  });

  it('a market of its own wins over the global tolerance, which defaults to 10%', () => {
    expect(stopToleranceBpsFor({}, 'BTC')).toBe(1000);
    expect(stopToleranceBpsFor({ stop_tolerance_bps: 800, stop_tolerance_by_market: { BTC: 300 } }, 'BTC')).toBe(300);
    expect(stopToleranceBpsFor({ stop_tolerance_bps: 800, stop_tolerance_by_market: { BTC: 300 } }, 'ETH')).toBe(800);
  });
});

describe('protection of a position', () => {
  const long = { market: 'ETH', size: '0.5' };

  it('armed when a trigger of the kind is armed; none when nothing ever fired', () => {
    const p = protectionOf(long, [row({ order_id: '1', status: 'open', status_at: 1_000 })], [], []);
    expect(p.sl).toMatchObject({ state: 'armed', armed: { limit_price: '2970' } });
    expect(p.tp.state).toBe('none');
  });

  it('failed: fired, then cancelled no_liquidity_within_limit; the reason says the tolerance it fired with', () => {
    const history = [row({ order_id: '1', status: 'open', status_at: 1_000 }), row({ order_id: '1', status: 'triggered', status_at: 2_000 }), row({ order_id: '1', status: 'cancelled', status_at: 2_100, reason: 'no_liquidity_within_limit' })];
    const p = protectionOf(long, [], history, []);
    expect(p.sl).toMatchObject({ state: 'failed', failure: { order_id: '1', reason: 'no liquidity within 10%', reason_code: 'no_liquidity_within_limit', at: 2_100 } });
  });

  it('a cancel by the trader (never triggered), a newer stop placed since, or another market is not a failure', () => {
    const cancelled = [row({ order_id: '1', status: 'open', status_at: 1_000 }), row({ order_id: '1', status: 'cancelled', status_at: 2_000 })];
    expect(protectionOf(long, [], cancelled, []).sl.state).toBe('none');
    const fired = [row({ order_id: '1', status: 'triggered', status_at: 2_000 }), row({ order_id: '1', status: 'cancelled', status_at: 2_100, reason: 'no_liquidity_within_limit' })];
    const newer = [...fired, row({ order_id: '2', status: 'cancelled', status_at: 4_000, submitted_at: 3_000 })];
    expect(protectionOf(long, [], newer, []).sl.state).toBe('none');
    expect(protectionOf({ market: 'BTC', size: '1' }, [], fired, []).sl.state).toBe('none');
    // A short's stop buys: a sell-side failure is not its.
    expect(protectionOf({ market: 'ETH', size: '-0.5' }, [], fired, []).sl.state).toBe('none');
  });

  it('a failure of a position closed and opened again since is set aside (walking the fills back from the size now)', () => {
    const fired = [row({ order_id: '1', status: 'triggered', status_at: 2_000 }), row({ order_id: '1', status: 'cancelled', status_at: 2_100, reason: 'no_liquidity_within_limit' })];
    const reopened = [
      { size: '0.5', dir: 'Close Long', filled_at: 3_000 },
      { size: '0.5', dir: 'Open Long', filled_at: 4_000 },
    ];
    expect(protectionOf(long, [], fired, reopened).sl.state).toBe('none');
    // Added to, never flat: still failed.
    expect(protectionOf({ market: 'ETH', size: '0.7' }, [], fired, [{ size: '0.2', dir: 'Open Long', filled_at: 3_000 }]).sl.state).toBe('failed');
  });

  it('wasFlatSince: true exactly when the walk back through the fills meets a size of zero', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 50 }), (adds, base) => {
        // Opens only, from a base that was already there: never flat.
        const fills = adds.map((n, i) => ({ size: String(n), dir: 'Open Long', filled_at: 10 + i }));
        const now = String(base + adds.reduce((a, b) => a + b, 0));
        expect(wasFlatSince(now, fills, 0)).toBe(false);
        // The first of them opened from flat: the walk back meets zero.
        expect(wasFlatSince(String(adds.reduce((a, b) => a + b, 0)), fills, 0)).toBe(true);
      }),
    );
  });
});

describe('a re-arm level past the mark', () => {
  it('is a long stop at or above the mark, a long take-profit at or below it; a short the other way', () => {
    const mark = new Decimal('3000');
    expect(levelPastMark('sl', 'LONG', '3010', mark)).toBe(true);
    expect(levelPastMark('sl', 'LONG', '2990', mark)).toBe(false);
    expect(levelPastMark('tp', 'LONG', '2990', mark)).toBe(true);
    expect(levelPastMark('sl', 'SHORT', '2990', mark)).toBe(true);
    expect(levelPastMark('tp', 'SHORT', '3010', mark)).toBe(true);
    expect(levelPastMark('tp', 'SHORT', '2990', mark)).toBe(false);
  });
});

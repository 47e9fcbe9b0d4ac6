/**
 * The trailing stop's pure rules (src/shared/algos/trailing.ts): the ratchet moves only in the trader's
 * favour, only by whole ticks, at most once per second, not before its activation price, never to or past
 * the mark; and the high-water mark after time away comes from the candles missed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/index.js';
import {
  MIN_MOVE_INTERVAL_MS,
  TrailRuleError,
  bestSeenInCandles,
  checkTrailDistance,
  parseTrailDistance,
  ratchet,
  trailLevel,
  type TrailSide,
  type TrailState,
} from '../../src/shared/algos/trailing.js';

const sides = fc.constantFrom<TrailSide>('LONG', 'SHORT');
const long = (over: Partial<TrailState> = {}): TrailState => ({ side: 'LONG', distance: { kind: 'percent', value: '1.5' }, activate: null, tickSize: '0.5', stop: '3100', highWater: '3150', lastMoveAt: 0, ...over });

describe('parseTrailDistance', () => {
  it('reads a percentage and a price distance', () => {
    expect(parseTrailDistance('1.5%')).toEqual({ kind: 'percent', value: '1.5' });
    expect(parseTrailDistance('25')).toEqual({ kind: 'price', value: '25' });
    expect(parseTrailDistance('0.25%')).toEqual({ kind: 'percent', value: '0.25' });
  });

  it.each(['', '%', ' 25 ', '0.25 %', '1.', '.5', '01.5%', '0', '0%', '-1', '-1.5%', '100%', '150%', '1e3', '0x10', '1,5%', 'NaN', 'Infinity', '1.5%%', '１.５%', '1.5 percent', '9'.repeat(30), '1.' + '1'.repeat(30)])('refuses %j, never rounds it', (text) => {
    expect(() => parseTrailDistance(text)).toThrow(TrailRuleError);
  });

  it('a price distance below one tick is refused for the market', () => {
    expect(() => checkTrailDistance({ kind: 'price', value: '0.1' }, '0.5')).toThrow(/less than the market's tick/);
    expect(() => checkTrailDistance({ kind: 'price', value: '0.5' }, '0.5')).not.toThrow();
  });
});

describe('ratchet', () => {
  it('a long: a new high moves the stop up to the high less the distance, on the tick grid below', () => {
    // 3200 less 1.5% = 3152, on the 0.5 grid: 3152
    const d = ratchet(long(), '3200', '3200', 5_000);
    expect(d).toEqual({ move: true, highWater: '3200', to: '3152', wanted: '3152', clamped: false });
    // 3201 less 1.5% = 3152.985, rounded down to 3152.5
    expect(ratchet(long(), '3201', '3201', 5_000)).toMatchObject({ move: true, to: '3152.5' });
  });

  it('a short: a new low moves the stop down, rounded up to the tick', () => {
    const s: TrailState = { side: 'SHORT', distance: { kind: 'price', value: '20' }, activate: null, tickSize: '0.5', stop: '3200', highWater: '3170', lastMoveAt: 0 };
    expect(ratchet(s, '3150.2', '3150.2', 5_000)).toMatchObject({ move: true, highWater: '3150.2', to: '3170.5' });
  });

  it('never moves against the trader: a lower mark keeps the stop and the high-water mark', () => {
    expect(ratchet(long({ highWater: '3200', stop: '3152' }), '3180', '3180', 5_000)).toEqual({ move: false, highWater: '3200', why: 'no_gain' });
  });

  it('at most once per second: a new high within a second of the last move waits', () => {
    expect(ratchet(long({ lastMoveAt: 4_500 }), '3300', '3300', 5_000)).toMatchObject({ move: false, why: 'too_soon', highWater: '3300' });
    expect(ratchet(long({ lastMoveAt: 4_000 }), '3300', '3300', 5_000)).toMatchObject({ move: true });
  });

  it('does not move before the activation price is reached, and does once it is', () => {
    expect(ratchet(long({ activate: '3250' }), '3240', '3240', 5_000)).toMatchObject({ move: false, why: 'not_activated', highWater: '3240' });
    expect(ratchet(long({ activate: '3250' }), '3250', '3250', 5_000)).toMatchObject({ move: true, to: '3201' });
  });

  it('a high made while away that the mark has since fallen through: the stop goes to the last tick before the mark', () => {
    // High 3500 while away: the stop should be 3447.5; the mark is 3420 now.
    const d = ratchet(long(), '3500', '3420', 5_000);
    expect(d).toEqual({ move: true, highWater: '3500', to: '3419.5', wanted: '3447.5', clamped: true });
  });

  const ticks = fc.constantFrom('1', '0.5', '0.1', '0.01', '0.0001', '5');
  const ticksOf = (n: number, tick: string): string => new Decimal(tick).mul(n).toFixed();
  const state = fc.record({
    side: sides,
    tick: ticks,
    stopTicks: fc.integer({ min: 1_000, max: 100_000 }),
    hwOffset: fc.integer({ min: 0, max: 5_000 }),
    percent: fc.boolean(),
    distTicks: fc.integer({ min: 1, max: 2_000 }),
    pct: fc.integer({ min: 1, max: 9_999 }),
    activateTicks: fc.option(fc.integer({ min: 500, max: 120_000 }), { nil: null }),
    lastMoveAt: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
    seenTicks: fc.integer({ min: 500, max: 120_000 }),
    markBelowSeen: fc.integer({ min: 0, max: 3_000 }),
    now: fc.integer({ min: 0, max: 12_000 }),
  });

  it('properties: only in favour, whole ticks, at least a tick, at most once a second, activation, never at or past the mark', () => {
    fc.assert(
      fc.property(state, (p) => {
        const stop = ticksOf(p.stopTicks, p.tick);
        const hw = p.side === 'LONG' ? ticksOf(p.stopTicks + p.hwOffset, p.tick) : ticksOf(Math.max(1, p.stopTicks - p.hwOffset), p.tick);
        const s: TrailState = {
          side: p.side,
          tickSize: p.tick,
          stop,
          highWater: hw,
          distance: p.percent ? { kind: 'percent', value: new Decimal(p.pct).div(100).toFixed() } : { kind: 'price', value: ticksOf(p.distTicks, p.tick) },
          activate: p.activateTicks === null ? null : ticksOf(p.activateTicks, p.tick),
          lastMoveAt: p.lastMoveAt,
        };
        const seen = ticksOf(p.seenTicks, p.tick);
        // The mark is the seen price or has come back from it (toward the stop).
        const markTicks = p.side === 'LONG' ? p.seenTicks - p.markBelowSeen : p.seenTicks + p.markBelowSeen;
        if (markTicks <= 0) return;
        const mark = ticksOf(markTicks, p.tick);
        const d = ratchet(s, seen, mark, p.now);
        // The high-water mark only improves.
        expect(new Decimal(d.highWater).cmp(hw) * (p.side === 'LONG' ? 1 : -1)).toBeGreaterThanOrEqual(0);
        if (!d.move) return;
        const to = new Decimal(d.to);
        // Whole ticks, at least one, only in the trader's favour.
        expect(to.mod(p.tick).isZero()).toBe(true);
        const gain = p.side === 'LONG' ? to.minus(stop) : new Decimal(stop).minus(to);
        expect(gain.gte(p.tick)).toBe(true);
        // Never at or past the mark.
        expect(p.side === 'LONG' ? to.lt(mark) : to.gt(mark)).toBe(true);
        // At most once a second.
        if (p.lastMoveAt !== null) expect(p.now - p.lastMoveAt).toBeGreaterThanOrEqual(MIN_MOVE_INTERVAL_MS);
        // Not before activation.
        if (s.activate !== null) expect(p.side === 'LONG' ? new Decimal(d.highWater).gte(s.activate) : new Decimal(d.highWater).lte(s.activate)).toBe(true);
        // Never beyond where the high-water mark puts it.
        expect(p.side === 'LONG' ? to.lte(d.wanted) : to.gte(d.wanted)).toBe(true);
        expect(d.wanted).toBe(trailLevel(p.side, d.highWater, s.distance, p.tick).toFixed());
      }),
      { numRuns: 2_000 },
    );
  });

  it('property: applying the decisions over any path of marks, the stop never moves against the trader', () => {
    fc.assert(
      fc.property(sides, fc.array(fc.integer({ min: 2_000, max: 4_000 }), { minLength: 1, maxLength: 60 }), (side, path) => {
        let s: TrailState = { side, distance: { kind: 'percent', value: '2' }, activate: null, tickSize: '0.5', stop: side === 'LONG' ? '1000' : '9000', highWater: null, lastMoveAt: null };
        let now = 0;
        for (const m of path) {
          now += 700;
          const mark = new Decimal(m).div(2).toFixed();
          const d = ratchet(s, mark, mark, now);
          const before = s.stop!;
          s = { ...s, highWater: d.highWater, ...(d.move ? { stop: d.to, lastMoveAt: now } : {}) };
          expect(new Decimal(s.stop!).cmp(before) * (side === 'LONG' ? 1 : -1)).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

describe('bestSeenInCandles', () => {
  const c = (t: number, h: string, l: string) => ({ t, T: t + 59_999, h, l });
  it("a long takes the highest high, a short the lowest low, of the candles that end after it went away", () => {
    const candles = [c(0, '3600', '3000'), c(60_000, '3500', '3300'), c(120_000, '3450', '3280')];
    expect(bestSeenInCandles('LONG', candles, 70_000)).toBe('3500');
    expect(bestSeenInCandles('SHORT', candles, 70_000)).toBe('3280');
    expect(bestSeenInCandles('LONG', candles, 500_000)).toBeNull();
  });

  it('the candle the stop was armed in counts only where it went beyond what it showed at arming', () => {
    // Armed at 30 s into the first minute, when that candle's high was 3600 (made before arming).
    const armedIn = c(0, '3600', '3000');
    expect(bestSeenInCandles('LONG', [c(0, '3600', '2990'), c(60_000, '3450', '3300')], 40_000, armedIn)).toBe('3450');
    expect(bestSeenInCandles('LONG', [c(0, '3650', '2990'), c(60_000, '3450', '3300')], 40_000, armedIn)).toBe('3650');
    expect(bestSeenInCandles('SHORT', [c(0, '3600', '3000'), c(60_000, '3450', '3300')], 40_000, armedIn)).toBe('3300');
    expect(bestSeenInCandles('SHORT', [c(0, '3600', '2990')], 40_000, armedIn)).toBe('2990');
  });

  it('property: at least every high (low) of the covered candles and one of them', () => {
    fc.assert(
      fc.property(sides, fc.array(fc.tuple(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 500 })), { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 40 }), (side, bars, from) => {
        const candles = bars.map(([lo, span], i) => c(i * 60_000, String(lo + span), String(lo)));
        const since = from * 60_000;
        const best = bestSeenInCandles(side, candles, since);
        const covered = candles.filter((x) => x.T >= since).map((x) => new Decimal(side === 'LONG' ? x.h : x.l));
        if (covered.length === 0) {
          expect(best).toBeNull();
          return;
        }
        const want = side === 'LONG' ? Decimal.max(...covered) : Decimal.min(...covered);
        expect(new Decimal(best!).eq(want)).toBe(true);
      }),
    );
  });
});

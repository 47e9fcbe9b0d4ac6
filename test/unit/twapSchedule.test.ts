/**
 * The TWAP schedule (src/shared/algos/twap/twapSchedule.ts): examples, then properties over random inputs:
 * the sizes sum exactly to the total on the size grid, every slice within its size bound (plus one size
 * step of rounding), times in order, within their time bound of the nominal grid, the first not before
 * the start and the last before the duration is over; the same seed gives the same schedule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/index.js';
import { TwapScheduleError, twapSchedule, type TwapScheduleInput } from '../../src/shared/algos/twap/twapSchedule.js';

function refusal(input: TwapScheduleInput): TwapScheduleError {
  try {
    twapSchedule(input);
  } catch (err) {
    expect(err).toBeInstanceOf(TwapScheduleError);
    return err as TwapScheduleError;
  }
  throw new Error('expected a TwapScheduleError');
}

describe('TWAP schedule: examples', () => {
  it('without randomization: even sizes on the size grid, slices every interval from the start', () => {
    expect(twapSchedule({ totalSize: '1', slices: 4, durationMs: 60_000, szDecimals: 3 })).toEqual([
      { index: 0, offset_ms: 0, size: '0.25' },
      { index: 1, offset_ms: 15_000, size: '0.25' },
      { index: 2, offset_ms: 30_000, size: '0.25' },
      { index: 3, offset_ms: 45_000, size: '0.25' },
    ]);
    // Rounding leftovers go one step each to the first slices (equal losses: lower index first).
    expect(twapSchedule({ totalSize: '1', slices: 3, durationMs: 30_000, szDecimals: 2 }).map((s) => s.size)).toEqual(['0.34', '0.33', '0.33']);
  });

  it('refuses slices closer than 5 s, fewer than 2, a total off the size grid, and bounds out of range', () => {
    expect(refusal({ totalSize: '1', slices: 13, durationMs: 60_000, szDecimals: 3 })).toMatchObject({ errorCode: 'TWAP_INTERVAL_TOO_SHORT', field: 'slices' });
    expect(refusal({ totalSize: '1', slices: 13, durationMs: 60_000, szDecimals: 3 }).errorHint).toBe('Use at most 12 slices, or a longer duration.');
    expect(refusal({ totalSize: '1', slices: 1, durationMs: 60_000, szDecimals: 3 }).field).toBe('slices');
    expect(refusal({ totalSize: '1.0001', slices: 2, durationMs: 60_000, szDecimals: 3 }).field).toBe('total_size');
    expect(refusal({ totalSize: '0', slices: 2, durationMs: 60_000, szDecimals: 3 }).field).toBe('total_size');
    expect(refusal({ totalSize: '0.001', slices: 2, durationMs: 60_000, szDecimals: 3 }).errorCode).toBe('TWAP_SLICE_TOO_SMALL');
    expect(refusal({ totalSize: '1', slices: 2, durationMs: 60_000, szDecimals: 3, randomizeTimePct: 41 }).field).toBe('randomize_time_pct');
    expect(refusal({ totalSize: '1', slices: 2, durationMs: 60_000, szDecimals: 3, randomizeSizePct: 51 }).field).toBe('randomize_size_pct');
    expect(refusal({ totalSize: '1', slices: 2, durationMs: 60_000, szDecimals: 3, randomizeSizePct: 10.5 }).field).toBe('randomize_size_pct');
  });
});

describe('TWAP schedule: properties', () => {
  it('exact total on the grid, sizes and times within their bounds, in order, reproducible from the seed', () => {
    fc.assert(
      fc.property(
        fc.record({
          slices: fc.integer({ min: 2, max: 200 }),
          intervalS: fc.integer({ min: 5, max: 600 }),
          extraMs: fc.integer({ min: 0, max: 4_999 }),
          szDecimals: fc.integer({ min: 0, max: 6 }),
          perSliceSteps: fc.integer({ min: 2, max: 1_000_000 }),
          timePct: fc.integer({ min: 0, max: 40 }),
          sizePct: fc.integer({ min: 0, max: 50 }),
          seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        }),
        (x) => {
          const step = new Decimal(1).div(new Decimal(10).pow(x.szDecimals));
          const total = step.mul(x.perSliceSteps).mul(x.slices);
          const durationMs = x.intervalS * 1000 * x.slices + x.extraMs;
          const input = { totalSize: total.toFixed(), slices: x.slices, durationMs, szDecimals: x.szDecimals, randomizeTimePct: x.timePct, randomizeSizePct: x.sizePct, seed: x.seed };
          let plan;
          try {
            plan = twapSchedule(input);
          } catch (err) {
            // Only a slice rounded to nothing may refuse a valid input, and only with a wide size bound.
            expect((err as TwapScheduleError).errorCode).toBe('TWAP_SLICE_TOO_SMALL');
            expect(x.sizePct).toBeGreaterThan(0);
            return;
          }
          expect(twapSchedule(input)).toEqual(plan);
          expect(plan).toHaveLength(x.slices);
          const interval = Math.floor(durationMs / x.slices);
          const base = total.div(x.slices);
          const bound = base.mul(x.sizePct).div(100);
          let sum = new Decimal(0);
          plan.forEach((s, i) => {
            const size = new Decimal(s.size);
            sum = sum.plus(size);
            expect(size.gt(0)).toBe(true);
            expect(size.mod(step).isZero()).toBe(true);
            expect(size.minus(base).abs().lte(bound.plus(step)), `slice ${i}: ${s.size} vs ${base} +/- ${bound}`).toBe(true);
            expect(Math.abs(s.offset_ms - i * interval)).toBeLessThanOrEqual(Math.ceil((interval * x.timePct) / 100));
            if (i > 0) expect(s.offset_ms - plan[i - 1]!.offset_ms).toBeGreaterThanOrEqual(Math.floor(interval * (1 - (2 * x.timePct) / 100)) - 1);
          });
          expect(sum.eq(total)).toBe(true);
          expect(plan[0]!.offset_ms).toBeGreaterThanOrEqual(0);
          expect(plan.at(-1)!.offset_ms).toBeLessThan(durationMs);
          if (x.timePct === 0) plan.forEach((s, i) => expect(s.offset_ms).toBe(i * interval));
        },
      ),
      { numRuns: 500, seed: 20 },
    );
  });
});

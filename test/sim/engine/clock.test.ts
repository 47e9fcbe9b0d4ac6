/**
 * SimClock's coalescing view (issue #26 item 7): a self-re-arming task scheduled through it (the venue's
 * walk) sleeps through the long part of a manual advance and runs tick by tick only in its last
 * EXACT_REPLAY_MS, while tasks on the clock itself still run each at its own time.
 */
import { describe, expect, it } from 'vitest';
import { EXACT_REPLAY_MS, SimClock } from '../../../src/sim/runtime/clock.js';

const T0 = 1_770_000_000_000;
const TICK = 1000;
const HOUR = 3_600_000;

/** A walk like the venue's: re-arms at due + TICK, or now + TICK when it runs late. */
function walk(clock: SimClock): number[] {
  const runs: number[] = [];
  const arm = (at: number): void => {
    clock.scheduleAt(at, () => {
      const now = clock.now();
      runs.push(now);
      arm(at + TICK > now ? at + TICK : now + TICK);
    });
  };
  arm(clock.now() + TICK);
  return runs;
}

/** An hourly job like funding: re-arms at the next hour whatever the time. */
function hourly(clock: SimClock): Array<{ due: number; ranAt: number }> {
  const runs: Array<{ due: number; ranAt: number }> = [];
  const arm = (at: number): void => {
    clock.scheduleAt(at, () => {
      runs.push({ due: at, ranAt: clock.now() });
      arm(at + HOUR);
    });
  };
  arm(T0 + HOUR);
  return runs;
}

describe('SimClock coalescing view', () => {
  it('an advance no longer than EXACT_REPLAY_MS runs every tick at its own time, as on the clock itself', () => {
    const clock = new SimClock({ manual: true, start: T0 });
    const runs = walk(clock.coalescingView());
    clock.advance(EXACT_REPLAY_MS);
    expect(runs).toHaveLength(EXACT_REPLAY_MS / TICK);
    expect(runs.every((at, i) => at === T0 + (i + 1) * TICK)).toBe(true);
  });

  it('a day: the walk runs once late and then only the last EXACT_REPLAY_MS, while every hourly job runs on the hour', () => {
    const clock = new SimClock({ manual: true, start: T0 });
    const runs = walk(clock.coalescingView());
    const hours = hourly(clock);
    const day = 24 * HOUR;
    clock.advance(day);
    expect(runs.length).toBeLessThanOrEqual(EXACT_REPLAY_MS / TICK + 1);
    expect(runs[0]).toBe(T0 + day - EXACT_REPLAY_MS);
    expect(hours).toHaveLength(24);
    expect(hours.every(({ due, ranAt }) => due === ranAt)).toBe(true);
    expect(clock.now()).toBe(T0 + day);
  });

  it('view and clock share time and queue; an advance past the largest safe integer is refused', () => {
    const clock = new SimClock({ manual: true, start: T0 });
    const view = clock.coalescingView();
    view.schedule(5, () => undefined);
    expect(clock.pending()).toBe(1);
    clock.advance(10);
    expect(view.now()).toBe(T0 + 10);
    expect(() => clock.advance(Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
    expect(clock.now()).toBe(T0 + 10);
  });
});

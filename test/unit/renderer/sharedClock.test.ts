/**
 * The shared clock behind every countdown (src/renderer/src/ui/sharedClock.ts): the views drawn in one
 * pass read one time (a time that moved between two of them made React draw the first again right after
 * mounting); it ticks only while watched, with one timer per period however many watch it; unwatched for
 * more than a second, it reads the time afresh.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type ClockModule = typeof import('../../../src/renderer/src/ui/sharedClock.js');
let clock: ClockModule;

beforeEach(async () => {
  vi.useFakeTimers({ now: new Date('2026-11-26T08:00:00Z') });
  vi.resetModules();
  clock = await import('../../../src/renderer/src/ui/sharedClock.js');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the shared clock', () => {
  it('gives every read between two ticks the same time, though the wall clock moves (one render pass)', () => {
    const first = clock.clockNow(1000);
    vi.setSystemTime(Date.now() + 7);
    expect(clock.clockNow(1000)).toBe(first);
    vi.setSystemTime(Date.now() + 900);
    expect(clock.clockNow(1000)).toBe(first);
  });

  it('ticks once per period for all its watchers, with one timer, and stops when the last leaves', () => {
    const a = vi.fn();
    const b = vi.fn();
    const start = clock.clockNow(1000);
    const stopA = clock.watchClock(1000, a);
    const stopB = clock.watchClock(1000, b);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(3000);
    expect(a).toHaveBeenCalledTimes(3);
    expect(b).toHaveBeenCalledTimes(3);
    expect(clock.clockNow(1000)).toBe(start + 3000);
    stopA();
    vi.advanceTimersByTime(1000);
    expect(a).toHaveBeenCalledTimes(3);
    expect(b).toHaveBeenCalledTimes(4);
    stopB();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('unwatched for longer than a period, reads the time afresh (not the time it last ticked)', () => {
    const stop = clock.watchClock(1000, () => undefined);
    vi.advanceTimersByTime(1000);
    stop();
    const lastTick = clock.clockNow(1000);
    vi.setSystemTime(Date.now() + 60_000);
    expect(clock.clockNow(1000)).toBe(lastTick + 60_000);
  });

  it('unwatched, a minute clock is read afresh after a second, not left a minute behind', () => {
    const first = clock.clockNow(60_000);
    vi.setSystemTime(Date.now() + 500);
    expect(clock.clockNow(60_000)).toBe(first);
    vi.setSystemTime(Date.now() + 1_500);
    expect(clock.clockNow(60_000)).toBe(first + 2_000);
  });

  it('keeps one clock per period: the second clock ticking calls no minute-clock watcher', () => {
    const minuteTick = vi.fn();
    const stopMinute = clock.watchClock(60_000, minuteTick);
    const stopSecond = clock.watchClock(1000, () => undefined);
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(5000);
    expect(minuteTick).not.toHaveBeenCalled();
    vi.advanceTimersByTime(55_000);
    expect(minuteTick).toHaveBeenCalledTimes(1);
    stopMinute();
    stopSecond();
  });
});

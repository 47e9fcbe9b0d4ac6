/** The event-stream throttle: at most 10 emissions a second per stream, latest value per key, nothing lost at the end. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Throttle } from '../../../src/main/app/throttle.js';

/** A manual clock with timers, so the schedule is exact and the test takes no time. */
class FakeTime {
  now = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  setTimer = (fn: () => void, ms: number): unknown => {
    const id = this.nextId++;
    this.timers.push({ at: this.now + ms, fn, id });
    return id;
  };
  clearTimer = (id: unknown): void => {
    this.timers = this.timers.filter((t) => t.id !== id);
  };
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.now = due.at;
      due.fn();
    }
    this.now = end;
  }
}

interface Mark {
  market: string;
  mark: string;
}

function setup(intervalMs = 100) {
  const time = new FakeTime();
  const emitted: { at: number; values: Mark[] }[] = [];
  const throttle = new Throttle<Mark>({
    intervalMs,
    key: (m) => m.market,
    emit: (values) => emitted.push({ at: time.now, values }),
    now: () => time.now,
    setTimer: time.setTimer,
    clearTimer: time.clearTimer,
  });
  return { time, emitted, throttle };
}

describe('Throttle', () => {
  it('sends the first value at once, then coalesces within the interval (latest per key wins)', () => {
    const { time, emitted, throttle } = setup();
    throttle.push({ market: 'BTC', mark: '1' });
    expect(emitted).toEqual([{ at: 0, values: [{ market: 'BTC', mark: '1' }] }]);
    time.advance(10);
    throttle.push({ market: 'BTC', mark: '2' });
    throttle.push({ market: 'ETH', mark: '10' });
    throttle.push({ market: 'BTC', mark: '3' });
    expect(emitted).toHaveLength(1);
    time.advance(89);
    expect(emitted).toHaveLength(1);
    time.advance(1);
    expect(emitted[1]).toEqual({
      at: 100,
      values: [
        { market: 'BTC', mark: '3' },
        { market: 'ETH', mark: '10' },
      ],
    });
  });

  it('never emits more than 10 times in any second, under a flood', () => {
    const { time, emitted, throttle } = setup();
    for (let i = 0; i < 5_000; i++) {
      throttle.push({ market: `M${i % 7}`, mark: String(i) });
      time.advance(1);
    }
    throttle.close();
    const times = emitted.map((e) => e.at);
    for (let i = 0; i + 10 < times.length; i++) expect(times[i + 10]! - times[i]!).toBeGreaterThanOrEqual(1000);
    // Every key's last value arrived.
    const last = new Map<string, string>();
    for (const e of emitted) for (const v of e.values) last.set(v.market, v.mark);
    for (let k = 0; k < 7; k++) expect(last.get(`M${k}`)).toBe(String(4999 - ((4999 - k) % 7)));
  });

  it('close() delivers what is pending and then accepts nothing', () => {
    const { emitted, throttle } = setup();
    throttle.push({ market: 'BTC', mark: '1' });
    throttle.push({ market: 'BTC', mark: '2' });
    expect(throttle.size).toBe(1);
    throttle.close();
    expect(emitted.map((e) => e.values)).toEqual([[{ market: 'BTC', mark: '1' }], [{ market: 'BTC', mark: '2' }]]);
    throttle.push({ market: 'BTC', mark: '3' });
    expect(emitted).toHaveLength(2);
  });

  it('a throwing consumer does not stop the stream', () => {
    const time = new FakeTime();
    const errors: unknown[] = [];
    let calls = 0;
    const t = new Throttle<Mark>({
      intervalMs: 100,
      key: (m) => m.market,
      emit: () => {
        calls++;
        throw new Error('renderer gone');
      },
      now: () => time.now,
      setTimer: time.setTimer,
      clearTimer: time.clearTimer,
      onError: (e) => errors.push(e),
    });
    t.push({ market: 'A', mark: '1' });
    time.advance(200);
    t.push({ market: 'A', mark: '2' });
    expect(calls).toBe(2);
    expect(errors).toHaveLength(2);
  });

  it('property: rate bound holds, and the final value of every key is delivered, for any arrival pattern', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ gap: fc.integer({ min: 0, max: 250 }), key: fc.integer({ min: 0, max: 4 }), value: fc.integer() }), { maxLength: 300 }), (events) => {
        const { time, emitted, throttle } = setup();
        const expected = new Map<string, string>();
        for (const e of events) {
          time.advance(e.gap);
          throttle.push({ market: String(e.key), mark: String(e.value) });
          expected.set(String(e.key), String(e.value));
        }
        throttle.close();
        const times = emitted.map((x) => x.at);
        for (let i = 1; i < times.length - 1; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100);
        const last = new Map<string, string>();
        for (const x of emitted) for (const v of x.values) last.set(v.market, v.mark);
        expect(last).toEqual(expected);
        // Within one emission a key appears once.
        for (const x of emitted) expect(new Set(x.values.map((v) => v.market)).size).toBe(x.values.length);
      }),
      { numRuns: 200 },
    );
  });
});

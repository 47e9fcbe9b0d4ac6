import { describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/sim/runtime/clock.js';
import { JobQueue } from '../../../src/sim/core/jobs.js';

type Payloads = { tick: { n: number }; boom: Record<string, never> };

describe('job queue', () => {
  it('runs jobs in due order on the clock and resumes a snapshot', () => {
    const clock = new SimClock({ manual: true, start: 1000 });
    const seen: [number, number][] = [];
    const q = new JobQueue<Payloads>(clock);
    q.on('tick', ({ n }) => seen.push([n, clock.now()]));
    q.on('boom', () => {
      throw new Error('bug');
    });
    q.add('tick', 200, { n: 2 });
    q.add('tick', 100, { n: 1 });
    q.add('tick', 500, { n: 3 });
    clock.advance(250);
    expect(seen).toEqual([
      [1, 1100],
      [2, 1200],
    ]);
    const snap = JSON.parse(JSON.stringify(q.snapshot()));
    expect(snap.jobs).toHaveLength(1);

    const clock2 = new SimClock({ manual: true, start: 1250 });
    const q2 = new JobQueue<Payloads>(clock2);
    const seen2: number[] = [];
    q2.on('tick', ({ n }) => seen2.push(n));
    q2.on('boom', () => undefined);
    q2.restore(snap);
    clock2.advance(1000);
    expect(seen2).toEqual([3]);
  });

  it('records a failing job instead of swallowing it or stopping the clock', () => {
    const clock = new SimClock({ manual: true, start: 0 });
    const q = new JobQueue<Payloads>(clock);
    const seen: number[] = [];
    q.on('tick', ({ n }) => seen.push(n));
    q.on('boom', () => {
      throw new Error('bug in job');
    });
    const error = console.error;
    console.error = () => undefined;
    try {
      q.add('boom', 10, {});
      q.add('tick', 20, { n: 1 });
      clock.advance(100);
    } finally {
      console.error = error;
    }
    expect(seen).toEqual([1]);
    expect(q.errors).toHaveLength(1);
    expect(q.errors[0]!.message).toContain('bug in job');
  });
});

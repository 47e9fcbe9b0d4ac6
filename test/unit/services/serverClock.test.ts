/**
 * The service clock (GET /config's envelope timestamp against the local clock). Issue 38: a chase reads
 * it between a book message and its Modify, so an offset past its time to live must not make that read
 * wait on a round trip: it answers with the offset it has and re-measures in the background. Without an
 * offset (or one invalidated, or one far past its time because the refreshes keep failing) it waits.
 */
import { describe, expect, it } from 'vitest';
import { ServerClock } from '../../../src/main/services/serverClock.js';

/** A fetch of GET /config whose answers the test releases one by one, stamped with `serverTime`. */
function heldConfig() {
  const pending: ((stampedAt: number | Error) => void)[] = [];
  let calls = 0;
  const fetch = (async () => {
    calls++;
    const stamp = await new Promise<number | Error>((resolve) => pending.push(resolve));
    if (stamp instanceof Error) throw stamp;
    return new Response(JSON.stringify({ success: true, data: {}, timestamp: stamp }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    calls: () => calls,
    /** Answers the oldest request, stamped `at` (or failing with an error). */
    answer: async (at: number | Error) => {
      for (let i = 0; i < 50 && pending.length === 0; i++) await new Promise((r) => setImmediate(r));
      pending.shift()!(at);
    },
  };
}

/** Resolves to 'pending' when `p` has not settled after a few turns of the event loop. */
async function settledOrPending<T>(p: Promise<T>): Promise<T | 'pending'> {
  let out: T | 'pending' = 'pending';
  // A rejection is the caller's to check (it awaits `p` itself); this only tells whether it settled.
  void p.then(
    (v) => (out = v),
    () => undefined,
  );
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  return out;
}

describe('service clock', () => {
  it('measures before its first answer, then answers from the offset without a request', async () => {
    let local = 1_000_000;
    const cfg = heldConfig();
    const clock = new ServerClock({ baseUrl: 'http://127.0.0.1:9', fetch: cfg.fetch, ttlMs: 5_000, localNow: () => local });
    const first = clock.now();
    expect(await settledOrPending(first)).toBe('pending');
    await cfg.answer(1_000_500);
    expect(await first).toBe(1_000_500);
    local += 1_000;
    expect(await clock.now()).toBe(1_001_500);
    expect(cfg.calls()).toBe(1);
  });

  it('past its time to live it answers at once from the offset it has and re-measures in the background', async () => {
    let local = 1_000_000;
    const cfg = heldConfig();
    const clock = new ServerClock({ baseUrl: 'http://127.0.0.1:9', fetch: cfg.fetch, ttlMs: 5_000, localNow: () => local });
    const first = clock.now();
    await cfg.answer(1_000_500);
    await first;
    local += 6_000;
    // The re-measure is in flight and unanswered: the read does not wait for it.
    expect(await settledOrPending(clock.now())).toBe(1_006_500);
    expect(cfg.calls()).toBe(2);
    // A second read meanwhile starts no second request.
    expect(await clock.now()).toBe(1_006_500);
    expect(cfg.calls()).toBe(2);
    // The new offset (the service's clock drifted 100 ms) is used once it is measured.
    await cfg.answer(1_006_600);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(await clock.now()).toBe(1_006_600);
    expect(cfg.calls()).toBe(2);
  });

  it('a refresh that fails keeps the offset and is told; one far past its time to live is waited for and its failure seen', async () => {
    let local = 1_000_000;
    const cfg = heldConfig();
    // One try a read (the retries of a transient failure have their own test below).
    const refreshFailures: Error[] = [];
    const clock = new ServerClock({ baseUrl: 'http://127.0.0.1:9', fetch: cfg.fetch, ttlMs: 5_000, localNow: () => local, timeoutMs: 60_000, retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 }, onRefreshFailed: (e) => refreshFailures.push(e) });
    const first = clock.now();
    await cfg.answer(1_000_500);
    await first;
    expect(refreshFailures).toEqual([]);
    local += 6_000;
    expect(await clock.now()).toBe(1_006_500);
    await cfg.answer(new Error('connection refused'));
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    // The failed refresh is told, not dropped.
    expect(refreshFailures.map((e) => e.message).join('\n')).toMatch(/connection refused/);
    // Far past its time to live (the refreshes failing): the read waits for a measure, and sees it fail.
    local += 60_000;
    const late = clock.now();
    expect(await settledOrPending(late)).toBe('pending');
    await cfg.answer(new Error('connection refused'));
    await expect(late).rejects.toThrow();
  });

  it('an invalidated offset is measured again before the next answer (a simulator clock that jumped)', async () => {
    const local = 1_000_000;
    const cfg = heldConfig();
    const clock = new ServerClock({ baseUrl: 'http://127.0.0.1:9', fetch: cfg.fetch, ttlMs: 5_000, localNow: () => local });
    const first = clock.now();
    await cfg.answer(1_000_500);
    await first;
    clock.invalidate();
    const next = clock.now();
    expect(await settledOrPending(next)).toBe('pending');
    await cfg.answer(4_000_000);
    expect(await next).toBe(4_000_000);
  });

  it('a dropped connection or a 5xx from GET /config is tried again before a read fails; a 4xx is not', async () => {
    const answers: (number | Error)[] = [];
    let calls = 0;
    const fetch = (async () => {
      calls++;
      const next = answers.shift()!;
      if (next instanceof Error) throw next;
      if (next >= 400 && next < 600) return new Response(JSON.stringify({ success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' }, timestamp: 1 }), { status: next, headers: { 'content-type': 'application/json' } });
      return new Response(JSON.stringify({ success: true, data: {}, timestamp: next }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const slept: number[] = [];
    const clock = () => new ServerClock({ baseUrl: 'http://127.0.0.1:9', fetch, localNow: () => 1_000_000, sleep: async (ms) => void slept.push(ms) });
    answers.push(new Error('other side closed'), 503, 1_000_700);
    expect(await clock().now()).toBe(1_000_700);
    expect(calls).toBe(3);
    expect(slept).toHaveLength(2);
    // A refusal is an answer: not asked again.
    calls = 0;
    answers.push(404);
    await expect(clock().now()).rejects.toThrow();
    expect(calls).toBe(1);
    // Four tries at most (the client's budget), then the last failure is the read's.
    calls = 0;
    answers.push(500, 500, 500, 500, 1);
    await expect(clock().now()).rejects.toThrow(/boom|500/);
    expect(calls).toBe(4);
  });
});

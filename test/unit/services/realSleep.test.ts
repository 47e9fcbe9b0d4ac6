/**
 * Issue #26 item 14: the context's real sleep (what a TWAP waits with between looks at its file) left its
 * abort listener on the signal every time its timer fired, so one TWAP waiting on its run's signal added
 * a listener per poll: MaxListenersExceededWarning after about 11 s, and a leak for as long as it ran.
 * The context now uses the one real sleep of src/main/api/retry.ts, which removes it.
 */
import { getEventListeners } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { simProfile } from '../../../src/main/profiles/profiles.js';
import { realSleep } from '../../../src/main/api/retry.js';
import { createServiceContext } from '../../../src/main/services/serviceContext.js';
import { serviceTwapClock } from '../../../src/main/services/algos/twap/twapRunner.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-sleep-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('real sleep', () => {
  it("the context's sleep (a TWAP's wait) leaves no abort listener behind, however many times it waits on one signal", async () => {
    // Loopback addresses that are never called: only the sleep is used.
    const ctx = createServiceContext(simProfile({ base_url: 'http://127.0.0.1:9', venue_info_url: 'http://127.0.0.1:9' }, dir), { keychainService: 'perps-test-sleep' });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const run = new AbortController();
      const clock = serviceTwapClock(ctx);
      for (let i = 0; i < 30; i++) await clock.sleep(1, run.signal);
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
      // Aborting still ends a wait at once, and takes its listener with it.
      const waiting = ctx.sleep(60_000, run.signal);
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
      run.abort(new Error('stop'));
      await expect(waiting).rejects.toThrow('stop');
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a wait of 0 is a yield to the event loop, not a timer (Node clamps a 0 ms timer to 1 ms: issue 38)', async () => {
    // Timers faked and never advanced: a wait that used one would never end.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await expect(realSleep(0)).resolves.toBeUndefined();
      await expect(realSleep(-5)).resolves.toBeUndefined();
      // An abort before the yield ends it with the signal's reason, and leaves no listener behind.
      const ac = new AbortController();
      const waiting = realSleep(0, ac.signal);
      ac.abort(new Error('stop'));
      await expect(waiting).rejects.toThrow('stop');
      expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
      // A wait of more than 0 is still a timer.
      let ended = false;
      void realSleep(5).then(() => (ended = true));
      await new Promise((r) => setImmediate(r));
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(5);
      expect(ended).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is the one real sleep (the retry helper and the context share it)', async () => {
    const ctx = createServiceContext(simProfile({ base_url: 'http://127.0.0.1:9', venue_info_url: 'http://127.0.0.1:9' }, dir), { keychainService: 'perps-test-sleep' });
    expect(ctx.sleep).toBe(realSleep);
  });
});

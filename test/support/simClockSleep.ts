/**
 * A wait on a simulator's manual clock, for an app core that keeps the simulator's time (its `service`
 * option's `sleep`, with `localNow` the same clock): it ends when the test's advance moves the clock to
 * it, or when its signal aborts. Unlike the command line's simClockTime (perpsWorld.ts), a wait never
 * moves the clock itself: an app has many waiters at once (pumps, trackers, runners), and the test alone
 * says when time passes. A wait of 0 or less yields to the event loop (the real sleep's answer).
 */
import { realSleep, type SleepFn } from '../../src/main/api/retry.js';
import type { SimClock } from '../../src/sim/runtime/clock.js';

export function sleepOnSimClock(clock: () => SimClock): SleepFn {
  return (ms, signal) => {
    if (!(ms > 0)) return realSleep(ms, signal);
    return new Promise<void>((resolve, reject) => {
      const aborted = () => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (signal?.aborted) return reject(aborted());
      const onAbort = (): void => {
        task.cancel();
        reject(aborted());
      };
      const task = clock().schedule(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
}

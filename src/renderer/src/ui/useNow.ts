/** One shared clock per period, so fifty countdowns cost one timer, not fifty. */
import { useSyncExternalStore } from 'react';

const clocks = new Map<number, { now: number; subs: Set<() => void>; timer: ReturnType<typeof setInterval> | null }>();

function clock(period: number) {
  let c = clocks.get(period);
  if (!c) {
    c = { now: Date.now(), subs: new Set(), timer: null };
    clocks.set(period, c);
  } else if (!c.timer) {
    // Not ticking (nobody watched it since): its time is from when it last ticked, maybe long ago.
    c.now = Date.now();
  }
  return c;
}

export function useNow(periodMs = 1000): number {
  const c = clock(periodMs);
  return useSyncExternalStore(
    (cb) => {
      c.subs.add(cb);
      if (!c.timer) {
        c.timer = setInterval(() => {
          c.now = Date.now();
          c.subs.forEach((f) => f());
        }, periodMs);
      }
      return () => {
        c.subs.delete(cb);
        if (c.subs.size === 0 && c.timer) {
          clearInterval(c.timer);
          c.timer = null;
        }
      };
    },
    () => c.now,
  );
}

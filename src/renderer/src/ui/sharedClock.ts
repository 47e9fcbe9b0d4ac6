/**
 * One shared clock per period, so fifty countdowns cost one timer, not fifty (useNow.ts reads it in
 * React). Plain code, apart from React, so its rule is tested alone.
 *
 * The rule: a clock ticks only while watched. Every reader between two ticks reads the same time, so the
 * views drawn in one pass agree and none has moved under another when React checks it after mounting.
 */
interface Clock {
  now: number;
  subs: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
}

const clocks = new Map<number, Clock>();

/**
 * An unwatched clock's time is read afresh once it is older than this (or than its period, if shorter):
 * reads in one render pass are milliseconds apart and agree, and a view opened later (the Points view's
 * minute clock just after midnight) does not start from a time a minute old.
 */
const FRESH_MS = 1_000;

function clockOf(period: number): Clock {
  let c = clocks.get(period);
  if (!c) {
    c = { now: Date.now(), subs: new Set(), timer: null };
    clocks.set(period, c);
  } else if (!c.timer && Date.now() - c.now >= Math.min(period, FRESH_MS)) {
    // Not ticking (nobody watched it since): its time is from when it last ticked, maybe long ago, and is
    // replaced. Not on every read: that made the second view of a first render (the top bar's key
    // countdown, then the market header's funding countdown) move the time under the first, which React
    // then rendered again right after mounting, before the terminal's first frame was done.
    c.now = Date.now();
  }
  return c;
}

/** The clock's time: the same for every read until its next tick (unwatched: for up to a second). */
export function clockNow(period: number): number {
  return clockOf(period).now;
}

/** Calls `onTick` at every tick of the `period` clock until the returned function is called. */
export function watchClock(period: number, onTick: () => void): () => void {
  const c = clockOf(period);
  c.subs.add(onTick);
  if (!c.timer) {
    c.timer = setInterval(() => {
      c.now = Date.now();
      c.subs.forEach((f) => f());
    }, period);
  }
  return () => {
    c.subs.delete(onTick);
    if (c.subs.size === 0 && c.timer) {
      clearInterval(c.timer);
      c.timer = null;
    }
  };
}

/**
 * The algorithms' time: the service's clock (their records' times are judged by it), and a wait on it.
 * Tests pass the simulator's own clock, whose waits advance it.
 */
import type { TradingContext } from '../orders/orderContext.js';

export interface AlgoClock {
  now(): Promise<number>;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The service clock of a context (its ServerClock) and the context's sleep, never running backwards: a
 * re-measured offset can move the service clock back by a few ms, and a time written after a due time
 * was reached must not come out before it.
 */
export function serviceAlgoClock(ctx: Pick<TradingContext, 'clock' | 'sleep'>): AlgoClock {
  let latest = 0;
  return {
    now: async () => (latest = Math.max(latest, await ctx.clock.now())),
    sleep: (ms, signal) => ctx.sleep(ms, signal),
  };
}

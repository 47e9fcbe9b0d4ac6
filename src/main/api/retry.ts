/**
 * Exponential backoff with full jitter: before retry n (0-based) wait a uniformly random time in
 * [0, min(maxDelayMs, baseDelayMs * 2^n)). Full jitter spreads the retries of many clients that failed
 * together (a server restart) instead of having them return in lockstep. Sleep and randomness are
 * injectable so tests run without real waiting and with known delays.
 */

export interface RetryPolicy {
  /** Total tries, the first one included: 1 means never retry. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;
export type RandomFn = () => number;

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 4_000 };

export function validateRetryPolicy(policy: RetryPolicy): RetryPolicy {
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1) throw new RangeError(`retry.attempts must be an integer >= 1, got ${policy.attempts}`);
  if (!(policy.baseDelayMs >= 0) || !(policy.maxDelayMs >= policy.baseDelayMs)) {
    throw new RangeError(`retry delays must satisfy 0 <= baseDelayMs <= maxDelayMs, got ${policy.baseDelayMs} and ${policy.maxDelayMs}`);
  }
  return policy;
}

/** Delay before retry number `retry` (0 for the first retry). */
export function backoffDelay(retry: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: RandomFn = Math.random): number {
  // 2^retry overflows to Infinity for large retry counts; min() keeps the cap meaningful.
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(retry, 52));
  return Math.floor(random() * ceiling);
}

/**
 * Waits `ms` of wall time; a signal's abort cuts it short. A wait of 0 (or less) is a yield to the event
 * loop on the next check phase (setImmediate), not a timer: Node clamps a 0 ms timer to 1 ms, and the
 * algorithms' step loop yields with `wait: 0` on every book message, where that millisecond is most of
 * what a chase adds to a re-price (issue 38's bench).
 */
export const realSleep: SleepFn = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const yieldOnly = !(ms > 0);
    const onAbort = (): void => {
      if (yieldOnly) clearImmediate(immediate);
      else clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const done = (): void => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const immediate = yieldOnly ? setImmediate(done) : undefined;
    const timer = yieldOnly ? undefined : setTimeout(done, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export interface RetryInfo {
  /** 1-based number of the attempt that just failed. */
  attempt: number;
  error: unknown;
  delayMs: number;
}

export interface RetryOptions {
  policy: RetryPolicy;
  /** Whether the failure of attempt `attempt` (1-based) is worth another try. */
  shouldRetry: (error: unknown, attempt: number) => boolean;
  sleep?: SleepFn;
  random?: RandomFn;
  signal?: AbortSignal;
  onRetry?: (info: RetryInfo) => void;
}

/**
 * Runs `fn` until it succeeds, fails with a non-retryable error, or the attempts run out; the last
 * error is rethrown unchanged (never wrapped), so callers still see the typed failure.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const sleep = opts.sleep ?? realSleep;
  const random = opts.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= opts.policy.attempts || !opts.shouldRetry(error, attempt) || opts.signal?.aborted) throw error;
      const delayMs = backoffDelay(attempt - 1, opts.policy, random);
      opts.onRetry?.({ attempt, error, delayMs });
      await sleep(delayMs, opts.signal);
    }
  }
}

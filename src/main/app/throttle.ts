/**
 * Coalescing throttle for one main-to-renderer event stream: at most one emission per interval (100 ms
 * gives the contract's ten a second), the latest value per key wins, and nothing is lost at the end.
 *
 * The first value after a quiet spell goes out at once (a fill should not wait 100 ms for company).
 * Values arriving while the stream is within its interval are buffered by key, replacing earlier values
 * of the same key (a mark superseded before delivery is worthless), and go out together when the
 * interval ends. flush() delivers the buffer now regardless of the interval and close() does that and
 * stops the stream: a pending value is always delivered, never dropped.
 */

export interface ThrottleOptions<T> {
  /** Minimum time between two emissions. */
  intervalMs: number;
  /** Key of a value: a later value with the same key replaces a pending one. */
  key: (value: T) => string;
  /** Receives the pending values (in first-arrival order of their keys). */
  emit: (values: T[]) => void;
  /** Clock and timers, injectable for tests. */
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Where a throwing emit is reported (the stream keeps going). */
  onError?: (err: unknown) => void;
}

export class Throttle<T> {
  private readonly intervalMs: number;
  private readonly keyOf: (value: T) => string;
  private readonly emitFn: (values: T[]) => void;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly onError: (err: unknown) => void;
  private readonly pending = new Map<string, T>();
  private lastEmitAt = -Infinity;
  private timer: unknown = null;
  private closed = false;
  /** Emissions so far (tests and diagnostics). */
  emissions = 0;

  constructor(options: ThrottleOptions<T>) {
    if (!(options.intervalMs > 0)) throw new Error('intervalMs must be positive');
    this.intervalMs = options.intervalMs;
    this.keyOf = options.key;
    this.emitFn = options.emit;
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as NodeJS.Timeout));
    this.onError = options.onError ?? ((err) => console.error(`[throttle] emit failed: ${(err as Error).message}`));
  }

  /** Number of values waiting for the next emission. */
  get size(): number {
    return this.pending.size;
  }

  push(value: T): void {
    if (this.closed) return;
    const key = this.keyOf(value);
    // Map.set on an existing key replaces the value but keeps the key's first position, so a batch keeps
    // a stable order while each key carries its latest value.
    this.pending.set(key, value);
    if (this.timer !== null) return;
    const wait = this.lastEmitAt + this.intervalMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer = this.setTimer(() => this.onTimer(), wait);
  }

  pushAll(values: readonly T[]): void {
    for (const v of values) this.push(v);
  }

  /** Delivers everything pending now. */
  flush(): void {
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    if (this.pending.size === 0) return;
    const values = [...this.pending.values()];
    this.pending.clear();
    this.lastEmitAt = this.now();
    this.emissions++;
    try {
      this.emitFn(values);
    } catch (err) {
      this.onError(err);
    }
  }

  /** Delivers what is pending and stops accepting values. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  private onTimer(): void {
    this.timer = null;
    this.flush();
  }
}

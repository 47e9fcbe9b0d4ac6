/**
 * The simulator's single source of time.
 *
 * Every delay in the simulator (order progression, withdrawal review, key expiry, funding, quote lifetime)
 * is scheduled on this clock instead of setTimeout, so that with `manual` mode tests move time only through
 * POST /sim/advance and every run is deterministic.
 */
export interface ScheduledTask {
  readonly id: number;
  readonly at: number;
  cancel(): void;
}

interface Entry {
  id: number;
  at: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
}

export interface SimClockOptions {
  /** When true, time only moves through advance(); otherwise it follows the wall clock. */
  manual: boolean;
  /** Start time in Unix ms (manual mode); defaults to Date.now(). */
  start?: number;
  /** Wall-clock source, injectable for tests. */
  wallNow?: () => number;
}

export class SimClock {
  readonly manual: boolean;
  private readonly wallNow: () => number;
  private manualNow: number;
  /** Offset added to wall time after advance() in automatic mode, so advance works there too. */
  private offset = 0;
  private seq = 0;
  private nextId = 1;
  private queue: Entry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private draining = false;

  constructor(options: SimClockOptions) {
    this.manual = options.manual;
    this.wallNow = options.wallNow ?? Date.now;
    this.manualNow = options.start ?? this.wallNow();
  }

  now(): number {
    return this.manual ? this.manualNow : this.wallNow() + this.offset;
  }

  /** Runs `run` once the simulated time reaches now() + delayMs (in order of due time, then scheduling order). */
  schedule(delayMs: number, run: () => void): ScheduledTask {
    return this.scheduleAt(this.now() + Math.max(0, delayMs), run);
  }

  scheduleAt(at: number, run: () => void): ScheduledTask {
    const entry: Entry = { id: this.nextId++, at, seq: this.seq++, run, cancelled: false };
    this.insert(entry);
    this.arm();
    return {
      id: entry.id,
      at,
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  /** Moves time forward by ms and runs everything that fell due, in order. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance: ms must be a non-negative finite number');
    const target = this.now() + ms;
    if (this.manual) {
      // Step through due tasks so each one sees now() equal to its own due time.
      for (;;) {
        const head = this.peekLive();
        if (!head || head.at > target) break;
        this.manualNow = Math.max(this.manualNow, head.at);
        this.runDue();
      }
      this.manualNow = target;
      this.runDue();
    } else {
      this.offset += ms;
      this.runDue();
      this.arm();
    }
  }

  /** Runs every task due at the current time. */
  runDue(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        const head = this.peekLive();
        if (!head || head.at > this.now()) break;
        this.queue.shift();
        head.run();
      }
    } finally {
      this.draining = false;
    }
  }

  pending(): number {
    return this.queue.filter((e) => !e.cancelled).length;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
  }

  private peekLive(): Entry | undefined {
    while (this.queue.length > 0 && this.queue[0]!.cancelled) this.queue.shift();
    return this.queue[0];
  }

  private insert(entry: Entry): void {
    // Binary insertion keeps the queue ordered by (at, seq).
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = this.queue[mid]!;
      if (m.at < entry.at || (m.at === entry.at && m.seq < entry.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, entry);
  }

  private arm(): void {
    if (this.manual || this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const head = this.peekLive();
    if (!head) return;
    const delay = Math.max(0, head.at - this.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runDue();
      this.arm();
    }, Math.min(delay, 2 ** 31 - 1));
    this.timer.unref();
  }
}

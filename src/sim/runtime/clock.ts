/**
 * The simulator's single source of time.
 *
 * Every delay in the simulator (order progression, withdrawal review, key expiry, funding, quote lifetime)
 * is scheduled on this clock instead of setTimeout, so that with `manual` mode tests move time only through
 * POST /sim/advance and every run is deterministic.
 *
 * Advancing costs what happens in the span, not its length. Work that only needs to see the present
 * (the venue's price walk, which re-arms itself every tick) is scheduled through coalescingView(): when
 * a manual advance jumps far ahead, such a task sleeps through the span (jobs and funding hours in it
 * still run, each at its own time) and runs late, once, at the start of the advance's last
 * EXACT_REPLAY_MS, re-arming from there. That last part of every advance, and so every short advance,
 * still replays tick by tick, exactly as before.
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
  /** Scheduled through a coalescing view: may run later than `at` during a long manual advance. */
  coalesce: boolean;
}

/** The part of an advance in which coalescing tasks still run at their own due times (10 minutes). */
export const EXACT_REPLAY_MS = 10 * 60_000;

/** Time and queue, shared by a clock and its coalescing view. */
interface ClockState {
  manualNow: number;
  /** Offset added to wall time after advance() in automatic mode, so advance works there too. */
  offset: number;
  seq: number;
  nextId: number;
  queue: Entry[];
  timer: NodeJS.Timeout | null;
  stopped: boolean;
  draining: boolean;
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
  private readonly state: ClockState;
  private readonly coalesce: boolean;

  /** `view` is internal: coalescingView() passes the clock it shares time and queue with. */
  constructor(options: SimClockOptions, view?: { of: SimClock }) {
    this.manual = options.manual;
    this.wallNow = options.wallNow ?? Date.now;
    this.coalesce = view !== undefined;
    this.state = view?.of.state ?? {
      manualNow: options.start ?? this.wallNow(),
      offset: 0,
      seq: 0,
      nextId: 1,
      queue: [],
      timer: null,
      stopped: false,
      draining: false,
    };
  }

  /**
   * The same clock (same time, same queue), for work that only needs to see the present: a task
   * scheduled through it may run late during a long manual advance (see the file comment), seeing the
   * time it actually runs at. The venue's walk uses it, so advancing a day costs a day's jobs and
   * funding hours plus EXACT_REPLAY_MS of ticks, not 86 400 walk steps.
   */
  coalescingView(): SimClock {
    return new SimClock({ manual: this.manual, wallNow: this.wallNow }, { of: this });
  }

  now(): number {
    return this.manual ? this.state.manualNow : this.wallNow() + this.state.offset;
  }

  /** Runs `run` once the simulated time reaches now() + delayMs (in order of due time, then scheduling order). */
  schedule(delayMs: number, run: () => void): ScheduledTask {
    return this.scheduleAt(this.now() + Math.max(0, delayMs), run);
  }

  scheduleAt(at: number, run: () => void): ScheduledTask {
    const entry: Entry = { id: this.state.nextId++, at, seq: this.state.seq++, run, cancelled: false, coalesce: this.coalesce };
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
    if (!Number.isSafeInteger(Math.round(target))) throw new RangeError('advance: the clock would pass the largest safe integer');
    const state = this.state;
    if (this.manual) {
      // Step through due tasks so each one sees now() equal to its own due time; a coalescing task due
      // before the replay window is deferred to the window's start instead (see the file comment).
      const replayFrom = target - EXACT_REPLAY_MS;
      for (;;) {
        const head = this.peekLive();
        if (!head || head.at > target) break;
        if (head.coalesce && head.at < replayFrom) {
          this.defer(head, replayFrom);
          continue;
        }
        state.manualNow = Math.max(state.manualNow, head.at);
        this.runDue();
      }
      state.manualNow = target;
      this.runDue();
    } else {
      state.offset += ms;
      this.runDue();
      this.arm();
    }
  }

  /** Runs every task due at the current time. */
  runDue(): void {
    const state = this.state;
    if (state.draining) return;
    state.draining = true;
    try {
      for (;;) {
        const head = this.peekLive();
        if (!head || head.at > this.now()) break;
        state.queue.shift();
        head.run();
      }
    } finally {
      state.draining = false;
    }
  }

  pending(): number {
    return this.state.queue.filter((e) => !e.cancelled).length;
  }

  stop(): void {
    const state = this.state;
    state.stopped = true;
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
    state.queue = [];
  }

  private peekLive(): Entry | undefined {
    const queue = this.state.queue;
    while (queue.length > 0 && queue[0]!.cancelled) queue.shift();
    return queue[0];
  }

  /**
   * Moves the queue's head to a later due time (a coalescing task skipping the long part of an
   * advance). Its ScheduledTask keeps the original `at`: the task runs late, not rescheduled.
   */
  private defer(head: Entry, at: number): void {
    this.state.queue.shift();
    head.at = at;
    this.insert(head);
  }

  private insert(entry: Entry): void {
    // Binary insertion keeps the queue ordered by (at, seq).
    const queue = this.state.queue;
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = queue[mid]!;
      if (m.at < entry.at || (m.at === entry.at && m.seq < entry.seq)) lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, entry);
  }

  private arm(): void {
    const state = this.state;
    if (this.manual || state.stopped) return;
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
    const head = this.peekLive();
    if (!head) return;
    const delay = Math.max(0, head.at - this.now());
    state.timer = setTimeout(() => {
      state.timer = null;
      this.runDue();
      this.arm();
    }, Math.min(delay, 2 ** 31 - 1));
    state.timer.unref();
  }
}

/**
 * Is the upstream feed alive? Live while some data (a WebSocket message or a polled answer) arrived
 * within the outage window; down once none has for that long. Wall-clock time, not the SimClock: the
 * upstream lives in real time even when the simulator's clock is manual.
 */
export type FeedState = 'live' | 'down';

export interface FeedChange {
  state: FeedState;
  /** Wall-clock ms of the change. */
  at: number;
  /** When it went down (for 'down'), or how long it was down (for 'live' after an outage). */
  downSince: number | null;
  downForMs: number | null;
}

export class FeedHealth {
  private lastDataAt: number;
  private current: FeedState = 'live';
  private downSince: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly outageAfterMs: number,
    private readonly onChange: (change: FeedChange) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.lastDataAt = now();
  }

  start(checkEveryMs: number): void {
    this.timer = setInterval(() => this.check(), checkEveryMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get state(): FeedState {
    return this.current;
  }

  get since(): number | null {
    return this.downSince;
  }

  get lastData(): number {
    return this.lastDataAt;
  }

  /** Fresh data arrived: an outage ends here, before the data is applied. */
  noteData(): void {
    const now = this.now();
    this.lastDataAt = now;
    if (this.current === 'down') {
      const since = this.downSince ?? now;
      this.current = 'live';
      this.downSince = null;
      this.onChange({ state: 'live', at: now, downSince: null, downForMs: now - since });
    }
  }

  /** Whether data arrived within the last `ms`. */
  freshWithin(ms: number): boolean {
    return this.now() - this.lastDataAt <= ms;
  }

  check(): void {
    const now = this.now();
    if (this.current === 'live' && now - this.lastDataAt > this.outageAfterMs) {
      this.current = 'down';
      this.downSince = this.lastDataAt;
      this.onChange({ state: 'down', at: now, downSince: this.lastDataAt, downForMs: null });
    }
  }
}

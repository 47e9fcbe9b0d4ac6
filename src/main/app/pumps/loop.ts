/**
 * A background loop: `step` returns the delay before the next run, or null to idle until kick(). stop()
 * waits for a running step, so nothing runs against a torn-down session. A failing step is logged and
 * retried after a backoff; none is ever left as an unhandled rejection.
 */
import type { AppLogger } from '../adapters.js';

const ERROR_BACKOFF_MS = 5_000;

export class Loop {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private wake = false;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly step: () => Promise<number | null>,
    private readonly logger: AppLogger,
  ) {}

  kick(delayMs = 0): void {
    if (this.stopped) return;
    if (this.current) {
      this.wake = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), delayMs);
  }

  private run(): void {
    this.timer = null;
    this.current = (async () => {
      let next: number | null;
      try {
        next = await this.step();
      } catch (err) {
        this.logger.warn(`[pumps] ${this.name} failed, retrying in ${ERROR_BACKOFF_MS / 1000} s: ${(err as Error).message}`);
        next = ERROR_BACKOFF_MS;
      }
      this.current = null;
      if (this.stopped) return;
      if (this.wake) {
        this.wake = false;
        next = 0;
      }
      if (next !== null) this.timer = setTimeout(() => this.run(), next);
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }
}

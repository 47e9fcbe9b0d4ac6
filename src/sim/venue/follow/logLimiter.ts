/**
 * A rate limit on the follower's log (issue 26): an upstream that sends ten thousand malformed messages a
 * second must not fill stderr. Lines of one kind (a key such as 'malformed' or 'held BTC') are written
 * at most `perWindow` times per window; the rest are counted, and once the window is over one line says
 * how many were suppressed. Different kinds do not starve each other. Lines quote what the upstream sent,
 * so each is cut to a length and its control characters (a terminal's escape sequences) are replaced.
 */
export interface LogLimiterOptions {
  /** Lines of one kind written per window (default 5). */
  perWindow?: number;
  /** Window length in ms (default 1000). */
  windowMs?: number;
  now?: () => number;
}

interface KindWindow {
  start: number;
  written: number;
  suppressed: number;
}

export class LogLimiter {
  private readonly perWindow: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly kinds = new Map<string, KindWindow>();
  private timer: NodeJS.Timeout | null = null;

  private readonly write: (line: string) => void;

  constructor(
    write: (line: string) => void,
    options: LogLimiterOptions = {},
  ) {
    this.perWindow = options.perWindow ?? 5;
    this.windowMs = options.windowMs ?? 1000;
    this.now = options.now ?? Date.now;
    this.write = (line) => write(printable(line));
  }

  /** Writes `line` unless `kind` already had its share of this window. */
  line(kind: string, line: string): void {
    const now = this.now();
    let window = this.kinds.get(kind);
    if (window && now - window.start >= this.windowMs) {
      this.close(kind, window);
      window = undefined;
    }
    if (!window) {
      window = { start: now, written: 0, suppressed: 0 };
      this.kinds.set(kind, window);
    }
    if (window.written < this.perWindow) {
      window.written++;
      this.write(line);
      return;
    }
    window.suppressed++;
    this.armFlush();
  }

  /** Writes the summary of every window that is over (called by a timer; tests call it directly). */
  flush(): void {
    const now = this.now();
    for (const [kind, window] of this.kinds) if (now - window.start >= this.windowMs) this.close(kind, window);
  }

  /** Writes what is still suppressed and stops the timer. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const [kind, window] of this.kinds) this.close(kind, window);
  }

  private close(kind: string, window: KindWindow): void {
    this.kinds.delete(kind);
    if (window.suppressed > 0) this.write(`[sim follow] suppressed ${window.suppressed} similar line${window.suppressed === 1 ? '' : 's'} (${kind}) in ${this.windowMs} ms`);
  }

  private armFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
      // Windows that are still open get their summary at their own end.
      if ([...this.kinds.values()].some((w) => w.suppressed > 0)) this.armFlush();
    }, this.windowMs);
    this.timer.unref();
  }
}

/** The longest line written; the rest of a longer one is cut. */
export const MAX_LINE_CHARS = 1000;

/** One printable line: control characters (newlines, ESC, ...) become U+FFFD, long lines are cut. */
function printable(line: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const clean = line.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
  return clean.length <= MAX_LINE_CHARS ? clean : `${clean.slice(0, MAX_LINE_CHARS)}…`;
}

/**
 * Progress for long waits (a withdrawal on its way to COMPLETED, an order filling). Shown only to a
 * person: on stderr, only when stderr is a TTY, and never with --json, so scripts and pipes see nothing
 * but the result. One line, rewritten in place.
 */
import type { Writable } from 'node:stream';

export interface Progress {
  /** Replaces the progress line. */
  update(text: string): void;
  /** Clears the line; prints `text` on its own line if given. */
  done(text?: string): void;
}

const FRAMES = ['|', '/', '-', '\\'];
const SPIN_MS = 120;

const silent: Progress = { update: () => undefined, done: () => undefined };

export function createProgress(options: { json: boolean; stream?: Writable & { isTTY?: boolean } }): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.json || !stream.isTTY) return silent;
  let text = '';
  let frame = 0;
  let timer: NodeJS.Timeout | null = null;
  const draw = (): void => {
    stream.write(`\r\x1b[2K${FRAMES[frame % FRAMES.length]} ${text}`);
  };
  return {
    update(next: string) {
      text = next;
      if (!timer) {
        timer = setInterval(() => {
          frame++;
          draw();
        }, SPIN_MS);
        // A spinner must never keep the process alive on its own.
        timer.unref();
      }
      draw();
    },
    done(final?: string) {
      if (timer) clearInterval(timer);
      timer = null;
      stream.write('\r\x1b[2K');
      if (final) stream.write(final + '\n');
    },
  };
}

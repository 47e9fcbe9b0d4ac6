/** Terminal prompts shared by the commands that ask for a secret (keystore passwords). */
import type { Readable, Writable } from 'node:stream';
import { ValidationError } from '../main/services/errors.js';

/** A TTY stdin: raw mode lets the typed characters stay off the screen. */
export type RawStdin = Readable & { setRawMode: (mode: boolean) => unknown };

/** Reads a line from a terminal without echoing it (raw mode; Ctrl-C aborts). */
export function promptHidden(prompt: string, stdin: RawStdin, out: Writable): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    out.write(prompt);
    let value = '';
    stdin.setRawMode(true);
    stdin.resume();
    const cleanup = (): void => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      out.write('\n');
    };
    const onData = (chunk: Buffer | string): void => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          cleanup();
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          cleanup();
          reject(new ValidationError('password entry cancelled', { field: 'signer', code: 'CANCELLED' }));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

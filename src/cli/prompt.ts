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

/** Whether a person is at the terminal: stdin and stderr are both TTYs (a pipe or a script is not asked). */
export function atTerminal(stdin: NodeJS.ReadStream = process.stdin, stderr: NodeJS.WriteStream = process.stderr): boolean {
  return stdin.isTTY === true && stderr.isTTY === true;
}

/**
 * Asks a yes/no question on the terminal (the prompt on stderr, so stdout keeps only the result). An
 * empty answer takes `fallback`; anything but y/yes/n/no asks again; the end of input is a no.
 */
export async function askYesNo(question: string, fallback: boolean, stdin: Readable = process.stdin, out: Writable = process.stderr): Promise<boolean> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: stdin, output: out, terminal: false });
  try {
    for (;;) {
      const answer = await new Promise<string | null>((resolve) => {
        out.write(`${question} ${fallback ? '[Y/n]' : '[y/N]'} `);
        const onLine = (line: string): void => {
          rl.off('close', onClose);
          resolve(line);
        };
        const onClose = (): void => {
          rl.off('line', onLine);
          resolve(null);
        };
        rl.once('line', onLine);
        rl.once('close', onClose);
      });
      if (answer === null) return false;
      const a = answer.trim().toLowerCase();
      if (a === '') return fallback;
      if (a === 'y' || a === 'yes') return true;
      if (a === 'n' || a === 'no') return false;
    }
  } finally {
    rl.close();
  }
}

/**
 * `perps ARGS` run in this very process (src/cli/main.ts's main), its stdout and stderr captured and its
 * exit code read from process.exitCode: the same program a shell runs, without a child process's
 * start-up (seconds on a busy 2-core machine). For refusals and reads; anything that must be killed or
 * that needs a terminal runs as a child (perpsCli.ts).
 *
 * Runs are serialized: the capture replaces process.stdout.write and process.stderr.write while one runs.
 */
import { main, type MainOptions } from '../../src/cli/main.js';
import type { PerpsRun } from './perpsCli.js';

let queue: Promise<unknown> = Promise.resolve();

export function perpsInProcess(args: readonly string[], env: Record<string, string> = {}, options: MainOptions = {}): Promise<PerpsRun> {
  const run = queue.then(() => runOnce(args, env, options));
  queue = run.catch(() => undefined);
  return run;
}

async function runOnce(args: readonly string[], env: Record<string, string>, options: MainOptions): Promise<PerpsRun> {
  const saved = { out: process.stdout.write, err: process.stderr.write, exitCode: process.exitCode, env: { ...process.env } };
  let stdout = '';
  let stderr = '';
  const capture = (append: (s: string) => void) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      cb?.();
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture((s) => (stdout += s));
  process.stderr.write = capture((s) => (stderr += s));
  Object.assign(process.env, env);
  process.exitCode = undefined;
  try {
    await main(['node', 'perps', ...args], options);
    return { code: typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0), stdout, stderr };
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    process.exitCode = saved.exitCode;
    for (const k of Object.keys(env)) {
      if (saved.env[k] === undefined) delete process.env[k];
      else process.env[k] = saved.env[k];
    }
  }
}

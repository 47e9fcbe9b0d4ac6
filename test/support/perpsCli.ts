/** The real `perps` program (bin/perps.js) in a child process, for tests of what a user's shell sees. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

export interface PerpsRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface StartedPerps {
  /** The child's pid: bin/perps.js runs the CLI in this very process (tsx registers in-process). */
  pid: number;
  done: Promise<PerpsRun>;
}

/** A person at the terminal: sees stderr grow and may type on stdin (a pipe, kept open). */
export type Interact = (stderr: string, type: (text: string) => void) => void;

/** Starts `perps ARGS` with stdin closed (or, with `interact`, a pipe it types on); killed after `timeoutMs`. */
export function startPerps(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 90_000, interact?: Interact): StartedPerps {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/perps.js'), ...args], { env, cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  // Without a person, stdin is at its end from the start, as with a closed terminal.
  if (!interact) child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
    interact?.(stderr, (text) => child.stdin.write(text));
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise<PerpsRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
  if (child.pid === undefined) throw new Error('perps did not start');
  return { pid: child.pid, done };
}

export function runPerps(args: string[], env: NodeJS.ProcessEnv): Promise<PerpsRun> {
  return startPerps(args, env).done;
}

/** stdout of a --json run as its one document. */
export function jsonOf(run: PerpsRun): Record<string, unknown> & { error?: Record<string, unknown> } {
  try {
    return JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

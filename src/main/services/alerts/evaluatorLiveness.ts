/**
 * Who changed an alert's crossing state, and whether that evaluator still runs: the alerts file records the
 * host and process of the evaluator that last fired or re-armed an alert (`state_by`), so that another
 * evaluator on the same data folder can tell "the other is still reading the stream, ahead of me" from "the
 * other has stopped, and its state is all there is" (alertEvaluator.ts).
 */
import os from 'node:os';

/** This process's evaluator identity: `host:pid`. */
export function thisEvaluator(): string {
  return `${os.hostname()}:${process.pid}`;
}

/**
 * True when the evaluator `id` (as written by thisEvaluator) is a process running on this host now. A file
 * edited by hand, another host's process (a data folder shared between machines) or a process that has
 * ended reads as not running: its state is then judged by its age alone. A reused process id reads as
 * running; the evaluator that defers to it catches up by its own reading of the stream within a crossing.
 */
export function evaluatorRunning(id: string): boolean {
  const at = id.lastIndexOf(':');
  if (at <= 0) return false;
  const host = id.slice(0, at);
  const pidText = id.slice(at + 1);
  if (host !== os.hostname() || !/^[1-9][0-9]{0,9}$/.test(pidText)) return false;
  const pid = Number(pidText);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

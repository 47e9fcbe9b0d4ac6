/**
 * The synchronous record lock of the stores whose callers are synchronous (withdrawals, TWAPs), under the
 * data folder's lock rule (lockRule.ts: stale after 5 s, waited for 15 s).
 */
import lockfile from 'proper-lockfile';
import { LOCK_STALE_MS, LOCK_WAIT_MS } from './lockRule.js';

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` (the stores' callers are synchronous, so their wait for a lock is too). */
function sleepSync(ms: number): void {
  Atomics.wait(sleepBuffer, 0, 0, ms);
}

/**
 * Runs `work` holding the lock of `file`, waiting for other processes' turns. A lock still held after
 * LOCK_WAIT_MS throws `busy(why, cause)`: the store names the file and the error type in its own terms;
 * `why` says what happened, the same for every store ("stayed locked by another Perps Desk process for 15 s").
 */
export function withFileLockSync<T>(file: string, busy: (why: string, cause: unknown) => Error, work: () => T): T {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let release: () => void;
  let released = false;
  /**
   * proper-lockfile checks a held lock's mtime on a timer and, by default, throws from that timer when the
   * lock was taken over. The work here is synchronous, so that timer never runs while the lock is held;
   * it can only run for a lock this holder has given up whose release could not find it (taken over in
   * between, the work refused by assertUnchangedSince for that very reason, already reported). Then there
   * is nothing to say: only a compromise while held would be news, and it is thrown.
   */
  const onCompromised = (err: Error): void => {
    if (!released) throw err;
  };
  for (let attempt = 0; ; attempt++) {
    try {
      release = lockfile.lockSync(file, { realpath: false, stale: LOCK_STALE_MS, onCompromised });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      if (Date.now() > deadline) throw busy(`stayed locked by another Perps Desk process for ${LOCK_WAIT_MS / 1000} s`, err);
      sleepSync(Math.min(2 + attempt * 2, 25));
    }
  }
  let result: T;
  try {
    result = work();
  } catch (err) {
    released = true;
    try {
      release();
    } catch {
      // A lock that cannot be released was lost (taken over while this holder stalled): the work's own
      // error (a write refused for that very reason) is the one that says what happened.
    }
    throw err;
  }
  released = true;
  release();
  return result;
}

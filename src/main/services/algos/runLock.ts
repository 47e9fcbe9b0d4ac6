/**
 * One process runs a long-running algorithm (a TWAP, a trailing stop, an OCO pair) at a time:
 * <its folder>/<id>.run names the process that runs it (its pid, host and a random token). A second
 * process that tries to run the same one gets `<KIND>_LOCKED` with that pid; a lock whose process is gone
 * (kill -9, a crash, a power cut) is taken over, which is what a resume or a restart does after a crash.
 * Checking and writing the lock happen under the file's short write lock (proper-lockfile), so two
 * processes taking over the same stale lock cannot both win.
 *
 * Liveness is `kill(pid, 0)` on this host. A lock written on another host (a data folder on a network
 * share) cannot be checked from here, so it counts as held and the error says which host has it. A pid
 * reused by an unrelated process after a crash also reads as alive: the error names the pid, and the lock
 * file can be removed once that process is known not to be Perps Desk.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomicSync } from '../../files/atomicWrite.js';
import { readRecordText, UnreadableRecordFile } from '../../files/recordFiles.js';
import { OperationError } from '../errors.js';
import { withAlgoFileLock } from './algoFileLock.js';

export interface RunLockHolder {
  pid: number;
  hostname: string;
  since: number;
  token: string;
}

export interface RunLock {
  readonly holder: RunLockHolder;
  /** Removes the lock if it is still this one (never another process's). */
  release(): void;
}

/** What the errors call the algorithm: "TWAP", code prefix "TWAP", and how to stop it from elsewhere. */
export interface AlgoNaming {
  /** In words: "TWAP", "trailing stop", "OCO pair". */
  what: string;
  /** Error code prefix: TWAP -> TWAP_LOCKED, TWAP_STORE_BUSY. */
  code: string;
  /** How to stop it from another process, for the LOCKED error's hint. */
  stopHint: (id: string) => string;
}

export function runLockFile(dir: string, id: string): string {
  return path.join(dir, `${id}.run`);
}

function readHolder(file: string): RunLockHolder | null {
  let text: string | undefined;
  try {
    // A regular file of a few bytes only: a FIFO or link planted as the lock is never waited on or followed.
    text = readRecordText(file, 4_096);
  } catch (err) {
    if (!(err instanceof UnreadableRecordFile)) throw err;
    // Not a lock this app wrote: counts as no live holder; taking it over refuses to write over a non-file.
    return { pid: -1, hostname: os.hostname(), since: 0, token: '' };
  }
  if (text === undefined) return null;
  try {
    const v = JSON.parse(text) as Partial<RunLockHolder>;
    if (typeof v.pid === 'number' && typeof v.hostname === 'string' && typeof v.token === 'string' && typeof v.since === 'number') return v as RunLockHolder;
  } catch {
    // A lock file cut short is treated like no lock below: written atomically, it can only be damage.
  }
  return { pid: -1, hostname: os.hostname(), since: 0, token: '' };
}

/** True when the process named by the lock runs (or cannot be checked from this host). */
export function holderAlive(h: RunLockHolder): boolean {
  if (h.hostname !== os.hostname()) return true;
  if (!Number.isInteger(h.pid) || h.pid <= 0) return false;
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process running `id`, or null (no lock, or a stale one). */
export function liveRunner(dir: string, id: string): RunLockHolder | null {
  const h = readHolder(runLockFile(dir, id));
  return h && holderAlive(h) ? h : null;
}

/** Takes the run lock of `id` for this process, taking over a stale one; `<code>_LOCKED` when a live process holds it. */
export function acquireRunLock(dir: string, id: string, naming: AlgoNaming, now: () => number = Date.now): RunLock {
  const file = runLockFile(dir, id);
  const holder: RunLockHolder = { pid: process.pid, hostname: os.hostname(), since: now(), token: randomBytes(12).toString('hex') };
  withAlgoFileLock(file, naming.code, () => {
    const current = readHolder(file);
    if (current && holderAlive(current)) {
      const where = current.hostname === os.hostname() ? (current.pid === process.pid ? 'this process' : `process ${current.pid}`) : `process ${current.pid} on ${current.hostname}`;
      throw new OperationError(`${naming.code}_LOCKED`, `${naming.what} ${id} is already running in ${where} (since ${new Date(current.since).toISOString()})`, {
        hint: `Only one process runs a ${naming.what}. ${naming.stopHint(id)}; if that process is not Perps Desk, remove ${file}.`,
      });
    }
    writeFileAtomicSync(file, JSON.stringify(holder) + '\n');
  });
  let released = false;
  return {
    holder,
    release() {
      if (released) return;
      released = true;
      withAlgoFileLock(file, naming.code, () => {
        const current = readHolder(file);
        if (current?.token === holder.token) fs.rmSync(file, { force: true });
      });
    },
  };
}

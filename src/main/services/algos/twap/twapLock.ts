/**
 * One process runs a TWAP at a time: the algorithms' run lock (algos/runLock.ts) under the TWAP's name,
 * so a second process gets TWAP_LOCKED naming the pid that runs it, and a stale lock is taken over.
 */
import { acquireRunLock as acquireAlgoRunLock, type AlgoNaming, type RunLock } from '../runLock.js';

export { holderAlive, liveRunner, runLockFile, type RunLock, type RunLockHolder } from '../runLock.js';

export const TWAP_NAMING: AlgoNaming = {
  what: 'TWAP',
  code: 'TWAP',
  stopHint: (id) => `Pause or cancel it from here with \`perps twap pause ${id}\` / \`perps twap cancel ${id}\``,
};

/** Takes the run lock of TWAP `id` for this process, taking over a stale one; TWAP_LOCKED when a live process holds it. */
export function acquireRunLock(dir: string, id: string, now: () => number = Date.now): RunLock {
  return acquireAlgoRunLock(dir, id, TWAP_NAMING, now);
}

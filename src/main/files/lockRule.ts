/**
 * The one rule for the short file locks that processes sharing a data folder (the app and the command
 * line) take around a read-modify-write: the withdrawal and TWAP record stores (recordLock.ts) and the
 * nonce file (nonces/nonceSource.ts, which loads proper-lockfile only when it first signs).
 *
 * A lock is proper-lockfile's atomic mkdir of FILE.lock. A writer holds it for milliseconds, and
 * proper-lockfile refreshes a held lock's time well inside LOCK_STALE_MS; a lock older than that was left
 * by a process that died holding it (kill -9, a power cut) and is taken over. Waiters wait LOCK_WAIT_MS,
 * longer than a dead holder's lock can last, so a crash in the wrong millisecond costs the next writer a
 * few seconds, never a failure; only a lock a live process keeps for that long is reported.
 */
export const LOCK_STALE_MS = 5_000;
export const LOCK_WAIT_MS = LOCK_STALE_MS * 3;

/**
 * What every folder of one-JSON-file-per-record stores (withdrawals, TWAPs) needs besides the atomic
 * writer: reading a record that may not exist yet, and sweeping what a killed writer left behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isAtomicWriteTemp } from './atomicWrite.js';

/** Largest record file read by default: far above any record these stores write, far below what would exhaust memory. */
export const MAX_RECORD_FILE_BYTES = 8 * 1024 * 1024;

/** A record file that is not one: a link, a folder, a FIFO or device, or larger than the cap. Never read further. */
export class UnreadableRecordFile extends Error {
  constructor(
    readonly file: string,
    readonly why: string,
  ) {
    super(`${file} ${why}`);
    this.name = 'UnreadableRecordFile';
  }
}

// O_NOFOLLOW: a planted link (to /dev/zero, to another user's file) is refused, never followed.
// O_NONBLOCK: opening a FIFO planted under a record's name returns at once instead of waiting for a
// writer (with a store lock held, that wait would stall every process of the data folder).
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * The text of `file`, or undefined when there is no such file. Only a regular file of at most `maxBytes`
 * is read; anything else throws UnreadableRecordFile saying what it is, without reading a byte of it.
 */
export function readRecordText(file: string, maxBytes: number = MAX_RECORD_FILE_BYTES): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, READ_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new UnreadableRecordFile(file, 'is a symbolic link (links are never followed)');
    if (code === 'EISDIR') throw new UnreadableRecordFile(file, 'is a folder, not a file');
    throw err;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw new UnreadableRecordFile(file, `is ${stats.isDirectory() ? 'a folder' : stats.isFIFO() ? 'a FIFO' : stats.isSocket() ? 'a socket' : 'a device'}, not a regular file`);
    if (stats.size > maxBytes) throw new UnreadableRecordFile(file, `is ${stats.size} bytes, more than the ${maxBytes} a record file may hold`);
    // Read to the cap and one byte past it: a file that grows while it is read is refused too.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total));
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > maxBytes) throw new UnreadableRecordFile(file, `grew past the ${maxBytes} bytes a record file may hold while it was read`);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The parsed JSON of `file`, or undefined when there is no such file. A file that is not a regular file
 * within the cap, or whose text is not JSON, throws `damaged(why)`: records are only ever written
 * atomically, so that is damage from outside, and the caller words it (without quoting the content,
 * which may be a signed body).
 */
export function readJsonFileIfPresent(file: string, damaged: (why: string) => Error, maxBytes: number = MAX_RECORD_FILE_BYTES): unknown {
  let text: string | undefined;
  try {
    text = readRecordText(file, maxBytes);
  } catch (err) {
    if (err instanceof UnreadableRecordFile) throw damaged(err.why);
    throw err;
  }
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw damaged('is not valid JSON');
  }
}

/**
 * A write after a lost lock is refused, never silent: a holder that stalled past the lock's stale time
 * (a blocked open, a stopped process) may have lost the lock to another process that wrote since. The
 * store keeps the text it read; just before writing, the file is read again and must still hold that
 * text (compare-and-swap on the content), else `conflict()` is thrown and nothing is written.
 */
export function assertUnchangedSince(file: string, readText: string | undefined, conflict: () => Error, maxBytes: number = MAX_RECORD_FILE_BYTES): void {
  let now: string | undefined;
  try {
    now = readRecordText(file, maxBytes);
  } catch (err) {
    if (err instanceof UnreadableRecordFile) throw conflict();
    throw err;
  }
  if (now !== readText) throw conflict();
}

/**
 * Removes, from `dir`, the atomic writer's temporary files and the lock folders (names ending in
 * `lockSuffix`) older than `maxAgeMs`: long past any use, left by a writer that was killed.
 */
export function removeStaleLeftovers(dir: string, lockSuffix: string, maxAgeMs: number): void {
  const cutoff = Date.now() - maxAgeMs;
  for (const name of fs.readdirSync(dir)) {
    if (!isAtomicWriteTemp(name) && !name.endsWith(lockSuffix)) continue;
    const p = path.join(dir, name);
    const stats = fs.lstatSync(p, { throwIfNoEntry: false });
    if (stats && stats.mtimeMs < cutoff) fs.rmSync(p, { recursive: true, force: true });
  }
}

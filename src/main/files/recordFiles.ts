/**
 * What every folder of one-JSON-file-per-record stores (withdrawals, TWAPs) needs besides the atomic
 * writer: reading a record that may not exist yet, and sweeping what a killed writer left behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isAtomicWriteTemp } from './atomicWrite.js';

/**
 * The parsed JSON of `file`, or undefined when there is no such file. Text that is not JSON throws
 * `damaged()`: records are only ever written atomically, so that is damage from outside, and the caller
 * words it (without quoting the content, which may be a signed body).
 */
export function readJsonFileIfPresent(file: string, damaged: () => Error): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw damaged();
  }
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

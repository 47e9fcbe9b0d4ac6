/**
 * The data folder (settings, nonces, tracked withdrawals, the simulator's state) is private to its user:
 * folder 0700, files 0600. settings.json holds RPC URLs that carry provider API keys and the withdrawal
 * records hold signed bodies, so neither may be readable by other local users.
 */
import fs from 'node:fs';

export const PRIVATE_FOLDER_MODE = 0o700;

/** Group and other permission bits. */
const SHARED_BITS = 0o077;

/**
 * Creates `dir` (and missing parents) as 0700, and takes group and other access away from it when it
 * already exists: data folders made by older versions were 0755. Only a folder this user owns is
 * changed; Windows has no such modes.
 */
export function ensurePrivateFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  tightenMode(dir, PRIVATE_FOLDER_MODE);
}

/** chmods an existing file or folder to `mode` if it grants group or other access and is this user's. */
export function tightenMode(target: string, mode: number): void {
  if (process.platform === 'win32') return;
  let stats: fs.Stats;
  try {
    stats = fs.statSync(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if ((stats.mode & SHARED_BITS) === 0) return;
  if (typeof process.getuid === 'function' && stats.uid !== process.getuid()) return;
  fs.chmodSync(target, mode);
}

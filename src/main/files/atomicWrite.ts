/**
 * The one way Perps Desk writes a file: atomically, privately, and never through a symlink.
 *
 * Signed bodies (register bodies, withdrawals), signing requests and the data folder's own files may be
 * written into a folder other users can write to (/tmp, a shared USB stick). A predictable temporary
 * name (FILE.PID.tmp) opened without O_EXCL lets another user plant a symlink there and receive the
 * signed body. So:
 *  - the temporary file has a random name (128 bits) and is created with O_CREAT|O_EXCL|O_NOFOLLOW,
 *    mode 0600: an existing file or symlink at that name makes the open fail instead of following it;
 *  - a target that is a symlink is refused (rename would replace the link, but the user asked for a file
 *    at that path and a planted link there is an attack, not a wish);
 *  - the data is fsynced before the rename and the folder after it, so a crash or power loss leaves
 *    either the old file or the whole new one, never half of one;
 *  - on any failure the temporary file is removed.
 * Libraries such as write-file-atomic and atomically (conf's) follow symlinks and derive temp names
 * from the pid, which is exactly what this guards against, hence this small module.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { open, rename, unlink, lstat } from 'node:fs/promises';
import path from 'node:path';
import type { ClassifiedError } from '../../shared/errorKinds.js';

/** Files Perps Desk writes are readable by their owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Why a write was refused before anything was written. */
export class UnsafeTargetError extends Error implements ClassifiedError {
  readonly errorKind = 'rejected' as const;
  readonly errorCode = 'UNSAFE_OUTPUT_FILE';
  readonly errorHint = 'Choose a path that is not a symbolic link, preferably in a folder only you can write to.';

  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`refusing to write ${file}: ${reason}`);
    this.name = 'UnsafeTargetError';
  }
}

// O_NOFOLLOW is POSIX only; on Windows O_EXCL alone already refuses an existing name.
const TEMP_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** A fresh, unguessable temporary name beside `file` (same folder, so the rename stays atomic). */
function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(16).toString('hex')}.tmp`);
}

function refuseSymlink(file: string, stats: fs.Stats | null): void {
  if (stats?.isSymbolicLink()) throw new UnsafeTargetError(file, 'it is a symbolic link');
  if (stats && !stats.isFile()) throw new UnsafeTargetError(file, 'it exists and is not a regular file');
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** fsync of the folder makes the rename itself durable; Windows cannot open a folder for that. */
function syncFolderSync(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, fs.constants.O_RDONLY);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** syncFolderSync on libuv's thread pool. */
async function syncFolder(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, fs.constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `data` to `file` atomically with mode 0600; refuses a symlink or a non-file at `file`. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  refuseSymlink(
    file,
    await lstat(file).catch((err: unknown) => {
      if (isMissing(err)) return null;
      throw err;
    }),
  );
  const tmp = tempNameFor(file);
  const handle = await open(tmp, TEMP_FLAGS, PRIVATE_FILE_MODE);
  let renamed = false;
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
    renamed = true;
    // On the thread pool like the rest: the event loop stays free (a chase's record is written this way
    // while its Modify is in flight, and the answer must not wait behind an fsync).
    await syncFolder(path.dirname(file));
  } finally {
    // Only our own temporary file, which nobody else can have opened under its random name.
    if (!renamed) await unlink(tmp).catch(() => undefined);
  }
}

/** The synchronous twin of writeFileAtomic, for stores whose callers are synchronous. */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  let stats: fs.Stats | null = null;
  try {
    stats = fs.lstatSync(file);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  refuseSymlink(file, stats);
  const tmp = tempNameFor(file);
  const fd = fs.openSync(tmp, TEMP_FLAGS, PRIVATE_FILE_MODE);
  let renamed = false;
  try {
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
    renamed = true;
    syncFolderSync(path.dirname(file));
  } finally {
    if (!renamed) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // The write or rename error above is what the caller must see; a leftover temp is harmless.
      }
    }
  }
}

/** True for the temporary names this module creates (so a folder scan can skip or clean them). */
export function isAtomicWriteTemp(name: string): boolean {
  return /^\..+\.[0-9a-f]{32}\.tmp$/.test(name);
}

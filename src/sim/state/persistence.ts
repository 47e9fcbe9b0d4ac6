/**
 * The state file (--state): everything needed to resume paper trading after a restart — engine state
 * and pending jobs, the venue's prices and candles, the companions' state, the clock and the random
 * streams. Written atomically (temp file + rename) so a crash mid-save never leaves half a file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EngineSnapshot } from '../engine.js';

export const STATE_FILE_VERSION = 1;

export interface SimStateFile {
  version: typeof STATE_FILE_VERSION;
  saved_at: number;
  /** SimClock time at save; the clock resumes from here (manual) or no earlier than here (wall). */
  clock_now: number;
  engine: EngineSnapshot;
  venue: unknown;
  companion: unknown;
  chaos_random: number;
  companion_random: number;
}

export class StateFileError extends Error {}

/**
 * Written privately (0600; a folder it creates is 0700) through an unguessable temporary name opened
 * exclusively, never through a symlink: in the app the state file sits in the user's data folder. The
 * simulator depends on src/shared only, so it cannot use main's atomic writer and does the same here.
 */
export function saveStateFile(file: string, state: SimStateFile): void {
  const dir = path.dirname(path.resolve(file));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(16).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
  let renamed = false;
  try {
    try {
      fs.writeFileSync(fd, JSON.stringify(state));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) throw new StateFileError(`state file ${file} is a symbolic link; refusing to replace it`);
    fs.renameSync(tmp, file);
    renamed = true;
  } finally {
    if (!renamed) fs.rmSync(tmp, { force: true });
  }
}

/** Reads a state file; null when it does not exist yet (first run). */
export function loadStateFile(file: string): SimStateFile | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StateFileError(`cannot read state file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new StateFileError(`state file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const s = parsed as Partial<SimStateFile>;
  if (typeof s !== 'object' || s === null || s.version !== STATE_FILE_VERSION || typeof s.clock_now !== 'number' || !s.engine) {
    throw new StateFileError(`state file ${file} is not a version ${STATE_FILE_VERSION} simulator state`);
  }
  return s as SimStateFile;
}

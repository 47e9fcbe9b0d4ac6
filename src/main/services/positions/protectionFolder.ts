/**
 * Where a close writes the TP/SL it lifts before cancelling them (rearm.ts), and the cheap check every
 * `perps` command makes at start: a directory listing, nothing more, so a command that has nothing to
 * restore loads none of the signing and ordering code (the start-up test counts what is loaded).
 */
import fs from 'node:fs';
import path from 'node:path';

export const PROTECTION_FOLDER = 'protection';

/** Whether a lifted TP/SL waits to be re-armed in this data folder (a record a killed process left). */
export function hasPendingProtection(dataDir: string): boolean {
  const dir = path.join(dataDir, PROTECTION_FOLDER);
  try {
    return fs.readdirSync(dir).some((n) => /^[0-9a-f]{12}\.json$/.test(n));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * The alerts log: <data folder>/alerts.log, one JSON line per firing (AlertFiring: time, alert id,
 * market, kind, the value seen, the message and the user's note; never a key, an address's secret or a
 * signed body). Appended by whichever process fired the alert, inside the alert store's lock, so a firing
 * is logged exactly once. Opened without following a symlink, mode 0600.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AlertFiringSchema, type AlertFiring } from '../../../shared/alerts/alertRule.js';
import { PRIVATE_FILE_MODE } from '../../files/atomicWrite.js';
import { tightenMode } from '../../files/privateFolder.js';

export const ALERTS_LOG_FILE = 'alerts.log';

const APPEND_FLAGS = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0);

export function alertLogFile(dataDir: string): string {
  return path.join(dataDir, ALERTS_LOG_FILE);
}

/** Appends one firing as a JSON line. */
export function appendAlertLog(dataDir: string, firing: AlertFiring): void {
  const file = alertLogFile(dataDir);
  const fd = fs.openSync(file, APPEND_FLAGS, PRIVATE_FILE_MODE);
  try {
    fs.writeSync(fd, JSON.stringify(AlertFiringSchema.parse(firing)) + '\n');
  } finally {
    fs.closeSync(fd);
  }
  tightenMode(file, PRIVATE_FILE_MODE);
}

/** The latest `limit` firings, newest first; a line that is not a firing is skipped and counted. */
export function readAlertLog(dataDir: string, limit: number): { firings: AlertFiring[]; unreadable: number } {
  let text: string;
  try {
    text = fs.readFileSync(alertLogFile(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { firings: [], unreadable: 0 };
    throw err;
  }
  const firings: AlertFiring[] = [];
  let unreadable = 0;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  for (const line of lines.slice(-limit).reverse()) {
    try {
      const r = AlertFiringSchema.safeParse(JSON.parse(line));
      if (r.success) firings.push(r.data);
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  return { firings, unreadable };
}

/**
 * The alerts log: <data folder>/alerts.log, one JSON line per firing (AlertFiring: time, alert id,
 * market, kind, the value seen, the message and the user's note; never a key, an address's secret or a
 * signed body). Appended by whichever process fired the alert, after the firing is committed to the alert
 * store and outside its lock (alertEvaluator.ts): a firing whose store write failed is never logged, and
 * a slow or hostile log file never stalls the store's lock. Only a regular file is appended to: opened
 * without following a symlink and without waiting (a FIFO planted as the log is refused at once), mode 0600.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AlertFiringSchema, type AlertFiring } from '../../../shared/alerts/alertRule.js';
import { PRIVATE_FILE_MODE } from '../../files/atomicWrite.js';
import { tightenMode } from '../../files/privateFolder.js';
import { OperationError } from '../errors.js';

export const ALERTS_LOG_FILE = 'alerts.log';

const APPEND_FLAGS = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
/** The log is read from its end: the latest firings are all any view shows. */
const MAX_LOG_TAIL_BYTES = 4 * 1024 * 1024;

export function alertLogFile(dataDir: string): string {
  return path.join(dataDir, ALERTS_LOG_FILE);
}

function notAFile(file: string, what: string): OperationError {
  return new OperationError('ALERT_LOG_UNUSABLE', `${file} ${what}, not a regular file; the firing was committed but not logged`, {
    hint: `Move ${file} aside; the next firing creates a new log.`,
  });
}

function kindOf(stats: fs.Stats): string {
  return stats.isDirectory() ? 'is a folder' : stats.isFIFO() ? 'is a FIFO' : stats.isSocket() ? 'is a socket' : 'is a device';
}

/** Appends one firing as a JSON line; ALERT_LOG_UNUSABLE when the log is a link or not a regular file. */
export function appendAlertLog(dataDir: string, firing: AlertFiring): void {
  const file = alertLogFile(dataDir);
  let fd: number;
  try {
    fd = fs.openSync(file, APPEND_FLAGS, PRIVATE_FILE_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENXIO: a FIFO with no reader (O_NONBLOCK); ELOOP: a symlink; EISDIR: a folder.
    if (code === 'ENXIO') throw notAFile(file, 'is a FIFO');
    if (code === 'ELOOP') throw notAFile(file, 'is a symbolic link (links are never followed)');
    if (code === 'EISDIR') throw notAFile(file, 'is a folder');
    throw err;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw notAFile(file, kindOf(stats));
    fs.writeSync(fd, JSON.stringify(AlertFiringSchema.parse(firing)) + '\n');
  } finally {
    fs.closeSync(fd);
  }
  tightenMode(file, PRIVATE_FILE_MODE);
}

/** The log's last MAX_LOG_TAIL_BYTES (whole lines only); '' when there is none, ALERT_LOG_UNUSABLE when it is not a file. */
function readLogTail(file: string): string {
  let fd: number;
  try {
    fd = fs.openSync(file, READ_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return '';
    if (code === 'ELOOP') throw notAFile(file, 'is a symbolic link (links are never followed)');
    throw err;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw notAFile(file, kindOf(stats));
    const start = Math.max(0, stats.size - MAX_LOG_TAIL_BYTES);
    const buf = Buffer.alloc(stats.size - start);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(fd, buf, got, buf.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    const text = buf.subarray(0, got).toString('utf8');
    // Started mid-file: the first line is cut, so it is left out.
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    fs.closeSync(fd);
  }
}

/** The latest `limit` firings, newest first; a line that is not a firing is skipped and counted. */
export function readAlertLog(dataDir: string, limit: number): { firings: AlertFiring[]; unreadable: number } {
  const text = readLogTail(alertLogFile(dataDir));
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

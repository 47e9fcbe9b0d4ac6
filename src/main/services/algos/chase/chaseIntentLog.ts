/**
 * A chase's intent log: <data folder>/chases/<id>.intents (0600), one JSON line per re-price, appended
 * with a single write() just before its Modify is sent. It is what makes a re-price exactly-once without
 * a file rename or an fsync between the book message and the send (issue 38: those took 0.4 ms median
 * and 4 to 7 ms p95 on a busy disk; an append to a file already open takes 0.01 to 0.06 ms):
 *  - a write() that returned is in the page cache, which a kill -9 or a crash of the process cannot lose;
 *  - the chase's record (chases/<id>.json) is written with the same intent, atomically and fsynced, on
 *    the thread pool while the Modify is in flight, and before its answer is acted on; then the log is
 *    emptied. The record stays the one truth of the chase; a line only says "send n went out";
 *  - a resume reads the last line: a send numbered past the record's `sends`, of the record's live order,
 *    is taken up as the move in flight and settled from the service (found by its client order id or
 *    what was sent, or known never sent), never sent again. A line that fails its check refuses the
 *    resume (damage never trades); a line of another order than the live one too.
 * Left to a power loss in the milliseconds between the append and the record's fsync: the line and the
 * record as they were before it. Then the live order reads as ended at the service, and the runner looks
 * for this chase's later client order id in order-history (ChaseRunner.lostMove).
 *
 * Only the runner holding the chase's run lock appends, so lines never interleave between processes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ChaseMovingSchema } from '../../../../shared/algos/chase/chaseRecord.js';
import { PRIVATE_FILE_MODE } from '../../../files/atomicWrite.js';
import { readRecordText, UnreadableRecordFile } from '../../../files/recordFiles.js';

/** One line: the send number (the record's `sends` once it is written) and the move as sent. */
export const ChaseIntentLineSchema = z.object({ send: z.number().int().positive(), moving: ChaseMovingSchema }).strict();
export type ChaseIntentLine = z.infer<typeof ChaseIntentLineSchema>;

/** Far above what a log holds between two empties (one line), far below what would exhaust memory. */
const MAX_LOG_BYTES = 1024 * 1024;

// O_NOFOLLOW: a link planted at the log's name is refused, never written through.
const APPEND_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND | (fs.constants.O_NOFOLLOW ?? 0);

export function chaseIntentLogFile(dir: string, id: string): string {
  return path.join(dir, `${id}.intents`);
}

export class ChaseIntentLog {
  private fd: number | null = null;

  constructor(readonly file: string) {}

  /** Appends `line` in one write() (the file opened on the first append and kept open). */
  append(line: ChaseIntentLine): void {
    const checked = ChaseIntentLineSchema.parse(line);
    this.fd ??= fs.openSync(this.file, APPEND_FLAGS, PRIVATE_FILE_MODE);
    const bytes = Buffer.from(JSON.stringify(checked) + '\n', 'utf8');
    let at = 0;
    while (at < bytes.length) at += fs.writeSync(this.fd, bytes, at, bytes.length - at);
  }

  /** Empties the log: the record now holds what it said (written and fsynced). */
  clear(): void {
    if (this.fd === null) {
      try {
        // Opened without following a link (a planted one is refused, never truncated through).
        this.fd = fs.openSync(this.file, fs.constants.O_WRONLY | fs.constants.O_APPEND | (fs.constants.O_NOFOLLOW ?? 0));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
    }
    fs.ftruncateSync(this.fd, 0);
  }

  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
  }

  /** The last line of the log at `file`: none (no file, or empty), the line, or why it cannot be used. */
  static latest(file: string): { line: ChaseIntentLine } | { bad: string } | null {
    let text: string | undefined;
    try {
      text = readRecordText(file, MAX_LOG_BYTES);
    } catch (err) {
      if (err instanceof UnreadableRecordFile) return { bad: `it ${err.why}` };
      throw err;
    }
    const last = text?.split('\n').filter((l) => l.trim() !== '').at(-1);
    if (last === undefined) return null;
    let raw: unknown;
    try {
      raw = JSON.parse(last);
    } catch {
      return { bad: 'its last line is not JSON' };
    }
    const parsed = ChaseIntentLineSchema.safeParse(raw);
    if (!parsed.success) return { bad: `its last line fails its check (${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ')})` };
    return { line: parsed.data };
  }
}

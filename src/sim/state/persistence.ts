/**
 * The state file (--state): everything needed to resume paper trading after a restart — engine state
 * and pending jobs, the venue's prices and candles, the companions' state, the clock and the random
 * streams. Written atomically (temp file + rename) so a crash mid-save never leaves half a file.
 *
 * Version 2 is still one JSON document, laid out a record per line so that it is written and read a
 * line at a time: a long run's million orders never become one string (V8 cannot hold a string past
 * 512 MB) nor one parsed object graph. The first line holds everything small (the head) and opens
 * `records`; each following line is one record of the store (an order, a history row, a fill, ...),
 * prefixed by a comma after the first; the last line closes the document:
 *
 *   {"version":2,"saved_at":...,"engine":{...},"venue":{...},...,"records":[
 *   ["order",{...}]
 *   ,["history","0x...",[...]]
 *   ]}
 *
 * Version 1 files (one JSON object, written before) are still read.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import path from 'node:path';
import type { ClassifiedError } from '../../shared/errorKinds.js';
import type { EngineHead } from '../engine.js';
import { legacyRecords, type LegacyStoreSnapshot, type StoreRecord } from './store.js';

export const STATE_FILE_VERSION = 2;

/** Everything of the state file but the store's records. */
export interface SimStateHead {
  version: typeof STATE_FILE_VERSION;
  saved_at: number;
  /** SimClock time at save; the clock resumes from here (manual) or no earlier than here (wall). */
  clock_now: number;
  engine: EngineHead;
  venue: unknown;
  companion: unknown;
  chaos_random: number;
  companion_random: number;
}

/**
 * A state file as read: its head and its records, read lazily, once, in file order. Only the layout is
 * checked here (each record is an array led by its kind); the parts' restores validate the content.
 */
export interface LoadedState {
  head: SimStateHead;
  records: Iterable<readonly unknown[]>;
}

/** Version 1: the engine's store was one object. */
interface LegacyStateFile extends Omit<SimStateHead, 'version' | 'engine'> {
  version: 1;
  engine: Omit<EngineHead, 'store'> & { store: LegacyStoreSnapshot };
}

/**
 * A state file refused: unreadable, malformed, cut off, or holding a snapshot its part's restore refuses
 * (SnapshotError). The simulator does not start on it and leaves it as it is. A refusal of input, so the
 * command line answers exit 2 with the message, which names the file.
 */
export class StateFileError extends Error implements ClassifiedError {
  readonly errorKind = 'validation' as const;
  readonly errorCode = 'BAD_STATE_FILE';
  readonly errorHint = 'The simulator left the file as it is: restore it from a copy, or move it aside to start without it.';
}

/** How a version 2 file begins (the head is written with its version first). */
const V2_START = '{"version":2,';
const OPEN_RECORDS = ',"records":[';
const CLOSE = ']}';
/** Bytes gathered before each write and read. */
const CHUNK_BYTES = 1 << 20;

/**
 * Written privately (0600; a folder it creates is 0700) through an unguessable temporary name opened
 * exclusively, never through a symlink: in the app the state file sits in the user's data folder. The
 * simulator depends on src/shared only, so it cannot use main's atomic writer and does the same here.
 */
export function saveStateFile(file: string, head: SimStateHead, records: Iterable<StoreRecord>): void {
  const dir = path.dirname(path.resolve(file));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(16).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
  let renamed = false;
  try {
    try {
      const headText = JSON.stringify(head);
      let buffer = headText.slice(0, -1) + OPEN_RECORDS + '\n';
      let first = true;
      for (const record of records) {
        buffer += (first ? '' : ',') + JSON.stringify(record) + '\n';
        first = false;
        if (buffer.length >= CHUNK_BYTES) {
          fs.writeSync(fd, buffer);
          buffer = '';
        }
      }
      fs.writeSync(fd, buffer + CLOSE + '\n');
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

/**
 * Reads a state file; null when it does not exist yet (first run). The head is read and checked now;
 * the records are read as they are consumed (each line parsed on its own), and a malformed or cut-off
 * file throws StateFileError naming the line.
 */
export function loadStateFile(file: string): LoadedState | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StateFileError(`cannot read state file ${file}: ${(err as Error).message}`);
  }
  let handedOver = false;
  try {
    const start = Buffer.alloc(V2_START.length);
    const got = fs.readSync(fd, start, 0, start.length, 0);
    // Version 1 (or not a state file at all): one JSON document, read whole as before.
    if (start.subarray(0, got).toString('utf8') !== V2_START) return legacy(file);
    const lines = readLines(fd, file);
    const first = lines.next();
    const headLine = first.done ? '' : first.value;
    if (!headLine.endsWith(OPEN_RECORDS)) throw new StateFileError(`state file ${file}: line 1 does not open the records`);
    const head = parseLine(headLine.slice(0, -OPEN_RECORDS.length) + '}', file, 1) as Partial<SimStateHead>;
    if (typeof head !== 'object' || head === null || typeof head.clock_now !== 'number' || !head.engine) {
      throw new StateFileError(`state file ${file} is not a version ${STATE_FILE_VERSION} simulator state`);
    }
    handedOver = true;
    return { head: head as SimStateHead, records: records(lines, fd, file) };
  } finally {
    if (!handedOver) fs.closeSync(fd);
  }
}

function* records(lines: Generator<string>, fd: number, file: string): Generator<readonly unknown[]> {
  try {
    let n = 1;
    let closed = false;
    for (const line of lines) {
      n++;
      if (closed) {
        if (line === '') continue;
        throw new StateFileError(`state file ${file}: line ${n} follows the end of the document`);
      }
      if (line === CLOSE) {
        closed = true;
        continue;
      }
      if (n > 2 && !line.startsWith(',')) throw new StateFileError(`state file ${file}: line ${n} does not continue the records`);
      const record = parseLine(n > 2 ? line.slice(1) : line, file, n);
      if (!Array.isArray(record) || typeof record[0] !== 'string') throw new StateFileError(`state file ${file}: line ${n} is not a record`);
      yield record;
    }
    if (!closed) throw new StateFileError(`state file ${file} is cut off after line ${n} (no closing line)`);
  } finally {
    fs.closeSync(fd);
  }
}

function parseLine(text: string, file: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new StateFileError(`state file ${file}: line ${line} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The lines of an open file, read in chunks (UTF-8 safe: lines are split on the byte 0x0a, and a line's
 * pieces decoded as they come). A line longer than a chunk (the head, which holds the venue's history:
 * 32 MB at the venue's scale) is kept as decoded pieces joined once, not as copied chunks concatenated
 * and then decoded: one copy of the line fewer at the restart's peak.
 */
function* readLines(fd: number, file: string): Generator<string> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const decoder = new StringDecoder('utf8');
  let pending: string[] = [];
  for (;;) {
    let read: number;
    try {
      read = fs.readSync(fd, buffer, 0, buffer.length, null);
    } catch (err) {
      throw new StateFileError(`cannot read state file ${file}: ${(err as Error).message}`);
    }
    if (read === 0) break;
    let start = 0;
    for (;;) {
      const nl = buffer.indexOf(0x0a, start);
      if (nl < 0 || nl >= read) break;
      // A newline byte never sits inside a UTF-8 sequence: the decoder holds nothing across it.
      pending.push(decoder.write(buffer.subarray(start, nl)));
      const line = pending.length === 1 ? pending[0]! : pending.join('');
      pending = [];
      yield line;
      start = nl + 1;
    }
    // The rest of this chunk begins the next line (the decoder keeps a sequence cut at the chunk's end).
    if (start < read) pending.push(decoder.write(buffer.subarray(start, read)));
  }
  pending.push(decoder.end());
  const last = pending.join('');
  if (last.length > 0) yield last;
}

/** A version 1 file, as one JSON document, turned into a head and records. */
function legacy(file: string): LoadedState {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new StateFileError(`cannot read state file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new StateFileError(`state file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const s = parsed as Partial<LegacyStateFile>;
  if (typeof s !== 'object' || s === null || s.version !== 1 || typeof s.clock_now !== 'number' || !s.engine?.store) {
    throw new StateFileError(`state file ${file} is not a version ${STATE_FILE_VERSION} (or 1) simulator state`);
  }
  const { store, ...engine } = s.engine;
  const head: SimStateHead = { ...(s as LegacyStateFile), version: STATE_FILE_VERSION, engine: { ...engine, store } };
  return { head, records: legacyRecords(store) };
}

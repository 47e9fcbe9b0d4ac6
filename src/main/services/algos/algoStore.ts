/**
 * The records of the long-running algorithms (TWAPs, trailing stops, OCO pairs) in the data folder:
 * <data folder>/<folder>/<id>.json, one file per algorithm (0600, folder 0700), written atomically
 * (src/main/files/atomicWrite.ts: a crash, even kill -9, leaves the old file or the whole new one) under a
 * per-file lock (proper-lockfile), because the app and the command line share the folder: a stop asked in
 * one terminal changes the record of an algorithm another process runs, and neither may lose the other's
 * change. Each runner writes what it is about to send here before it goes out ("intent before send"),
 * which is what makes a restart safe.
 *
 * Every read checks the record as a whole (the algorithm's pure check in src/shared). A record that fails
 * is damaged: `list` returns it beside the healthy ones, and everything that would act on it is refused
 * with `<CODE>_RECORD_DAMAGED`, so damage never sends anything. Writes are checked the same way, so a bug
 * cannot store a record it would then refuse.
 *
 * A record file is read only when it is a regular file within the size cap (files/recordFiles.ts: no link
 * followed, a FIFO never waited on, /dev/zero never read), and one entry that cannot be read is listed as
 * damaged beside the others, never failing the list. A record that passes its own check but disagrees
 * with what the service says (a runner found it so) is marked damaged (`markDamaged`): it is listed with
 * why, and refused like any other damage. A write after a lost lock is refused (files/recordFiles.ts
 * assertUnchangedSince), never silent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from '../../files/atomicWrite.js';
import { ensurePrivateFolder } from '../../files/privateFolder.js';
import { assertUnchangedSince, readRecordText, removeStaleLeftovers, UnreadableRecordFile } from '../../files/recordFiles.js';
import { OperationError, ValidationError } from '../errors.js';
import { withAlgoFileLock } from './algoFileLock.js';

/** Temporary files and lock folders a killed writer left, older than this, are removed. */
const LEFTOVER_AGE_MS = 10 * 60_000;

const ID = /^[0-9a-f]{12}$/;

export type RecordCheck<T> = { ok: true; record: T } | { ok: false; problems: string[] };

/**
 * A record's `updated_at` after a change: the local clock's time, but never at or before the one it had.
 * A record is created at the service's time (its clock, which the local one may trail by seconds) and
 * changed at the local one; the page keeps the view with the later `updated_at`, so a change stamped
 * earlier than the record's creation was dropped: a chase shown without its first order until the next
 * re-price, in a run where the service's clock was 2 s ahead.
 */
export function nextUpdatedAt(previous: number, now: number = Date.now()): number {
  return Math.max(now, previous + 1);
}

/** What a store needs to know of its records. */
export interface AlgoRecordKind<T extends { id: string; profile: string; updated_at: number }, S extends { profile: string | null }> {
  /** Folder in the data folder: "twaps". */
  folder: string;
  /** In words: "TWAP". */
  what: string;
  /** Error code prefix: "TWAP" -> TWAP_NOT_FOUND, TWAP_RECORD_DAMAGED. */
  code: string;
  /** The command that lists them, for hints: "perps twap list". */
  listCommand: string;
  check(raw: unknown): RecordCheck<T>;
  /** What can still be read of a damaged record (each field only if valid on its own). */
  summary(raw: unknown): S;
  /** Sort key of the list, newest first. */
  createdAt(record: T): number;
}

/** A stored record that failed its check: shown, never acted on. */
export interface DamagedRecord<S> {
  id: string;
  file: string;
  /** What is wrong, in words. */
  reason: string;
  summary: S;
  /** When the file last changed (Unix ms). */
  changedAt: number;
}

/** The key a record marked damaged carries (it is in no record schema, so a record with it never passes). */
const DAMAGE_KEY = 'damage';

export type StoredRecord<T, S> = { record: T } | { damaged: DamagedRecord<S> };

/** A record a runner holds in memory, with the file's text as it read or wrote it (what a later write compares against). */
export interface HeldRecord<T> {
  record: T;
  text: string;
}

export class AlgoStore<T extends { id: string; profile: string; updated_at: number }, S extends { profile: string | null }> {
  readonly dir: string;

  constructor(
    dataDir: string,
    readonly kind: AlgoRecordKind<T, S>,
  ) {
    if (!path.isAbsolute(dataDir)) throw new Error(`the data folder must be absolute, got '${dataDir}'`);
    this.dir = path.join(dataDir, kind.folder);
    ensurePrivateFolder(this.dir);
    removeStaleLeftovers(this.dir, '.lock', LEFTOVER_AGE_MS);
  }

  /** Runs `work` holding the short write lock of `file`. */
  withLock<R>(file: string, work: () => R): R {
    return withAlgoFileLock(file, this.kind.code, work);
  }

  fileOf(id: string): string {
    if (!ID.test(id)) throw new OperationError(`${this.kind.code}_NOT_FOUND`, `'${id.slice(0, 40)}' is not a ${this.kind.what} id (12 hex characters)`, { hint: `See \`${this.kind.listCommand}\`.` });
    return path.join(this.dir, `${id}.json`);
  }

  /** Stores a new record durably (fsynced) before returning. */
  create(record: T): void {
    const file = this.fileOf(record.id);
    this.withLock(file, () => {
      if (fs.lstatSync(file, { throwIfNoEntry: false })) throw new Error(`${this.kind.what} ${record.id} is already stored`);
      this.write(file, record, undefined);
    });
  }

  /** The record (undefined when there is none); `<CODE>_RECORD_DAMAGED` when it fails its check. */
  get(id: string): T | undefined {
    return this.read(this.fileOf(id));
  }

  /** The record as stored, healthy or damaged (undefined when there is none, or it is another profile's). */
  inspect(id: string, profile: string): StoredRecord<T, S> | undefined {
    const s = this.readStored(this.fileOf(id));
    if (!s) return undefined;
    const owner = 'record' in s ? s.record.profile : s.damaged.summary.profile;
    return owner === null || owner === profile ? s : undefined;
  }

  /** The record, or `<CODE>_NOT_FOUND`; `<CODE>_RECORD_DAMAGED` when it fails its check. */
  require(id: string, profile: string): T {
    const r = this.get(id);
    if (!r || r.profile !== profile) throw new OperationError(`${this.kind.code}_NOT_FOUND`, `no ${this.kind.what} ${id} on profile '${profile}' in this data folder`, { hint: `See \`${this.kind.listCommand}\`.` });
    return r;
  }

  /**
   * This profile's records, newest first, and beside them the damaged ones: those whose profile is this
   * one or cannot be read (damage is shown, never hidden). One damaged file never hides the others.
   */
  list(profile: string): { records: T[]; damaged: DamagedRecord<S>[] } {
    const records: T[] = [];
    const damaged: DamagedRecord<S>[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!/^[0-9a-f]{12}\.json$/.test(name)) continue;
      const file = path.join(this.dir, name);
      let s: StoredRecord<T, S> | undefined;
      try {
        s = this.readStored(file);
      } catch (err) {
        // One entry that cannot be read (no permission, an I/O error) is listed as damaged; it never fails the list.
        s = { damaged: this.damaged(file, null, `its file cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`) };
      }
      if (!s) continue;
      if ('record' in s) {
        if (s.record.profile === profile) records.push(s.record);
      } else if (s.damaged.summary.profile === null || s.damaged.summary.profile === profile) damaged.push(s.damaged);
    }
    records.sort((a, b) => this.kind.createdAt(b) - this.kind.createdAt(a) || (a.id < b.id ? -1 : 1));
    damaged.sort((a, b) => b.changedAt - a.changedAt || (a.id < b.id ? -1 : 1));
    return { records, damaged };
  }

  /**
   * Read-modify-write under the record's lock: the file is read again first, so a change another
   * process made in between (a stop asked from another terminal) is kept.
   */
  update(id: string, change: (current: T) => T, now: number = Date.now()): T {
    const file = this.fileOf(id);
    return this.withLock(file, () => {
      const { stored, text } = this.readWithText(file);
      if (stored && 'damaged' in stored) throw this.damagedError(stored.damaged);
      const current = stored?.record;
      if (!current) throw new OperationError(`${this.kind.code}_NOT_FOUND`, `${this.kind.what} ${id} is not stored`);
      const next = { ...change(current), updated_at: nextUpdatedAt(current.updated_at, now) };
      this.write(file, next, text);
      return next;
    });
  }

  /**
   * The record and the text it was read from, for a runner that holds its record in memory while it holds
   * the run lock (AlgoRunner.holdsRecord). Refused like `require` (not found, another profile's, damaged).
   */
  readHeld(id: string, profile: string): HeldRecord<T> {
    const { stored, text } = this.readWithText(this.fileOf(id));
    if (stored && 'damaged' in stored) throw this.damagedError(stored.damaged);
    if (!stored || text === undefined || stored.record.profile !== profile) throw new OperationError(`${this.kind.code}_NOT_FOUND`, `no ${this.kind.what} ${id} on profile '${profile}' in this data folder`, { hint: `See \`${this.kind.listCommand}\`.` });
    return { record: stored.record, text };
  }

  /**
   * Writes `next` over a held record: checked as a whole like every write, atomic and fsynced, and
   * refused with `<CODE>_STORE_CONFLICT` when the file no longer holds `held.text` (changed from outside
   * during the run: by hand, or damaged). It takes no record lock: only for a kind no other process writes
   * while a run holds its run lock (the chase; TWAP, trailing and OCO records take stops from other
   * terminals and keep `update`).
   */
  writeHeld(held: HeldRecord<T>, next: T): HeldRecord<T> {
    const { file, out } = this.heldWrite(held, next);
    writeFileAtomicSync(file, out.text);
    return out;
  }

  /**
   * `writeHeld` whose file work (temporary file, write, fsyncs, rename) runs on the thread pool, so the
   * event loop goes on meanwhile (a chase's record written while its Modify is in flight). The check and
   * the conflict test run before it returns: a record it would refuse never starts a write.
   */
  writeHeldAsync(held: HeldRecord<T>, next: T): { out: HeldRecord<T>; written: Promise<void> } {
    const { file, out } = this.heldWrite(held, next);
    return { out, written: writeFileAtomic(file, out.text) };
  }

  private heldWrite(held: HeldRecord<T>, next: T): { file: string; out: HeldRecord<T> } {
    const file = this.fileOf(next.id);
    const checked = this.kind.check(next);
    if (!checked.ok) throw new OperationError(`${this.kind.code}_RECORD_INVALID`, `refused to store ${this.kind.what} ${next.id}: ${checked.problems.join('; ')}`, { kind: 'internal' });
    assertUnchangedSince(file, held.text, () => this.conflictError(next.id));
    return { file, out: { record: checked.record, text: JSON.stringify(checked.record, null, 2) + '\n' } };
  }

  /**
   * Marks a stored record damaged because it disagrees with what the service says (`reason` says how):
   * from then on it is listed as damaged with that reason and every action on it is refused, so it never
   * steers an order. The record is kept as it was, beside the mark, for the person to read.
   */
  markDamaged(id: string, reason: string, now: number = Date.now()): void {
    const file = this.fileOf(id);
    this.withLock(file, () => {
      const text = readRecordText(file);
      if (text === undefined) return;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        return; // Already damaged (not JSON): it is listed and refused as it is.
      }
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
      assertUnchangedSince(file, text, () => this.conflictError(path.basename(file, '.json')));
      writeFileAtomicSync(file, JSON.stringify({ ...(raw as Record<string, unknown>), [DAMAGE_KEY]: { reason: reason.slice(0, 2_000), at: now } }, null, 2) + '\n');
    });
  }

  /** `text`: the file's content when this writer read it (undefined: it did not exist); a change since is refused. */
  private write(file: string, record: T, text: string | undefined): void {
    const checked = this.kind.check(record);
    // Only a bug gets here: the runners and the control functions keep every invariant.
    if (!checked.ok) throw new OperationError(`${this.kind.code}_RECORD_INVALID`, `refused to store ${this.kind.what} ${record.id}: ${checked.problems.join('; ')}`, { kind: 'internal' });
    assertUnchangedSince(file, text, () => this.conflictError(record.id));
    writeFileAtomicSync(file, JSON.stringify(checked.record, null, 2) + '\n');
  }

  private conflictError(id: string): OperationError {
    return new OperationError(`${this.kind.code}_STORE_CONFLICT`, `${this.kind.what} ${id} was changed by another process while this one held its lock past the lock's time (it stalled); this change was not written`, {
      kind: 'transient',
      hint: 'Nothing was lost: the other change stands. Run the command again to act on the record as it is now.',
    });
  }

  private read(file: string): T | undefined {
    const s = this.readStored(file);
    if (s && 'damaged' in s) throw this.damagedError(s.damaged);
    return s?.record;
  }

  damagedError(d: DamagedRecord<S>): ValidationError {
    const what = this.kind.what;
    return new ValidationError(`${what} ${d.id} is damaged: ${d.reason}. A damaged ${what} is never run, resumed, paused or cancelled; nothing was sent`, {
      code: `${this.kind.code}_RECORD_DAMAGED`,
      hint: `Its record is ${d.file}. Check the account's order history (\`perps orders history\`) for what it sent; then restore the file from a backup, or move it out of ${this.dir} to clear it.`,
    });
  }

  private readStored(file: string): StoredRecord<T, S> | undefined {
    return this.readWithText(file).stored;
  }

  private readWithText(file: string): { stored: StoredRecord<T, S> | undefined; text: string | undefined } {
    let text: string | undefined;
    try {
      text = readRecordText(file);
    } catch (err) {
      if (!(err instanceof UnreadableRecordFile)) throw err;
      return { stored: { damaged: this.damaged(file, null, `its file ${err.why}; it was not read`) }, text: undefined };
    }
    return { stored: this.storedOf(file, text), text };
  }

  private storedOf(file: string, text: string | undefined): StoredRecord<T, S> | undefined {
    if (text === undefined) return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return { damaged: this.damaged(file, null, 'its file is not valid JSON (it is only ever written atomically, so something else changed it)') };
    }
    const mark = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[DAMAGE_KEY] : undefined;
    if (mark !== undefined) {
      const why = typeof mark === 'object' && mark !== null && typeof (mark as { reason?: unknown }).reason === 'string' ? (mark as { reason: string }).reason : 'no reason recorded';
      // The mark is read from the file like the rest of it: no control or bidi character reaches a terminal.
      // eslint-disable-next-line no-control-regex
      const clean = why.slice(0, 2_000).replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '?');
      return { damaged: this.damaged(file, raw, `it disagrees with what the service says: ${clean}`) };
    }
    const checked = this.kind.check(raw);
    if (checked.ok && `${checked.record.id}.json` === path.basename(file)) return { record: checked.record };
    return { damaged: this.damaged(file, raw, checked.ok ? `it holds ${this.kind.what} ${checked.record.id}, not the one its file is named after` : checked.problems.join('; ')) };
  }

  private damaged(file: string, raw: unknown, reason: string): DamagedRecord<S> {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    return { id: path.basename(file, '.json'), file, reason, summary: this.kind.summary(raw), changedAt: Math.floor(stat?.mtimeMs ?? 0) };
  }
}

/**
 * TWAPs in the data folder: <data folder>/twaps/<id>.json, one file per TWAP (0600, folder 0700),
 * written atomically (src/main/files/atomicWrite.ts: a crash, even kill -9, leaves the old file or the
 * whole new one) under a per-file lock (proper-lockfile), because the app and the command line share the
 * folder: a `perps twap pause` in one terminal changes the record of a TWAP another process is running,
 * and neither may lose the other's change. The scheduler writes a slice as `sending` here before its
 * order goes out (twapRunner.ts), which is what makes a restart safe.
 *
 * Every read checks the record as a whole (src/shared/twap/twapRecord.ts checkTwapRecord: the schema and
 * the invariants). A record that fails is damaged: `list` returns it beside the healthy ones, and
 * everything that would act on it (run, resume, pause, cancel, update) is refused with
 * TWAP_RECORD_DAMAGED, so damage never sends anything. Writes are checked the same way, so a bug here
 * cannot store a record it would then refuse.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../files/atomicWrite.js';
import { readJsonFileIfPresent, removeStaleLeftovers } from '../../files/recordFiles.js';
import { withFileLockSync } from '../../files/recordLock.js';
import { ensurePrivateFolder } from '../../files/privateFolder.js';
import { damageReason, damagedRecordSummary } from '../../../shared/twap/twapRecord.js';
import { OperationError, ValidationError } from '../errors.js';
import { checkTwapRecord, type TwapRecord } from './twapRecord.js';

export const TWAPS_FOLDER = 'twaps';

/** Temporary files and lock folders a killed writer left, older than this, are removed. */
const LEFTOVER_AGE_MS = 10 * 60_000;

/** Runs `work` holding the short write lock of `file` (files/recordLock.ts); other processes wait their turn. */
export function withFileLock<T>(file: string, work: () => T): T {
  return withFileLockSync(file, (why, cause) => new OperationError('TWAP_STORE_BUSY', `${path.basename(file)} ${why}`, { kind: 'transient', cause }), work);
}

const ID = /^[0-9a-f]{12}$/;

/** A stored TWAP whose record failed its check: shown, never acted on. */
export interface DamagedTwap {
  id: string;
  file: string;
  /** What is wrong, in words. */
  reason: string;
  /** What could still be read of it (each field only if valid on its own). */
  summary: ReturnType<typeof damagedRecordSummary>;
  /** When the file last changed (Unix ms). */
  changedAt: number;
}

class NotJson extends Error {}

type Stored = { record: TwapRecord } | { damaged: DamagedTwap };

function damagedError(d: DamagedTwap, dir: string): ValidationError {
  return new ValidationError(`TWAP ${d.id} is damaged: ${d.reason}. A damaged TWAP is never run, resumed, paused or cancelled; nothing was sent`, {
    code: 'TWAP_RECORD_DAMAGED',
    hint: `Its record is ${d.file}. Check the account's order history (\`perps orders history\`) for what its slices sent; then restore the file from a backup, or move it out of ${dir} to clear it.`,
  });
}

export class TwapStore {
  readonly dir: string;

  constructor(dataDir: string) {
    if (!path.isAbsolute(dataDir)) throw new Error(`the data folder must be absolute, got '${dataDir}'`);
    this.dir = path.join(dataDir, TWAPS_FOLDER);
    ensurePrivateFolder(this.dir);
    this.removeLeftovers();
  }

  fileOf(id: string): string {
    if (!ID.test(id)) throw new OperationError('TWAP_NOT_FOUND', `'${id}' is not a TWAP id (12 hex characters)`, { hint: 'See `perps twap list`.' });
    return path.join(this.dir, `${id}.json`);
  }

  /** Stores a new TWAP durably (fsynced) before returning. */
  create(record: TwapRecord): void {
    const file = this.fileOf(record.id);
    withFileLock(file, () => {
      if (fs.existsSync(file)) throw new Error(`TWAP ${record.id} is already stored`);
      this.write(file, record);
    });
  }

  /** The TWAP (undefined when there is none); TWAP_RECORD_DAMAGED when its record fails its check. */
  get(id: string): TwapRecord | undefined {
    return this.read(this.fileOf(id));
  }

  /** The TWAP as stored, healthy or damaged (undefined when there is none, or it is another profile's). */
  inspect(id: string, profile: string): Stored | undefined {
    const s = this.readStored(this.fileOf(id));
    if (!s) return undefined;
    const owner = 'record' in s ? s.record.profile : s.damaged.summary.profile;
    return owner === null || owner === profile ? s : undefined;
  }

  /** The TWAP, or TWAP_NOT_FOUND; TWAP_RECORD_DAMAGED when its record fails its check. */
  require(id: string, profile: string): TwapRecord {
    const r = this.get(id);
    if (!r || r.profile !== profile) throw new OperationError('TWAP_NOT_FOUND', `no TWAP ${id} on profile '${profile}' in this data folder`, { hint: 'See `perps twap list`.' });
    return r;
  }

  /**
   * This profile's TWAPs, newest first, and beside them the damaged ones: those whose profile is this
   * one or cannot be read (damage is shown, never hidden). One damaged file never hides the others.
   */
  list(profile: string): { twaps: TwapRecord[]; damaged: DamagedTwap[] } {
    const twaps: TwapRecord[] = [];
    const damaged: DamagedTwap[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!/^[0-9a-f]{12}\.json$/.test(name)) continue;
      const s = this.readStored(path.join(this.dir, name));
      if (!s) continue;
      if ('record' in s) {
        if (s.record.profile === profile) twaps.push(s.record);
      } else if (s.damaged.summary.profile === null || s.damaged.summary.profile === profile) damaged.push(s.damaged);
    }
    twaps.sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1));
    damaged.sort((a, b) => b.changedAt - a.changedAt || (a.id < b.id ? -1 : 1));
    return { twaps, damaged };
  }

  /**
   * Read-modify-write under the record's lock: the file is read again first, so a change another
   * process made in between (a pause asked from another terminal) is kept.
   */
  update(id: string, change: (current: TwapRecord) => TwapRecord, now: number = Date.now()): TwapRecord {
    const file = this.fileOf(id);
    return withFileLock(file, () => {
      const current = this.read(file);
      if (!current) throw new OperationError('TWAP_NOT_FOUND', `TWAP ${id} is not stored`);
      const next = { ...change(current), updated_at: now };
      this.write(file, next);
      return next;
    });
  }

  private write(file: string, record: TwapRecord): void {
    const checked = checkTwapRecord(record);
    // Only a bug gets here: the runner and the control functions keep every invariant.
    if (!checked.ok) throw new OperationError('TWAP_RECORD_INVALID', `refused to store TWAP ${record.id}: ${damageReason(checked.problems)}`, { kind: 'internal' });
    writeFileAtomicSync(file, JSON.stringify(checked.record, null, 2) + '\n');
  }

  private read(file: string): TwapRecord | undefined {
    const s = this.readStored(file);
    if (s && 'damaged' in s) throw damagedError(s.damaged, this.dir);
    return s?.record;
  }

  private readStored(file: string): Stored | undefined {
    let raw: unknown;
    try {
      raw = readJsonFileIfPresent(file, () => new NotJson());
    } catch (err) {
      if (!(err instanceof NotJson)) throw err;
      return { damaged: this.damaged(file, null, 'its file is not valid JSON (it is only ever written atomically, so something else changed it)') };
    }
    if (raw === undefined) return undefined;
    const checked = checkTwapRecord(raw);
    if (checked.ok && `${checked.record.id}.json` === path.basename(file)) return { record: checked.record };
    return { damaged: this.damaged(file, raw, checked.ok ? `it holds TWAP ${checked.record.id}, not the one its file is named after` : damageReason(checked.problems)) };
  }

  private damaged(file: string, raw: unknown, reason: string): DamagedTwap {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return { id: path.basename(file, '.json'), file, reason, summary: damagedRecordSummary(raw), changedAt: Math.floor(stat?.mtimeMs ?? 0) };
  }

  private removeLeftovers(): void {
    removeStaleLeftovers(this.dir, '.lock', LEFTOVER_AGE_MS);
  }
}

/**
 * TWAPs in the data folder: <data folder>/twaps/<id>.json, one file per TWAP (0600, folder 0700),
 * written atomically (src/main/files/atomicWrite.ts: a crash, even kill -9, leaves the old file or the
 * whole new one) under a per-file lock (proper-lockfile), because the app and the command line share the
 * folder: a `perps twap pause` in one terminal changes the record of a TWAP another process is running,
 * and neither may lose the other's change. The scheduler writes a slice as `sending` here before its
 * order goes out (twapRunner.ts), which is what makes a restart safe.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../files/atomicWrite.js';
import { readJsonFileIfPresent, removeStaleLeftovers } from '../../files/recordFiles.js';
import { withFileLockSync } from '../../files/recordLock.js';
import { ensurePrivateFolder } from '../../files/privateFolder.js';
import { OperationError } from '../errors.js';
import { TwapRecordSchema, type TwapRecord } from './twapRecord.js';

export const TWAPS_FOLDER = 'twaps';

/** Temporary files and lock folders a killed writer left, older than this, are removed. */
const LEFTOVER_AGE_MS = 10 * 60_000;

/** Runs `work` holding the short write lock of `file` (files/recordLock.ts); other processes wait their turn. */
export function withFileLock<T>(file: string, work: () => T): T {
  return withFileLockSync(file, (why, cause) => new OperationError('TWAP_STORE_BUSY', `${path.basename(file)} ${why}`, { kind: 'transient', cause }), work);
}

const ID = /^[0-9a-f]{12}$/;

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

  get(id: string): TwapRecord | undefined {
    return this.read(this.fileOf(id));
  }

  /** The TWAP, or TWAP_NOT_FOUND. */
  require(id: string, profile: string): TwapRecord {
    const r = this.get(id);
    if (!r || r.profile !== profile) throw new OperationError('TWAP_NOT_FOUND', `no TWAP ${id} on profile '${profile}' in this data folder`, { hint: 'See `perps twap list`.' });
    return r;
  }

  /** This profile's TWAPs, newest first. */
  list(profile: string): TwapRecord[] {
    const out: TwapRecord[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!/^[0-9a-f]{12}\.json$/.test(name)) continue;
      const r = this.read(path.join(this.dir, name));
      if (r && r.profile === profile) out.push(r);
    }
    return out.sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1));
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
    writeFileAtomicSync(file, JSON.stringify(TwapRecordSchema.parse(record), null, 2) + '\n');
  }

  private read(file: string): TwapRecord | undefined {
    const parsed = readJsonFileIfPresent(file, () => new OperationError('TWAP_RECORD_DAMAGED', `${file} is not valid JSON (it is only ever written atomically, so something else changed it)`, { kind: 'internal' }));
    if (parsed === undefined) return undefined;
    const r = TwapRecordSchema.safeParse(parsed);
    if (!r.success) throw new OperationError('TWAP_RECORD_DAMAGED', `${file} does not hold a TWAP record (${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message})`, { kind: 'internal' });
    return r.data;
  }

  private removeLeftovers(): void {
    removeStaleLeftovers(this.dir, '.lock', LEFTOVER_AGE_MS);
  }
}

/**
 * TWAPs in the data folder: <data folder>/twaps/<id>.json, one file per TWAP, kept by the algorithms'
 * store (algos/algoStore.ts: atomic 0600 writes under a per-file lock, every read and write checked as a
 * whole). The scheduler writes a slice as `sending` here before its order goes out (twapRunner.ts), which
 * is what makes a restart safe.
 *
 * The check is src/shared/algos/twap/twapRecord.ts checkTwapRecord (the schema and the invariants). A record
 * that fails is damaged: `list` returns it beside the healthy ones, and everything that would act on it
 * (run, resume, pause, cancel, update) is refused with TWAP_RECORD_DAMAGED, so damage never sends anything.
 */
import { damagedRecordSummary } from '../../../../shared/algos/twap/twapRecord.js';
import { withAlgoFileLock } from '../algoFileLock.js';
import { AlgoStore, type AlgoRecordKind, type DamagedRecord } from '../algoStore.js';
import { ValidationError } from '../../errors.js';
import { checkTwapRecord, type TwapRecord } from './twapRecord.js';

export const TWAPS_FOLDER = 'twaps';

/** Runs `work` holding the short write lock of `file` (files/recordLock.ts); other processes wait their turn. */
export function withFileLock<T>(file: string, work: () => T): T {
  return withAlgoFileLock(file, 'TWAP', work);
}

export type TwapSummary = ReturnType<typeof damagedRecordSummary>;

/** A stored TWAP whose record failed its check: shown, never acted on. */
export type DamagedTwap = DamagedRecord<TwapSummary>;

const TWAP_KIND: AlgoRecordKind<TwapRecord, TwapSummary> = {
  folder: TWAPS_FOLDER,
  what: 'TWAP',
  code: 'TWAP',
  listCommand: 'perps twap list',
  check: (raw) => checkTwapRecord(raw),
  summary: (raw) => damagedRecordSummary(raw),
  createdAt: (r) => r.created_at,
};

export class TwapStore extends AlgoStore<TwapRecord, TwapSummary> {
  constructor(dataDir: string) {
    super(dataDir, TWAP_KIND);
  }

  /** This profile's TWAPs, newest first, and beside them the damaged ones (damage is shown, never hidden). */
  override list(profile: string): { records: TwapRecord[]; twaps: TwapRecord[]; damaged: DamagedTwap[] } {
    const listed = super.list(profile);
    return { ...listed, twaps: listed.records };
  }

  override damagedError(d: DamagedTwap): ValidationError {
    return new ValidationError(`TWAP ${d.id} is damaged: ${d.reason}. A damaged TWAP is never run, resumed, paused or cancelled; nothing was sent`, {
      code: 'TWAP_RECORD_DAMAGED',
      hint: `Its record is ${d.file}. Check the account's order history (\`perps orders history\`) for what its slices sent; then restore the file from a backup, or move it out of ${this.dir} to clear it.`,
    });
  }
}

/**
 * A TWAP as it is persisted (the schema and its whole-record check are pure, in
 * src/shared/algos/twap/twapRecord.ts) and the small rules the scheduler reads it by.
 */
import { MAX_ALGO_NOTES, withAlgoNote } from '../../../../shared/algos/algoNotes.js';
import type { StoredTwapStatus, TwapRecord, TwapSliceRecord } from '../../../../shared/algos/twap/twapRecord.js';

export {
  STORED_TWAP_STATUSES,
  TwapFillRecordSchema,
  TwapRecordSchema,
  TwapSliceRecordSchema,
  checkTwapRecord,
  pendingSliceRecord,
  sliceClientOrderId,
  sliceIndexOfClientOrderId,
  type SliceStatus,
  type StoredTwapStatus,
  type TwapRecord,
  type TwapSliceRecord,
  type TwapStopReason,
} from '../../../../shared/algos/twap/twapRecord.js';

/** The slice states that have an order, or may have one, at the service. */
export function sliceInFlight(s: Pick<TwapSliceRecord, 'status'>): boolean {
  return s.status === 'sending' || s.status === 'sent';
}

export function isTerminalTwap(status: StoredTwapStatus): boolean {
  return status === 'completed' || status === 'cancelled' || status === 'stopped' || status === 'failed';
}

/** Notes kept per TWAP (the oldest are dropped): enough to explain a run, never an unbounded file. */
export const MAX_NOTES = MAX_ALGO_NOTES;

/**
 * The notes of `record` with `note` added, stamped at `at` in the one format every algorithm's notes share
 * (src/shared/algos/algoNotes.ts). The runner passes the service clock's time; a change made where no
 * runner is (a pause of a TWAP nothing runs) stamps this machine's time, like the record's updated_at.
 */
export function withNote(record: TwapRecord, note: string, at: number = Date.now()): string[] {
  return withAlgoNote(record.notes, at, note);
}

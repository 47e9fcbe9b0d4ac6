/**
 * A TWAP as it is persisted (the schema and its whole-record check are pure, in
 * src/shared/algos/twap/twapRecord.ts) and the small rules the scheduler reads it by.
 */
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
export const MAX_NOTES = 100;

export function withNote(record: TwapRecord, note: string): string[] {
  return [...record.notes, note].slice(-MAX_NOTES);
}

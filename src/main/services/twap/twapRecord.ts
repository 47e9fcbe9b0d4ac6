/**
 * A TWAP as it is persisted in the data folder (twapStore.ts): the reviewed plan, its schedule, and every
 * slice's progress. A slice moves pending -> sending (written BEFORE its order is sent: its client order
 * id, size, bound and nonce) -> sent (the order id came back) -> an outcome (filled, partial, unfilled,
 * rejected, failed). A slice found `sending` after a restart is looked up by its client order id before
 * anything else is sent, so it is never sent twice; one found `sent` is followed to its outcome.
 * `pending` slices whose time passed while nothing ran become `missed`: reported, never sent late.
 */
import { z } from 'zod';
import { decimalOut } from '../../../shared/fieldSchemas.js';
import { TWAP_SLICE_STATUSES, TWAP_STOP_REASONS } from '../../../shared/ipcTwap.js';
import { SIDES } from '../../../shared/protocol/index.js';

const dec = decimalOut;
const ms = z.number().int().nonnegative();

/** What the record itself says; `interrupted` is derived (running, but no live process holds its lock). */
export const STORED_TWAP_STATUSES = ['running', 'paused', 'completed', 'cancelled', 'stopped', 'failed'] as const;
export type StoredTwapStatus = (typeof STORED_TWAP_STATUSES)[number];
export type SliceStatus = (typeof TWAP_SLICE_STATUSES)[number];
export type TwapStopReason = (typeof TWAP_STOP_REASONS)[number];

export const TwapFillRecordSchema = z.object({ tid: z.string(), price: dec, size: dec, time: ms });

export const TwapSliceRecordSchema = z.object({
  index: z.number().int().nonnegative(),
  due_at: ms,
  size: dec,
  client_order_id: z.string().min(1),
  status: z.enum(TWAP_SLICE_STATUSES),
  sent_size: dec.nullable(),
  limit_price: dec.nullable(),
  nonce: z.string().nullable(),
  sent_at: ms.nullable(),
  order_id: z.string().nullable(),
  filled_size: dec,
  avg_fill_price: dec.nullable(),
  fills: z.array(TwapFillRecordSchema),
  reason: z.string().nullable(),
});
export type TwapSliceRecord = z.infer<typeof TwapSliceRecordSchema>;

export const TwapRecordSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[0-9a-f]{12}$/),
  profile: z.string(),
  wallet: z.string(),
  market: z.string(),
  side: z.enum(SIDES),
  total_size: dec,
  reduce_only: z.boolean(),
  slippage_bps: z.number().int(),
  leverage: z.number().int().nullable(),
  duration_ms: z.number().int(),
  interval_ms: z.number().int(),
  randomize_time_pct: z.number().int(),
  randomize_size_pct: z.number().int(),
  seed: z.number().int(),
  arrival_mark: dec,
  /** The person confirmed LARGE_ORDER for the whole TWAP: its slices may pass the notional cap. */
  allow_large: z.boolean(),
  created_at: ms,
  status: z.enum(STORED_TWAP_STATUSES),
  /** Asked by another process (or the app) while a runner holds the TWAP: acted on before the next slice. */
  requested: z.enum(['pause', 'cancel']).nullable(),
  stop_reason: z.enum(TWAP_STOP_REASONS).nullable(),
  stop_detail: z.string().nullable(),
  slices: z.array(TwapSliceRecordSchema).min(1),
  notes: z.array(z.string()),
  updated_at: ms,
});
export type TwapRecord = z.infer<typeof TwapRecordSchema>;

/** A slice's client order id: derived, so every process names the same slice the same way. */
export function sliceClientOrderId(twapId: string, index: number): string {
  return `twap-${twapId}-${index}`;
}

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

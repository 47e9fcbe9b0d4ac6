/**
 * The IPC shapes of advanced execution (issue 15): TWAPs (twap:* channels and the `twap` stream) and the
 * trades tape (markets:watchTrades and the `trades` stream). index.ts attaches them to the channel and
 * event tables. The command line prints the same
 * TwapView with --json, so both front ends show one shape.
 */
import { z } from 'zod';
import { addressSchema, decimalIn, decimalOut, marketSymbol } from '../fieldSchemas.js';
import { CONFIRMATION_CODES } from '../orders/priceGuard.js';
import { OrderReviewSchema, ReviewConfirmationSchema } from '../orders/review.js';
import { SIDES } from '../protocol/schemas/orders.js';
import {
  TWAP_MAX_DURATION_MS,
  TWAP_MAX_SIZE_RANDOMIZATION_PCT,
  TWAP_MAX_SLICES,
  TWAP_MAX_TIME_RANDOMIZATION_PCT,
  TWAP_MIN_INTERVAL_MS,
  TWAP_MIN_SLICES,
} from '../algos/twap/twapSchedule.js';

const unixMs = z.number().int().nonnegative();
const opaqueId = z.string().min(1).max(64);

/** A TWAP's local id: 12 hex characters (its slices' client order ids are derived from it). */
export const TwapIdSchema = z.string().regex(/^[0-9a-f]{12}$/, 'expected a TWAP id (12 hex characters)');

// ---- twap:preview / twap:start ------------------------------------------------------------------------

export const TwapPreviewRequestSchema = z.strictObject({
  market: marketSymbol,
  side: z.enum(SIDES),
  total_size: decimalIn,
  /** Whole seconds; slices must be at least 5 s apart. */
  duration_s: z.number().int().min((TWAP_MIN_SLICES * TWAP_MIN_INTERVAL_MS) / 1000).max(TWAP_MAX_DURATION_MS / 1000),
  slices: z.number().int().min(TWAP_MIN_SLICES).max(TWAP_MAX_SLICES),
  /** Each slice moves by up to this percentage of the interval from its nominal time. */
  randomize_time_pct: z.number().int().min(0).max(TWAP_MAX_TIME_RANDOMIZATION_PCT).optional(),
  /** Each slice's size moves by up to this percentage of the even share (the total stays exact). */
  randomize_size_pct: z.number().int().min(0).max(TWAP_MAX_SIZE_RANDOMIZATION_PCT).optional(),
  reduce_only: z.boolean().optional(),
  /** Tolerance of each slice's market bound around the mark at that moment; default the user's, else the market's. */
  slippage_bps: z.number().int().min(0).max(5000).optional(),
  leverage: z.number().int().min(1).max(1000).optional(),
});
export type TwapPreviewRequest = z.infer<typeof TwapPreviewRequestSchema>;

export const PlannedSliceSchema = z.object({ index: z.number().int().nonnegative(), offset_ms: z.number().int().nonnegative(), size: decimalOut });

/** What a person reviews before a TWAP starts: the whole schedule and what one slice's order looks like. */
export const TwapPlanViewSchema = z.object({
  wallet: addressSchema,
  market: z.string(),
  side: z.enum(SIDES),
  total_size: decimalOut,
  slices: z.number().int(),
  duration_ms: z.number().int(),
  interval_ms: z.number().int(),
  randomize_time_pct: z.number().int(),
  randomize_size_pct: z.number().int(),
  reduce_only: z.boolean(),
  slippage_bps: z.number().int(),
  /** null on a reduce-only TWAP (its slices post no margin). */
  leverage: z.number().int().nullable(),
  /** The venue mark now: the average fill price is measured against it. */
  arrival_mark: decimalOut,
  /** total_size x arrival_mark. */
  notional_estimate: decimalOut,
  schedule: z.array(PlannedSliceSchema),
  /** The first slice's order as it would be signed now (each slice is prepared at its own time, from the mark then). */
  first_slice: OrderReviewSchema,
  warnings: z.array(z.string()),
  /** Guards the whole TWAP trips (LARGE_ORDER on its total notional): twap:start must confirm each. */
  confirmations: z.array(ReviewConfirmationSchema),
});
export type TwapPlanView = z.infer<typeof TwapPlanViewSchema>;

export const TwapPreviewSchema = TwapPlanViewSchema.extend({ preview_id: opaqueId, valid_until: unixMs });
export type TwapPreview = z.infer<typeof TwapPreviewSchema>;

export const TwapStartRequestSchema = z.strictObject({
  preview_id: opaqueId,
  confirm: z.array(z.enum(CONFIRMATION_CODES)).max(CONFIRMATION_CODES.length).optional(),
});
export const TwapIdRequestSchema = z.strictObject({ id: TwapIdSchema });

// ---- progress -----------------------------------------------------------------------------------------

export const TWAP_STATUSES = ['running', 'paused', 'interrupted', 'completed', 'cancelled', 'stopped', 'failed'] as const;
export const TWAP_SLICE_STATUSES = ['pending', 'sending', 'sent', 'filled', 'partial', 'unfilled', 'rejected', 'failed', 'unsent', 'missed', 'skipped'] as const;
/**
 * over_target: the service's own order history showed that the next slice would take what this TWAP
 * sent past its target (its record said less had gone out); it stopped instead of sending.
 */
export const TWAP_STOP_REASONS = ['target_reached', 'schedule_done', 'cancelled', 'stopped', 'rejected', 'over_target'] as const;

export const TwapFillSchema = z.object({ price: decimalOut, size: decimalOut, time: unixMs });

export const TwapSliceViewSchema = z.object({
  index: z.number().int().nonnegative(),
  /** When it is (was) due, by the service's clock. */
  due_at: unixMs,
  /** Planned size. */
  size: decimalOut,
  status: z.enum(TWAP_SLICE_STATUSES),
  /** Derived from the TWAP id and the index: the same slice always carries the same id. */
  client_order_id: z.string(),
  order_id: z.string().nullable(),
  /** The size sent (the planned size, or less when only that much was left). */
  sent_size: decimalOut.nullable(),
  /** The slice's market bound (from the mark when it was sent). */
  limit_price: decimalOut.nullable(),
  sent_at: unixMs.nullable(),
  filled_size: decimalOut,
  avg_fill_price: decimalOut.nullable(),
  /** Each fill, for drawing on the chart. */
  fills: z.array(TwapFillSchema),
  reason: z.string().nullable(),
});
export type TwapSliceView = z.infer<typeof TwapSliceViewSchema>;

export const TwapViewSchema = z.object({
  id: TwapIdSchema,
  wallet: addressSchema,
  market: z.string(),
  side: z.enum(SIDES),
  reduce_only: z.boolean(),
  total_size: decimalOut,
  filled_size: decimalOut,
  remaining_size: decimalOut,
  /** Volume-weighted over every fill; null before the first. */
  avg_fill_price: decimalOut.nullable(),
  arrival_mark: decimalOut,
  /**
   * The average price against the arrival mark in basis points, from the trader's side: positive is
   * worse (a buy above it, a sell below it).
   */
  slippage_vs_arrival_bps: decimalOut.nullable(),
  /**
   * running: a process is sending it (this one or another); paused: by the person; interrupted: it was
   * running when its process ended (a crash, a quit) and waits for a decision, resume or stop; completed,
   * cancelled, stopped, failed: over (stop_reason says why).
   */
  status: z.enum(TWAP_STATUSES),
  /** Paused or interrupted: resume or stop/cancel it. Never resumed on its own. */
  needs_decision: z.boolean(),
  /** The process running it, when one is. */
  runner: z.object({ pid: z.number().int(), this_process: z.boolean() }).nullable(),
  /** A pause or cancel asked for while another process runs it; that process acts on it before its next slice. */
  requested: z.enum(['pause', 'cancel']).nullable(),
  stop_reason: z.enum(TWAP_STOP_REASONS).nullable(),
  /** In words: which rejection stopped it, and why that will not change. */
  stop_detail: z.string().nullable(),
  created_at: unixMs,
  duration_ms: z.number().int(),
  interval_ms: z.number().int(),
  slippage_bps: z.number().int(),
  randomize_time_pct: z.number().int(),
  randomize_size_pct: z.number().int(),
  /** The next slice due, while it runs. */
  next_slice_at: unixMs.nullable(),
  slices_total: z.number().int(),
  slices_sent: z.number().int(),
  slices_missed: z.number().int(),
  slices: z.array(TwapSliceViewSchema),
  /** What happened besides fills: missed slices, reconciliations after a restart. */
  notes: z.array(z.string()),
  updated_at: unixMs,
});
export type TwapView = z.infer<typeof TwapViewSchema>;

/**
 * A stored TWAP whose record failed its check (src/shared/algos/twap/twapRecord.ts: the schema and the
 * invariants every record this app writes keeps): listed so the person sees it, never run, resumed,
 * paused or cancelled. What could still be read of it (each field only if it is valid on its own) says
 * which TWAP it was; `damage` says what is wrong.
 */
export const DamagedTwapViewSchema = z.object({
  id: TwapIdSchema,
  status: z.literal('damaged'),
  damage: z.string(),
  market: z.string().nullable(),
  side: z.enum(SIDES).nullable(),
  total_size: z.string().nullable(),
  created_at: unixMs.nullable(),
  /** When the file last changed. */
  updated_at: unixMs,
});
export type DamagedTwapView = z.infer<typeof DamagedTwapViewSchema>;

/** Healthy TWAPs, and beside them those whose record is damaged. */
export const TwapListSchema = z.object({ twaps: z.array(TwapViewSchema), damaged: z.array(DamagedTwapViewSchema) });
export type TwapList = z.infer<typeof TwapListSchema>;

/** twap event: the latest view of each TWAP that changed (keyed by id). */
export const TwapEventSchema = z.object({ twaps: z.array(TwapViewSchema) });

// ---- the trades tape ----------------------------------------------------------------------------------

/** null market: stop watching. */
export const WatchTradesRequestSchema = z.strictObject({ market: marketSymbol.nullable() });
export const WatchingTradesSchema = z.object({ watching: z.string().nullable(), live: z.boolean() });

export const TapeTradeSchema = z.object({
  price: decimalOut,
  size: decimalOut,
  /** Venue time, Unix ms. */
  time: unixMs,
  /** The taker's side: BUY lifted the ask, SELL hit the bid. */
  side: z.enum(SIDES),
  /** The venue's trade id. */
  tid: z.number().int(),
});
export type TapeTrade = z.infer<typeof TapeTradeSchema>;

/** trades event: the watched market's latest trades, newest first (at most TAPE_LENGTH). */
export const TradesEventSchema = z.object({ market: z.string(), trades: z.array(TapeTradeSchema), at: unixMs });
export type TradesEvent = z.infer<typeof TradesEventSchema>;
export const TAPE_LENGTH = 50;

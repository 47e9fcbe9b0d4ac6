/**
 * The IPC shapes of chase orders in the app (chase:preview, chase:start, chase:list, chase:stop): one
 * post-only limit that rests at the best bid (buy) or ask (sell), or whole ticks inside it, and follows
 * it by Modify until it fills, its max distance or timeout is reached, or the trader stops it. Main runs
 * it (the app's algorithm host) with the command line's runner (services/algos/chase); the algorithms
 * panel lists chases, and beside them the damaged ones.
 */
import { z } from 'zod';
import { CHASE_END_REASONS, CHASE_STATUSES } from '../algos/chase/chaseRecord.js';
import { ON_LIMIT_CHOICES } from '../algos/chase/chaseFlags.js';
import { marketSymbol } from '../fieldSchemas.js';
import { address, dec, opaqueId, unixMs } from './fields.js';

/** A chase's local id: 12 hex characters (its orders' client order ids are derived from it). */
export const ChaseIdSchema = z.string().regex(/^[0-9a-f]{12}$/, 'expected a chase id (12 hex characters)');

/** Numbers and durations as typed: main checks them with the shared rules (refused at the field, never rounded). */
const typed = z.string().min(1).max(40);

export const ChasePreviewRequestSchema = z.strictObject({
  market: marketSymbol,
  side: z.enum(['BUY', 'SELL']),
  size: typed,
  /** Whole ticks inside the spread; absent: 0 (at the best bid or ask). */
  offset_ticks: typed.optional(),
  /** `0.5%` (of the best price at the start) or a price distance (`25`); absent: no limit. */
  max_distance: typed.optional(),
  /** A duration with its unit (`5m`); absent: no timeout. */
  timeout: typed.optional(),
  /** After this long, cross for the remainder (IOC within the market's slippage bound); absent: never. */
  taker_after: typed.optional(),
  /** At the max distance or the timeout: leave the order resting, or cancel it. */
  on_limit: z.enum(ON_LIMIT_CHOICES),
  /** Absent: the user's default for the market, which the review names. */
  leverage: z.number().int().min(1).max(1000).optional(),
});
export type ChasePreviewRequest = z.infer<typeof ChasePreviewRequestSchema>;

/** What a person reviews before the chase starts: the first order as it will be signed, and what stops it. */
export const ChasePreviewSchema = z.object({
  market: z.string(),
  side: z.enum(['BUY', 'SELL']),
  size: dec,
  /** Where the first order rests now: from the live book, read as the preview was made. */
  price: dec,
  best_bid: dec,
  best_ask: dec,
  tick_size: dec,
  offset_ticks: z.number().int().nonnegative(),
  post_only: z.literal(true),
  leverage: z.number().int(),
  max_distance: z.string().nullable(),
  timeout_ms: z.number().int().nullable(),
  interval_ms: z.number().int(),
  taker_after_ms: z.number().int().nullable(),
  on_limit: z.enum(ON_LIMIT_CHOICES),
  summary: z.array(z.string()),
  preview_id: opaqueId,
  valid_until: unixMs,
});
export type ChasePreview = z.infer<typeof ChasePreviewSchema>;

export const ChaseStartRequestSchema = z.strictObject({ preview_id: opaqueId });
/** Stop: `leave` the live order resting, or `cancel` it; either way the chase is over. */
export const ChaseStopRequestSchema = z.strictObject({ id: ChaseIdSchema, order: z.enum(ON_LIMIT_CHOICES) });

export const ChaseViewSchema = z.object({
  id: ChaseIdSchema,
  wallet: address,
  market: z.string(),
  side: z.enum(['BUY', 'SELL']),
  size: dec,
  filled: dec,
  leverage: z.number().int(),
  /** The live order: where it rests now (null between orders, or when over). */
  order: z.object({ order_id: z.string().nullable(), price: dec, size: dec, kind: z.enum(['post', 'taker']) }).nullable(),
  /** The followed best price (bid for a buy, ask for a sell) when it started. */
  start_price: dec,
  /** How far the followed best has gone from the start (the latest book this app read), and the max as a price; null: not known / no limit. */
  distance_used: dec.nullable(),
  max_distance: z.string().nullable(),
  max_distance_price: dec.nullable(),
  /** Re-prices applied so far. */
  moves: z.number().int().nonnegative(),
  offset_ticks: z.number().int().nonnegative(),
  on_limit: z.enum(ON_LIMIT_CHOICES),
  timeout_ms: z.number().int().nullable(),
  taker_after_ms: z.number().int().nullable(),
  /** working: chasing (here or in a terminal) or waiting to be taken up; done: over, with why. */
  status: z.enum(CHASE_STATUSES),
  end_reason: z.enum(CHASE_END_REASONS).nullable(),
  runner: z.object({ pid: z.number().int(), this_process: z.boolean() }).nullable(),
  last_note: z.string().nullable(),
  created_at: unixMs,
  updated_at: unixMs,
});
export type ChaseView = z.infer<typeof ChaseViewSchema>;

/** A chase whose stored record failed its check: never run, nothing is sent for it. */
export const DamagedChaseViewSchema = z.object({
  id: z.string(),
  status: z.literal('damaged'),
  damage: z.string(),
  market: z.string().nullable(),
  updated_at: unixMs,
});
export type DamagedChaseView = z.infer<typeof DamagedChaseViewSchema>;

export const ChaseListSchema = z.object({ chases: z.array(ChaseViewSchema), damaged: z.array(DamagedChaseViewSchema) });
export type ChaseList = z.infer<typeof ChaseListSchema>;

/** chase event: the latest view of each chase that changed. */
export const ChaseEventSchema = z.object({ chases: z.array(ChaseViewSchema) });

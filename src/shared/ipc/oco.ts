/**
 * The IPC shapes of OCO pairs in the app (oco:preview, oco:start, oco:list, oco:cancel): two resting
 * LIMIT GTC entry legs on one market, a buy below the mark and a sell above it; the first fill of either
 * cancels the other. Main runs the pair (the app's algorithm host) with the command line's runner
 * (services/algos/oco); the algorithms panel lists pairs, and beside them the damaged ones.
 */
import { z } from 'zod';
import { OCO_LEG_STATUSES, OCO_STATUSES } from '../algos/ocoRecord.js';
import { marketSymbol } from '../fieldSchemas.js';
import { address, dec, opaqueId, unixMs } from './fields.js';

/** A pair's local id: 12 hex characters (its legs' client order ids are derived from it). */
export const OcoIdSchema = z.string().regex(/^[0-9a-f]{12}$/, 'expected an OCO pair id (12 hex characters)');

/** Prices and the size as typed: main checks them (a bad number is refused at its field, never rounded). */
const typedDecimal = z.string().min(1).max(40);

export const OcoPreviewRequestSchema = z.strictObject({
  market: marketSymbol,
  /** The buy leg's limit price: below the mark. */
  buy: typedDecimal,
  /** The sell leg's limit price: above the mark. */
  sell: typedDecimal,
  /** Each leg's size. */
  size: typedDecimal,
  /** Both legs' leverage; absent: the user's default for the market, which the review names. */
  leverage: z.number().int().min(1).max(1000).optional(),
});
export type OcoPreviewRequest = z.infer<typeof OcoPreviewRequestSchema>;

export const OcoReviewLegSchema = z.object({ side: z.enum(['BUY', 'SELL']), price: dec, size: dec, leverage: z.number().int() });

/** What a person reviews before the pair is sent: both legs as they will be signed, and what happens then. */
export const OcoPreviewSchema = z.object({
  market: z.string(),
  mark: dec,
  leverage: z.number().int(),
  legs: z.tuple([OcoReviewLegSchema, OcoReviewLegSchema]),
  summary: z.array(z.string()),
  preview_id: opaqueId,
  valid_until: unixMs,
});
export type OcoPreview = z.infer<typeof OcoPreviewSchema>;

export const OcoStartRequestSchema = z.strictObject({ preview_id: opaqueId });
export const OcoIdRequestSchema = z.strictObject({ id: OcoIdSchema });

export const OcoLegViewSchema = z.object({
  side: z.enum(['BUY', 'SELL']),
  price: dec,
  size: dec,
  status: z.enum(OCO_LEG_STATUSES),
  order_id: z.string().nullable(),
  filled_size: dec,
  reason: z.string().nullable(),
});

export const OcoViewSchema = z.object({
  id: OcoIdSchema,
  wallet: address,
  market: z.string(),
  /** null on a pair written before the leverage was recorded. */
  leverage: z.number().int().nullable(),
  /** working: both legs watched (by this app or a terminal); done, cancelled, failed: over. */
  status: z.enum(OCO_STATUSES),
  /** The leg that filled first (0 buy, 1 sell). */
  winner: z.union([z.literal(0), z.literal(1)]).nullable(),
  legs: z.tuple([OcoLegViewSchema, OcoLegViewSchema]),
  /** The process watching it, when one is. */
  runner: z.object({ pid: z.number().int(), this_process: z.boolean() }).nullable(),
  /** The latest note (what it did last), if any. */
  last_note: z.string().nullable(),
  created_at: unixMs,
  updated_at: unixMs,
});
export type OcoView = z.infer<typeof OcoViewSchema>;

/** A pair whose stored record failed its check: never watched, nothing is sent for it. */
export const DamagedOcoViewSchema = z.object({
  id: z.string(),
  status: z.literal('damaged'),
  damage: z.string(),
  market: z.string().nullable(),
  updated_at: unixMs,
});
export type DamagedOcoView = z.infer<typeof DamagedOcoViewSchema>;

export const OcoListSchema = z.object({ pairs: z.array(OcoViewSchema), damaged: z.array(DamagedOcoViewSchema) });
export type OcoList = z.infer<typeof OcoListSchema>;

/** oco event: the latest view of each pair that changed. */
export const OcoEventSchema = z.object({ pairs: z.array(OcoViewSchema) });

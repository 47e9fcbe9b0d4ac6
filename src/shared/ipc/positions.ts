/** Positions: list, close (whole, partial, limit), reverse, margin, close all, TP/SL on the position. */
import { z } from 'zod';
import { decimalIn, marketSymbol, signedDecimalIn } from '../fieldSchemas.js';
import { CONFIRMATION_CODES } from '../orders/priceGuard.js';
import { TypedDataViewSchema } from '../signingViews.js';
import { address, dec, empty, hex32, opaqueId, unixMs } from './fields.js';
import { POSITION_RISK_FIELDS } from './risk.js';

// ---- positions ----------------------------------------------------------------------------------------

export const PositionViewSchema = z.object({
  id: z.string(),
  market: z.string(),
  side: z.enum(['LONG', 'SHORT']),
  /** Signed: positive long, negative short. */
  size: dec,
  entry_price: dec,
  mark: dec.nullable(),
  /** |size| x mark. */
  notional: dec.nullable(),
  /** size x (mark - entry_price). */
  unrealized_pnl: dec.nullable(),
  /** unrealized_pnl / isolated_margin as a fraction. */
  return_on_margin: dec.nullable(),
  isolated_margin: dec,
  closeable: dec,
  status: z.string(),
  version: z.number().int(),
  // Risk (issue 14): liquidation estimate, its distance, the armed TP/SL, why closeable is 0 (./risk.ts).
  ...POSITION_RISK_FIELDS,
});
export type PositionView = z.infer<typeof PositionViewSchema>;

export const PositionsListSchema = z.object({ positions: z.array(PositionViewSchema), at: unixMs });
export const ClosePositionRequestSchema = z.strictObject({
  market: marketSymbol,
  slippage_bps: z.number().int().min(0).max(5000).optional(),
  // ---- position management (partial and limit close) ----
  /** Close this percentage (1 to 100) of what is closeable. Not with `size`. */
  percent: decimalIn.optional(),
  /** Close this size (rounded down to sz_decimals, at most what is closeable). Not with `percent`. */
  size: decimalIn.optional(),
  /** A limit close: a reduce-only LIMIT GTC at this price, instead of a market close. */
  price: decimalIn.optional(),
  /** Guards the person confirmed (a limit close far past the mark is FAR_PRICE, refused without it). */
  confirm: z.array(z.enum(CONFIRMATION_CODES)).max(CONFIRMATION_CODES.length).optional(),
});
/** An armed trigger a close cancelled first (lifecycle rule 4). */
export const CancelledTriggerSchema = z.strictObject({ order_id: z.string(), tpsl: z.enum(['tp', 'sl']).nullable(), trigger_price: dec.nullable() });
export const ClosePositionResultSchema = z.object({
  market: z.string(),
  closed: z.boolean(),
  order_id: z.string().nullable(),
  cancelled_triggers: z.number().int(),
  position_after: PositionViewSchema.nullable(),
  // ---- position management (partial and limit close) ----
  /** The armed triggers cancelled before the closing leg, with their levels. */
  cancelled: z.array(CancelledTriggerSchema),
  order_type: z.enum(['MARKET', 'LIMIT']),
  /** The closing leg's size and price (a market close's price is its slippage bound). */
  size: dec,
  limit_price: dec,
  /** A limit close resting on the book: the position closes as it fills (follow orderStatus and positions events). */
  resting: z.boolean(),
  /** The closing order's last known status (single-order vocabulary). */
  order_status: z.string().nullable(),
  /** The whole-position TP/SL lifted for the close and what became of them on what remains (issue 35). */
  rearm: z
    .object({
      rearmed: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: dec, limit_price: dec })),
      /** Levels the mark has passed: not re-armed; the trader chooses (close the rest, or a new level). */
      past_mark: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: dec, mark: dec })),
      failed: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: dec, message: z.string() })),
      summary: z.array(z.string()),
    })
    .nullable()
    .optional(),
});
export const ReversePositionRequestSchema = z.strictObject({
  market: marketSymbol,
  size: decimalIn.optional(),
  leverage: z.number().int().min(1).max(1000).optional(),
  slippage_bps: z.number().int().min(0).max(5000).optional(),
  /** Guards the person confirmed (LARGE_ORDER: the new position is above their notional cap). */
  confirm: z.array(z.enum(CONFIRMATION_CODES)).max(CONFIRMATION_CODES.length).optional(),
});
export const ReversePositionResultSchema = z.object({ market: z.string(), position_after: PositionViewSchema.nullable() });
export const AdjustMarginRequestSchema = z.strictObject({
  market: marketSymbol,
  /** Signed: positive adds margin from the free balance, negative removes it. */
  amount: signedDecimalIn,
});
export const AdjustMarginResultSchema = z.object({
  market: z.string(),
  amount: dec,
  request_id: z.string().nullable(),
  status: z.enum(['SUBMITTED', 'APPLIED', 'REJECTED', 'UNKNOWN']),
  reason: z.string().nullable(),
  explanation: z.string().nullable(),
});

// ---- position management: close all, TP/SL on the position --------------------------------------------

export const CloseAllRequestSchema = empty;
export const CloseAllMarketResultSchema = z.strictObject({
  market: z.string(),
  /** closed: flat; partly_closed: filled, but resting reduce-only orders kept part open; failed: see error; skipped: nothing closeable now. */
  outcome: z.enum(['closed', 'partly_closed', 'failed', 'skipped']),
  order_id: z.string().nullable(),
  cancelled: z.array(CancelledTriggerSchema),
  position_after: PositionViewSchema.nullable(),
  error: z.strictObject({ code: z.string(), message: z.string(), hint: z.string().nullable() }).nullable(),
});
export const CloseAllResultSchema = z.strictObject({ results: z.array(CloseAllMarketResultSchema) });

export const PositionTpslRequestSchema = z.strictObject({
  market: marketSymbol,
  /** A trigger price sets or moves the take-profit; null removes it; absent leaves it as it is. */
  tp: decimalIn.nullable().optional(),
  /** A trigger price sets or moves the stop-loss; null removes it; absent leaves it as it is. */
  sl: decimalIn.nullable().optional(),
  /** Tolerance of the fire price around the trigger price; default the user's default, else the market's slippage_bps. */
  slippage_bps: z.number().int().min(0).max(5000).optional(),
});
export const ArmedLevelSchema = z.strictObject({ order_id: z.string(), trigger_price: dec, limit_price: dec });
export const TpslChangeSchema = z.strictObject({
  kind: z.enum(['tp', 'sl']),
  action: z.enum(['set', 'move', 'remove']),
  /** The armed trigger moved or removed; null for a new level. */
  order_id: z.string().nullable(),
  from: dec.nullable(),
  to: dec.nullable(),
  /** Fire price of the new or moved trigger (the slippage bound around its trigger price). */
  fire_price: dec.nullable(),
  /** The change in words: "Move the stop-loss from 3,100 to 3,150". */
  summary: z.string(),
});
export type TpslChange = z.infer<typeof TpslChangeSchema>;
/** One signature of a review: what it is for, its EIP-712 digest and the exact typed data. */
export const SignRequestViewSchema = z.strictObject({ label: z.string(), digest: hex32, typed_data: TypedDataViewSchema });
export const PositionTpslPreviewSchema = z.strictObject({
  preview_id: opaqueId,
  valid_until: unixMs,
  wallet: address,
  /** The trading key that will sign. */
  signer: address,
  market: z.string(),
  side: z.enum(['LONG', 'SHORT']),
  size: dec,
  entry_price: dec,
  /** The mark the levels were checked against (TP above it for a long, SL below; a short the other way). */
  mark: dec,
  before: z.strictObject({ tp: ArmedLevelSchema.nullable(), sl: ArmedLevelSchema.nullable() }),
  after: z.strictObject({ tp: dec.nullable(), sl: dec.nullable() }),
  changes: z.array(TpslChangeSchema),
  summary: z.array(z.string()),
  warnings: z.array(z.string()),
  /** Every signature applying it takes, in signing order: Cancels, Modifies, then Orders. */
  requests: z.array(SignRequestViewSchema),
});
export type PositionTpslPreview = z.infer<typeof PositionTpslPreviewSchema>;
export const ApplyTpslRequestSchema = z.strictObject({ preview_id: opaqueId });
export const TpslChangeResultSchema = TpslChangeSchema.extend({
  /** The order that now carries the level (the new trigger, or the one that replaced the moved one). */
  new_order_id: z.string().nullable(),
  /** done: armed, moved or gone; dropped: the modify was dropped and the original stays; pending: not confirmed yet. */
  status: z.enum(['done', 'rejected', 'dropped', 'pending', 'unknown']),
  reason: z.string().nullable(),
});
export const PositionTpslResultSchema = z.strictObject({ market: z.string(), ok: z.boolean(), changes: z.array(TpslChangeResultSchema) });
export type PositionTpslResult = z.infer<typeof PositionTpslResultSchema>;

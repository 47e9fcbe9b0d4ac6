/**
 * What a person reviews before an order is signed: each leg exactly as it will be sent, what it costs
 * (notional, fee kind and estimate, from src/shared/protocol/tradingMath.ts), the typed data and digest
 * that will be signed, and the totals. The services' prepare step builds it; the app's review dialog and
 * the command line's --dry-run show it.
 */
import { z } from 'zod';
import { addressSchema, decimalOut } from '../fieldSchemas.js';
import { SIDES, TIME_IN_FORCE, TPSL } from '../protocol/schemas/orders.js';
import { TypedDataViewSchema } from '../signingViews.js';
import { CONFIRMATION_CODES } from './priceGuard.js';

const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 32 bytes of hex');

export const ReviewLegSchema = z.object({
  /** What the leg is: 'order' for a plain order; 'entry', 'tp', 'sl' for a bracket; others name themselves. */
  label: z.string(),
  client_order_id: z.string(),
  market: z.string(),
  side: z.enum(SIDES),
  order_type: z.enum(['MARKET', 'LIMIT', 'TRIGGER']),
  size: decimalOut,
  limit_price: decimalOut,
  time_in_force: z.enum(TIME_IN_FORCE).nullable(),
  reduce_only: z.boolean(),
  /** null: no leverage is signed (0), as on reduce-only legs, which post no margin. */
  leverage: z.number().int().nullable(),
  trigger: z.object({ trigger_price: decimalOut, tpsl: z.enum(TPSL), is_market: z.boolean() }).nullable(),
  parent_client_order_id: z.string().nullable(),
  /** |size| x limit_price (for a whole-position leg: the entry's size at its price). */
  notional: decimalOut,
  fee_kind: z.enum(['maker', 'taker']),
  fee_rate: decimalOut,
  fee_estimate: decimalOut,
  /**
   * The leg in one plain line, from the leg as sent (orders/describeLeg.ts): 'Buy 0.5 ETH at 3,328 limit,
   * GTC, 1x'. What the review leads with.
   */
  description: z.string(),
  /** The typed data's fields line by line (as an offline signer's screen shows them): for the disclosure. */
  summary: z.array(z.string()),
  digest: hex32,
  typed_data: TypedDataViewSchema,
});
export type ReviewLeg = z.infer<typeof ReviewLegSchema>;

/**
 * A guard the order trips (src/shared/orders/priceGuard.ts): the person must confirm it explicitly. The
 * app's orders:place names every code in `confirm`; the command line needs the matching --allow-* flag.
 */
export const ReviewConfirmationSchema = z.object({
  code: z.enum(CONFIRMATION_CODES),
  /** What is unusual about the order, in words (which leg, which price, which bound or cap). */
  message: z.string(),
});
export type ReviewConfirmation = z.infer<typeof ReviewConfirmationSchema>;

export const OrderReviewSchema = z.object({
  /** The order kind (single, bracket, ...), or 'batch' for legs given one by one. */
  kind: z.string(),
  wallet: addressSchema,
  /** The trading key that will sign. */
  signer: addressSchema,
  market: z.string(),
  mark: decimalOut.nullable(),
  legs: z.array(ReviewLegSchema),
  /** Notional of the legs that trade on their own (attached TP/SL legs close what the entry opens). */
  total_notional: decimalOut,
  total_fee_estimate: decimalOut,
  /** Isolated margin the order posts when it fills: notional x max(1/leverage, initial_margin_ratio). */
  margin_required: decimalOut,
  /** The free balance read at prepare time (margin and fees come out of it). */
  free_balance: decimalOut.nullable(),
  /**
   * The position this order would leave on its market (src/shared/protocol/riskMath.ts), an estimate: the
   * legs that trade now or rest fill at their price (a MARKET leg at the mark), a standalone trigger at its
   * fire price, attached TP/SL legs are left out. Liquidation is the estimate for that position. Null when
   * the order would leave the market flat.
   */
  position_after: z
    .object({ size: decimalOut, entry_price: decimalOut, isolated_margin: decimalOut, liquidation_price: decimalOut.nullable() })
    .nullable(),
  warnings: z.array(z.string()),
  /** Guards this order trips; empty for an ordinary order. Each needs an explicit confirmation. */
  confirmations: z.array(ReviewConfirmationSchema),
  /**
   * A reduce-only ladder (a scale-out) on a position whose TP/SL is armed: the service refuses a reduce-only
   * order beside an armed trigger (close_trigger_coexistence), so the triggers are cancelled first and the
   * whole-position levels re-armed once the ladder rests (they then cover what is left as it fills).
   * Absent on every other order.
   */
  protection: z
    .object({
      triggers_to_cancel: z.array(z.object({ order_id: z.string(), tpsl: z.enum(['tp', 'sl']).nullable(), trigger_price: decimalOut.nullable() })),
      rearm: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: decimalOut, limit_price: decimalOut })),
      /** The position's size now: the ladder rests, so the re-armed levels cover all of it until it fills. */
      position_size: decimalOut,
      summary: z.array(z.string()),
    })
    .optional(),
});
export type OrderReview = z.infer<typeof OrderReviewSchema>;

/**
 * What became of the TP/SL lifted for a scale-out (or a close): re-armed, kept (already armed), not re-armed
 * because the mark has passed the level (the trader chooses), or refused. A non-empty past_mark or failed
 * leaves the position less protected than the trader set it: it is reported loudly.
 */
export const RearmOutcomeViewSchema = z.object({
  rearmed: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: decimalOut, limit_price: decimalOut })),
  past_mark: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: decimalOut, mark: decimalOut })),
  failed: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: decimalOut, message: z.string() })),
  summary: z.array(z.string()),
});
export type RearmOutcomeView = z.infer<typeof RearmOutcomeViewSchema>;

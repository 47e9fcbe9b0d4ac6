/** Orders: review (orders:preview), place, modify, cancel, list; and the order-status event. */
import { z } from 'zod';
import { decimalIn, marketSymbol } from '../fieldSchemas.js';
import { type BracketIntent, type BracketLevel, type OrderIntent, OrderIntentSchema, type OrderKind, type ScaleIntent, type SingleIntent } from '../orders/intents.js';
import { CONFIRMATION_CODES, type ConfirmationCode } from '../orders/priceGuard.js';
import { type OrderReview, OrderReviewSchema, RearmOutcomeViewSchema, type ReviewConfirmation, ReviewConfirmationSchema, type ReviewLeg, ReviewLegSchema } from '../orders/review.js';
import { dec, id, opaqueId, unixMs } from './fields.js';

export const SIDES = ['BUY', 'SELL'] as const;
export const ORDER_TYPES = ['MARKET', 'LIMIT', 'TRIGGER'] as const;
export const TIME_IN_FORCE = ['GTC', 'IOC', 'ALO'] as const;
export const TPSL = ['TP', 'SL'] as const;
const ORDER_STATUSES = ['SUBMITTED', 'ACCEPTED', 'EXECUTING', 'PENDING_MODIFY', 'PENDING_PARENT', 'FILLED', 'PARTIALLY_FILLED_CANCELLED', 'CANCELLED', 'REJECTED', 'FAILED'] as const;
const LIST_STATUSES = ['open', 'triggered', 'filled', 'partially_filled_cancelled', 'cancelled', 'rejected'] as const;
// ---- orders -------------------------------------------------------------------------------------------

export { OrderIntentSchema, type OrderIntent, type SingleIntent, type BracketIntent, type BracketLevel, type ScaleIntent, type OrderKind };
export { ReviewLegSchema as PreviewLegSchema, type ReviewLeg as PreviewLeg, type OrderReview };
export { CONFIRMATION_CODES, ReviewConfirmationSchema, type ConfirmationCode, type ReviewConfirmation };

/** An order's review (services' prepare step) under a short-lived id: orders:place takes only that id. */
export const OrderPreviewSchema = OrderReviewSchema.extend({
  preview_id: opaqueId,
  valid_until: unixMs,
});
export type OrderPreview = z.infer<typeof OrderPreviewSchema>;

export const PlaceOrdersRequestSchema = z.strictObject({
  preview_id: opaqueId,
  /**
   * The codes of the review's `confirmations` the person confirmed: exactly those, or the place is refused
   * (VALIDATION, reason CONFIRMATION_REQUIRED or CONFIRMATION_MISMATCH) and the review stays usable.
   */
  confirm: z.array(z.enum(CONFIRMATION_CODES)).max(CONFIRMATION_CODES.length).optional(),
});
export const PlacedLegSchema = z.object({
  label: z.string(),
  client_order_id: z.string(),
  order_id: z.string().nullable(),
  /** SUBMITTED means queued, not filled; follow orderStatus events. UNKNOWN: the answer was lost and the leg is not in history yet. */
  status: z.enum(['SUBMITTED', 'REJECTED', 'UNKNOWN']),
  reason: z.string().nullable(),
});
export const PlaceOrdersResultSchema = z.object({ success: z.boolean(), reconciled: z.boolean(), legs: z.array(PlacedLegSchema), rearm: RearmOutcomeViewSchema.nullable().optional() });
export type PlaceOrdersResult = z.infer<typeof PlaceOrdersResultSchema>;

export const ModifyOrderRequestSchema = z.strictObject({
  order_id: id,
  /** New limit price (the fire price of a trigger). */
  price: decimalIn,
  size: decimalIn,
  /** Triggers only; default: unchanged. */
  trigger_price: decimalIn.optional(),
});
export const ModifyOrderResultSchema = z.object({
  old_order_id: z.string(),
  new_order_id: z.string().nullable(),
  status: z.enum(['SUBMITTED', 'REJECTED', 'UNKNOWN']),
  reason: z.string().nullable(),
});

export const CancelOrderRequestSchema = z.strictObject({ order_id: id, order_type: z.enum(['LIMIT', 'TRIGGER']).optional() });
export const CancelAllRequestSchema = z.strictObject({ market: marketSymbol.optional() });
export const CancelLegSchema = z.object({
  order_id: z.string(),
  order_type: z.enum(['LIMIT', 'TRIGGER']),
  /** The service's answer: SUBMITTED means queued (cancellation is asynchronous; follow orderStatus events). */
  status: z.enum(['SUBMITTED', 'REJECTED', 'FAILED', 'UNKNOWN']),
  reason: z.string().nullable(),
});
export const CancelResultSchema = z.object({ results: z.array(CancelLegSchema) });

export const ListedOrderViewSchema = z.object({
  order_id: z.string(),
  market: z.string(),
  side: z.enum(['buy', 'sell']),
  size: dec,
  filled_size: dec,
  limit_price: dec,
  order_type: z.string(),
  time_in_force: z.enum(TIME_IN_FORCE).nullable(),
  reduce_only: z.boolean(),
  trigger_price: dec.nullable(),
  tpsl: z.enum(['tp', 'sl']).nullable(),
  /** List vocabulary: open, triggered, filled, partially_filled_cancelled, cancelled, rejected. */
  status: z.enum(LIST_STATUSES),
  submitted_at: unixMs,
  status_at: unixMs,
  /** A modify is in flight: re-read instead of modifying again. */
  is_modifying: z.boolean(),
  /** A TP/SL leg awaiting its entry (PENDING_PARENT): not armed, cannot fire, cannot be modified. */
  pending_parent: z.boolean(),
  parent_order_id: z.string().nullable(),
  /** An armed trigger (open TRIGGER not waiting for an entry). */
  armed: z.boolean(),
  reason: z.string().nullable(),
  avg_fill_price: dec.nullable(),
});
export type ListedOrderView = z.infer<typeof ListedOrderViewSchema>;

/** An open order with the PENDING_PARENT legs that wait for it attached (they are not listed again at top level). */
export const OpenOrderViewSchema = ListedOrderViewSchema.extend({ legs: z.array(ListedOrderViewSchema) });
export type OpenOrderView = z.infer<typeof OpenOrderViewSchema>;

export const MarketFilterRequestSchema = z.strictObject({ market: marketSymbol.optional() });
export const OpenOrdersSchema = z.object({ orders: z.array(OpenOrderViewSchema) });
export const TriggersSchema = z.object({ triggers: z.array(ListedOrderViewSchema) });

// ---- events (main -> renderer) ------------------------------------------------------------------------

export const OrderStatusUpdateSchema = z.object({
  order_id: z.string(),
  market: z.string().nullable(),
  order_type: z.string().nullable(),
  /** Single-order vocabulary; UNKNOWN until first seen (orders persist asynchronously). */
  status: z.enum([...ORDER_STATUSES, 'UNKNOWN']),
  list_status: z.enum(LIST_STATUSES).nullable(),
  reason: z.string().nullable(),
  filled_size: dec.nullable(),
  avg_fill_price: dec.nullable(),
  armed: z.boolean(),
  terminal: z.boolean(),
  /** A modify replaced this order: follow the new id. */
  replaced_by: z.string().nullable(),
});
export type OrderStatusUpdate = z.infer<typeof OrderStatusUpdateSchema>;

/** Orders: the submitted leg, per-leg results, the single-order record, listed orders, cancel and modify. */
import { z } from 'zod';
import { ORDER_STATUSES, LIST_STATUSES } from '../statuses.js';
import { accountId, address, canonicalUnsignedDecimal, decimalString, nonceString, reason, signatureHex, unixMs } from './common.js';

export const SUBMITTABLE_ORDER_TYPES = ['MARKET', 'LIMIT', 'TRIGGER'] as const;
/** Server-generated types appear on read routes only; they must parse and must never be submitted. */
export const SERVER_ORDER_TYPES = ['LIQUIDATION', 'ORPHAN_LIQUIDATION'] as const;
export const ORDER_TYPES = [...SUBMITTABLE_ORDER_TYPES, ...SERVER_ORDER_TYPES] as const;
export type SubmittableOrderType = (typeof SUBMITTABLE_ORDER_TYPES)[number];
export type OrderType = (typeof ORDER_TYPES)[number];

export const SIDES = ['BUY', 'SELL'] as const;
export type Side = (typeof SIDES)[number];
export const TIME_IN_FORCE = ['GTC', 'IOC', 'ALO'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];
export const TPSL = ['TP', 'SL'] as const;
export type Tpsl = (typeof TPSL)[number];

export const TriggerSchema = z.object({
  trigger_price: canonicalUnsignedDecimal,
  is_market: z.boolean(),
  tpsl: z.enum(TPSL),
});
export type Trigger = z.infer<typeof TriggerSchema>;

/**
 * One leg of POST /orders, as sent. Field-level shape only: business rules (tick, min_order_value,
 * bracket shape) are checked by the client before signing and by the service after.
 */
export const OrderLegSchema = z.object({
  market: z.string().min(1),
  side: z.enum(SIDES),
  size: canonicalUnsignedDecimal,
  limit_price: canonicalUnsignedDecimal,
  order_type: z.enum(SUBMITTABLE_ORDER_TYPES).optional(),
  time_in_force: z.enum(TIME_IN_FORCE).optional(),
  reduce_only: z.boolean().optional(),
  leverage: z.number().int().nonnegative().optional(),
  client_order_id: z.string().min(1, 'client_order_id is required'),
  trigger: TriggerSchema.optional(),
  parent_client_order_id: z.string().min(1).optional(),
  nonce: nonceString,
  signature: signatureHex,
});
export type OrderLeg = z.infer<typeof OrderLegSchema>;

export const MAX_LEGS_PER_BATCH = 20;

export const PlaceOrdersBodySchema = z.object({
  account_id: accountId,
  orders: z.array(OrderLegSchema).min(1, 'orders: at least 1 leg').max(MAX_LEGS_PER_BATCH, `orders: at most ${MAX_LEGS_PER_BATCH} legs`),
});
export type PlaceOrdersBody = z.infer<typeof PlaceOrdersBodySchema>;

export const LegResultSchema = z.object({
  /** Rejected legs may come back without an id. */
  order_id: z.string().nullable().optional(),
  client_order_id: z.string(),
  status: z.enum(['SUBMITTED', 'REJECTED']),
  reason: reason.optional(),
});
export type LegResult = z.infer<typeof LegResultSchema>;
export const PlaceOrdersResultSchema = z.array(LegResultSchema);

/** GET /orders/{orderId}: the spec shows four fields; the rest are kept, not interpreted. */
export const OrderRecordSchema = z.looseObject({
  order_id: z.string(),
  status: z.enum(ORDER_STATUSES),
  reason: reason.nullable().optional(),
  avg_fill_price: decimalString.nullable().optional(),
});
export type OrderRecord = z.infer<typeof OrderRecordSchema>;

/** Rows of open-orders, position-triggers and order-history (lowercase list vocabulary). */
export const ListedOrderSchema = z.object({
  order_id: z.string(),
  /**
   * Not in the spec's table of listed-order fields, yet the service's rows carry it (the simulator's do):
   * kept when present, so a lost answer is reconciled by it (services/orders/submitOrder.ts).
   */
  client_order_id: z.string().optional(),
  market: z.string(),
  side: z.enum(['buy', 'sell']),
  size: decimalString,
  filled_size: decimalString,
  limit_price: decimalString,
  order_type: z.enum(ORDER_TYPES),
  time_in_force: z.enum(TIME_IN_FORCE).nullable().optional(),
  reduce_only: z.boolean(),
  trigger_price: decimalString.nullable().optional(),
  trigger_direction: z.string().nullable().optional(),
  tpsl: z.enum(['tp', 'sl']).nullable().optional(),
  is_trigger_market: z.boolean().nullable().optional(),
  status: z.enum(LIST_STATUSES),
  submitted_at: unixMs,
  status_at: unixMs,
  is_modifying: z.boolean().optional(),
  parent_order_id: z.string().nullable().optional(),
  reason: reason.nullable().optional(),
  avg_fill_price: decimalString.nullable().optional(),
});
export type ListedOrder = z.infer<typeof ListedOrderSchema>;

export const OpenOrdersSchema = z.object({ orders: z.array(ListedOrderSchema), total: z.number().int().nonnegative() });
export type OpenOrders = z.infer<typeof OpenOrdersSchema>;
export const PositionTriggersSchema = OpenOrdersSchema;
export const OrderHistorySchema = z.object({
  orders: z.array(ListedOrderSchema),
  limit: z.number().int(),
  offset: z.number().int(),
  total: z.number().int().nonnegative(),
});
export type OrderHistory = z.infer<typeof OrderHistorySchema>;

export const CANCELLABLE_ORDER_TYPES = ['LIMIT', 'TRIGGER'] as const;

export const CancelBodySchema = z.object({
  /** The wallet, not the account_id. */
  account: address,
  order_type: z.enum(CANCELLABLE_ORDER_TYPES),
  nonce: nonceString,
  signature: signatureHex,
});
export type CancelBody = z.infer<typeof CancelBodySchema>;

export const CancelResultSchema = z.looseObject({
  status: z.enum(['SUBMITTED', 'REJECTED']),
  reason: reason.nullable().optional(),
});
export type CancelResult = z.infer<typeof CancelResultSchema>;

export const CancelBatchLegSchema = z.object({
  order_id: z.string().min(1),
  order_type: z.enum(CANCELLABLE_ORDER_TYPES),
  nonce: nonceString,
  signature: signatureHex,
});
export const CancelBatchBodySchema = z.object({
  account: address,
  cancels: z.array(CancelBatchLegSchema).min(1, 'cancels: at least 1').max(MAX_LEGS_PER_BATCH, `cancels: at most ${MAX_LEGS_PER_BATCH}`),
});
export type CancelBatchBody = z.infer<typeof CancelBatchBodySchema>;

export const CancelBatchLegResultSchema = z.looseObject({
  order_id: z.string(),
  status: z.enum(['SUBMITTED', 'FAILED']),
  reason: reason.nullable().optional(),
});
export type CancelBatchLegResult = z.infer<typeof CancelBatchLegResultSchema>;
export const CancelBatchResultSchema = z.array(CancelBatchLegResultSchema);

export const ModifyBodySchema = z.object({
  account_id: accountId,
  client_order_id: z.string().min(1),
  limit_price: canonicalUnsignedDecimal,
  size: canonicalUnsignedDecimal,
  trigger_price: canonicalUnsignedDecimal,
  nonce: nonceString,
  signature: signatureHex,
});
export type ModifyBody = z.infer<typeof ModifyBodySchema>;

export const ModifyResultSchema = z.looseObject({
  order_id: z.string(),
  status: z.string().optional(),
  reason: reason.nullable().optional(),
});
export type ModifyResult = z.infer<typeof ModifyResultSchema>;

/**
 * Order intents: what a person asks for, one schema per order kind, before it becomes legs. The app's
 * ticket builds one, the IPC contract carries it (orders:preview), the command line builds one from its
 * flags, and main's strategy for that kind (src/main/services/orders/strategies) expands it into the legs
 * that are signed. The renderer imports these types instead of retyping them.
 *
 * Adding an order kind: its schema here and one entry in ORDER_INTENT_SCHEMAS; then its strategy file and
 * registry line in main, its ticket fields and its command-line options.
 *
 * Optional fields are the user's to set; what is left out gets the app's defaults in main (leverage from
 * settings, time in force per type, a MARKET bound from the mark and the market's slippage_bps).
 */
import { z } from 'zod';
import { decimalIn, marketSymbol } from '../fieldSchemas.js';
import { SIDES, TIME_IN_FORCE, TPSL } from '../protocol/schemas/orders.js';
import { MAX_SCALE_LEGS, MIN_SCALE_LEGS } from './scaleLadder.js';

const leverage = z.number().int().min(1).max(1000);
/** Tolerance of a computed MARKET bound or fire price; default the market's slippage_bps. */
const slippageBps = z.number().int().min(0).max(5000);

/** One order: MARKET, LIMIT or TRIGGER (a TP/SL that fires on the mark). */
export const SingleIntentSchema = z.strictObject({
  kind: z.literal('single'),
  market: marketSymbol,
  side: z.enum(SIDES),
  order_type: z.enum(['MARKET', 'LIMIT', 'TRIGGER']),
  /** TRIGGER with reduce_only: '0' closes the whole position when it fires. */
  size: decimalIn,
  /** LIMIT: the price. MARKET: an explicit slippage bound (default: from the mark). TRIGGER: the fire price (default: from the trigger price). */
  limit_price: decimalIn.optional(),
  /** Default IOC for MARKET, GTC for LIMIT; omitted for TRIGGER. ALO is post-only. */
  time_in_force: z.enum(TIME_IN_FORCE).optional(),
  reduce_only: z.boolean().optional(),
  leverage: leverage.optional(),
  slippage_bps: slippageBps.optional(),
  /** TRIGGER orders only. */
  trigger: z.strictObject({ trigger_price: decimalIn, tpsl: z.enum(TPSL) }).optional(),
});
export type SingleIntent = z.infer<typeof SingleIntentSchema>;

export const BracketLevelSchema = z.strictObject({
  /** Mark-price threshold that arms-and-fires the leg. */
  trigger_price: decimalIn,
  /** Fire price; default: the slippage tolerance around the trigger price. */
  limit_price: decimalIn.optional(),
});
export type BracketLevel = z.infer<typeof BracketLevelSchema>;

/** An opening MARKET or LIMIT entry with whole-position TP and/or SL legs that arm once it fills. */
export const BracketIntentSchema = z
  .strictObject({
    kind: z.literal('bracket'),
    market: marketSymbol,
    side: z.enum(SIDES),
    order_type: z.enum(['MARKET', 'LIMIT']),
    size: decimalIn,
    limit_price: decimalIn.optional(),
    time_in_force: z.enum(TIME_IN_FORCE).optional(),
    leverage: leverage.optional(),
    slippage_bps: slippageBps.optional(),
    tp: BracketLevelSchema.optional(),
    sl: BracketLevelSchema.optional(),
  })
  .refine((b) => b.tp !== undefined || b.sl !== undefined, { message: 'a bracket needs a take-profit or a stop-loss level', path: ['tp'] });
export type BracketIntent = z.infer<typeof BracketIntentSchema>;

/**
 * A scale order: `count` LIMIT legs from from_price to to_price, sent as one batch, the sizes equal or
 * skewed (src/shared/orders/scaleLadder.ts builds the ladder; the review lists every leg).
 */
export const ScaleIntentSchema = z.strictObject({
  kind: z.literal('scale'),
  market: marketSymbol,
  side: z.enum(SIDES),
  /** The first leg's price. */
  from_price: decimalIn,
  /** The last leg's price. */
  to_price: decimalIn,
  count: z.number().int().min(MIN_SCALE_LEGS).max(MAX_SCALE_LEGS),
  /** The sum of the legs' sizes, exactly. */
  total_size: decimalIn,
  /** The last leg's size over the first's; default 1 (equal sizes). */
  skew: decimalIn.optional(),
  /** Default GTC; ALO makes every leg post-only. */
  time_in_force: z.enum(['GTC', 'ALO']).optional(),
  reduce_only: z.boolean().optional(),
  leverage: leverage.optional(),
});
export type ScaleIntent = z.infer<typeof ScaleIntentSchema>;

/** Every order kind; the registry in main has one strategy per entry. */
export const ORDER_INTENT_SCHEMAS = [SingleIntentSchema, BracketIntentSchema, ScaleIntentSchema] as const;
export const OrderIntentSchema = z.discriminatedUnion('kind', ORDER_INTENT_SCHEMAS);
export type OrderIntent = z.infer<typeof OrderIntentSchema>;
export type OrderKind = OrderIntent['kind'];

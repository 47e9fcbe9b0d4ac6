/**
 * An order kind as a strategy: its intent schema (src/shared/orders/intents.ts), how an intent expands
 * into the legs that are signed, and what those legs cost together. The generic prepare step
 * (prepareOrder.ts) reads the market and the mark, asks the strategy for legs, then validates, reserves
 * nonces and builds the review the same way for every kind; nothing else knows the kinds.
 */
import type { z } from 'zod';
import type { Decimal } from '../../../../shared/decimal/index.js';
import type { OrderIntent } from '../../../../shared/orders/intents.js';
import type { Market } from '../../../../shared/protocol/index.js';
import type { LegInput } from '../buildOrder.js';

export interface ExpandEnv {
  /** The live market record of the intent's market. */
  market: Market;
  /** The venue mark now, or null when the venue did not give one (legs that need it then fail to build). */
  mark: Decimal | null;
  /** The leverage an opening leg gets when the intent names none: the user's default for this market, else 1. */
  defaultLeverage: number;
  /** The slippage tolerance a computed MARKET bound gets when the intent names none (null: the market's). */
  defaultSlippageBps: number | null;
}

export interface ExpandedOrder {
  /** Legs in the API's field names, values as decimal text; in batch order. */
  legs: LegInput[];
  /** One label per leg, for the review and error messages ('entry', 'tp', ...). */
  labels: string[];
}

export interface OrderStrategy<I extends OrderIntent = OrderIntent> {
  readonly kind: I['kind'];
  readonly schema: z.ZodType<I>;
  expand(intent: I, env: ExpandEnv): ExpandedOrder;
}


/**
 * Bracket orders (spec, "Bracket orders"): an opening MARKET or LIMIT entry plus whole-position TP and/or
 * SL legs in the same batch. Each attached leg is a reduce-only TRIGGER with size '0', the opposite side
 * of the entry, naming the entry's client_order_id in parent_client_order_id (not signed). The legs wait
 * in PENDING_PARENT and arm once the entry's fill has settled into a position.
 *
 * Which side a level must be on is checked before signing (orderValidation.validateBatch) against the
 * reference the service uses: the entry's limit_price for a LIMIT entry, the current mark for a MARKET
 * entry. A modify of an entry re-checks its pending legs against the new limit price (modifyOrder).
 */
import type { ListedOrder, Tpsl } from '../../../shared/protocol/index.js';
import { newClientOrderId, oppositeSide, type LegInput, type ParsedLegInput } from './buildOrder.js';

export interface BracketLevels {
  /** Take-profit trigger price (decimal text). */
  tp?: string;
  /** Stop-loss trigger price (decimal text). */
  sl?: string;
  /** Fire prices; default: the slippage tolerance around each trigger price. */
  tpPrice?: string;
  slPrice?: string;
  /** An explicit tolerance of this order: every leg's fire price. */
  slippage_bps?: number;
  /** A default tolerance for the take-profit only (the stop-loss fires with the stop tolerance). */
  tpSlippageBps?: number;
}

/** The attached legs of `entry` as inputs (ready for parseLegInput/buildLeg). */
export function bracketLegInputs(entry: Pick<ParsedLegInput, 'market' | 'side' | 'client_order_id'>, levels: BracketLevels): LegInput[] {
  const out: LegInput[] = [];
  const make = (tpsl: Tpsl, triggerPrice: string, firePrice: string | undefined): LegInput => {
    const leg: LegInput = {
      market: entry.market,
      side: oppositeSide(entry.side),
      size: '0',
      order_type: 'TRIGGER',
      reduce_only: true,
      client_order_id: newClientOrderId(tpsl.toLowerCase()),
      trigger: { trigger_price: triggerPrice, tpsl, is_market: true },
      parent_client_order_id: entry.client_order_id,
    };
    if (firePrice !== undefined) leg.limit_price = firePrice;
    if (levels.slippage_bps !== undefined) leg.slippage_bps = levels.slippage_bps;
    else if (tpsl === 'TP' && levels.tpSlippageBps !== undefined) leg.slippage_bps = levels.tpSlippageBps;
    return leg;
  };
  if (levels.tp !== undefined) out.push(make('TP', levels.tp, levels.tpPrice));
  if (levels.sl !== undefined) out.push(make('SL', levels.sl, levels.slPrice));
  return out;
}

/** A listed order is a bracket leg still waiting for its entry (PENDING_PARENT): not armed, not modifiable. */
export function isPendingBracketLeg(row: Pick<ListedOrder, 'order_type' | 'status' | 'parent_order_id'>): boolean {
  return row.order_type === 'TRIGGER' && row.status === 'open' && typeof row.parent_order_id === 'string' && row.parent_order_id.length > 0;
}

/** An armed trigger: open, TRIGGER, not waiting for an entry. */
export function isArmedTriggerRow(row: Pick<ListedOrder, 'order_type' | 'status' | 'parent_order_id'>): boolean {
  return row.order_type === 'TRIGGER' && row.status === 'open' && !isPendingBracketLeg(row);
}

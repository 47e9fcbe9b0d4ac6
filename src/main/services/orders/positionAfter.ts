/**
 * The review's "position after": what the order would leave on its market, so a trader sees the size,
 * entry, isolated margin and liquidation estimate of the position before signing ("after this fill, with
 * this leverage"). An estimate built with the shared risk arithmetic (src/shared/protocol/riskMath.ts),
 * the same the ticket shows live:
 *  - legs that trade now or rest are assumed filled at their price: a LIMIT at its limit, a MARKET at the
 *    venue mark (its bound when there is no mark), in the order they are listed;
 *  - a standalone trigger is assumed to fire at its fire price (size 0 closes what is open then);
 *  - TP/SL legs attached to an entry are left out: they act later, on the position the entry opens.
 */
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { OrderReview } from '../../../shared/orders/review.js';
import { applyFill, liquidationPrice, type Market, type Position, type PositionState } from '../../../shared/protocol/index.js';
import type { UnsignedLeg } from './orderValidation.js';

export function reviewPositionAfter(legs: readonly UnsignedLeg[], market: Market, mark: Decimal | undefined, current: Position | undefined): OrderReview['position_after'] {
  let state: PositionState | null = current
    ? { size: new Decimal(current.size), entry_price: new Decimal(current.entry_price), isolated_margin: new Decimal(current.isolated_margin) }
    : null;
  for (const leg of legs) {
    if (leg.market !== market.symbol || leg.parent_client_order_id !== undefined) continue;
    const price = leg.order_type === 'MARKET' && mark ? mark : new Decimal(leg.limit_price);
    // A whole-position trigger (size 0) closes whatever is open when it fires.
    const size = new Decimal(leg.size).isZero() ? (state?.size.abs() ?? new Decimal(0)) : new Decimal(leg.size);
    if (size.isZero()) continue;
    state = applyFill(state, { side: leg.side, size, price, leverage: leg.leverage ?? 0, reduce_only: leg.reduce_only }, market);
  }
  if (state === null) return null;
  const liq = liquidationPrice(state, market.maintenance_margin_ratio);
  return { size: canonical(state.size), entry_price: canonical(state.entry_price), isolated_margin: canonical(state.isolated_margin), liquidation_price: liq ? canonical(liq) : null };
}

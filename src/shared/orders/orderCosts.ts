/**
 * What an order costs, leg by leg and in total: notional, fee kind, fee, the initial margin it posts and
 * what the free balance must cover. One function for the services' prepare step (the review) and the
 * app's ticket, so the two show the same notional, fee and margin for the same order. Built on the
 * primitives of ../protocol/tradingMath.ts.
 *
 * Each leg is priced where it will trade: a limit at its price, a trigger at its fire price, a MARKET leg
 * at the worse of the mark and its bound (a BUY at its bound, the most it may pay). A whole-position
 * trigger (size 0) is priced on the size it will close: the position as the legs before it leave it (in a
 * bracket, the position after its entry: adding 0.5 to a 1.0 long, the SL sells 1.5), else the open
 * position. A leg against the open position first closes it (no margin) and only the rest opens.
 */
import { Decimal } from '../decimal/decimal.js';
import type { Market } from '../protocol/schemas/config.js';
import type { Side, SubmittableOrderType, TimeInForce } from '../protocol/schemas/orders.js';
import { feeEstimate, feeKindOf, feeRateOf, initialMargin, orderNotional, type FeeKind } from '../protocol/tradingMath.js';

/** The fields of a leg (as it will be sent) that decide its cost. */
export interface CostedLeg {
  market: string;
  side: Side;
  size: string;
  limit_price: string;
  order_type: SubmittableOrderType;
  time_in_force?: TimeInForce | undefined;
  reduce_only: boolean;
  leverage?: number | undefined;
  client_order_id: string;
  parent_client_order_id?: string | undefined;
}

export type CostedMarket = Pick<Market, 'symbol' | 'maker_fee_rate' | 'taker_fee_rate' | 'max_leverage' | 'initial_margin_ratio'>;

export interface LegCost {
  notional: Decimal;
  feeKind: FeeKind;
  feeRate: Decimal;
  fee: Decimal;
}

export interface OrderCosts {
  legs: LegCost[];
  /** Legs that trade on their own (an attached TP/SL closes what its entry opened). */
  notional: Decimal;
  fees: Decimal;
  /** Fees of the legs that open: paid from the free balance with the margin. */
  openingFees: Decimal;
  margin: Decimal;
  /** Margin plus opening fees: what the free balance must cover. */
  required: Decimal;
}

/** The price a leg is costed at (see the module comment). */
export function costPrice(leg: Pick<CostedLeg, 'order_type' | 'limit_price'>, mark: Decimal | null): Decimal {
  const price = new Decimal(leg.limit_price);
  return leg.order_type === 'MARKET' && mark ? Decimal.max(mark, price) : price;
}

/**
 * `positions`: the open positions (signed size) the legs meet. `marks`: the venue marks known; a market
 * without one prices its MARKET legs at their bound and takes resting limits as makers.
 */
export function orderCosts(
  legs: readonly CostedLeg[],
  markets: ReadonlyMap<string, CostedMarket>,
  marks: ReadonlyMap<string, Decimal>,
  positions: readonly { market: string; size: string }[],
): OrderCosts {
  const byCloid = new Map(legs.map((l) => [l.client_order_id, l]));
  const net = new Map(positions.map((p) => [p.market, new Decimal(p.size)]));
  const out: OrderCosts = { legs: [], notional: new Decimal(0), fees: new Decimal(0), openingFees: new Decimal(0), margin: new Decimal(0), required: new Decimal(0) };
  const seen = new Set<string>();
  for (const leg of legs) {
    const market = markets.get(leg.market);
    if (!market) throw new Error(`no market record for ${leg.market}`);
    const mark = marks.get(leg.market) ?? null;
    const price = costPrice(leg, mark);
    const parent = leg.parent_client_order_id !== undefined ? byCloid.get(leg.parent_client_order_id) : undefined;
    // `net` already holds the legs listed before this one (a bracket lists its entry first): the position the
    // trigger arms on. An entry listed after its leg (no strategy does) is added here.
    const after = parent && !seen.has(parent.client_order_id) ? (net.get(leg.market) ?? new Decimal(0)).plus(parent.side === 'BUY' ? parent.size : new Decimal(parent.size).neg()) : (net.get(leg.market) ?? new Decimal(0));
    const size = !new Decimal(leg.size).isZero() ? new Decimal(leg.size) : after.abs();
    seen.add(leg.client_order_id);
    const notional = orderNotional(size, price);
    const feeKind = feeKindOf(leg, mark);
    const feeRate = feeRateOf(market, feeKind);
    const fee = feeEstimate(notional, feeRate);
    out.legs.push({ notional, feeKind, feeRate, fee });
    if (parent) continue;
    out.notional = out.notional.plus(notional);
    out.fees = out.fees.plus(fee);
    if (leg.reduce_only) continue;
    const signed = leg.side === 'BUY' ? size : size.neg();
    const held = net.get(leg.market) ?? new Decimal(0);
    const closing = !held.isZero() && held.isPos() !== signed.isPos() ? Decimal.min(held.abs(), size) : new Decimal(0);
    const opening = size.minus(closing);
    net.set(leg.market, held.plus(signed));
    if (opening.isZero()) continue;
    const openingNotional = orderNotional(opening, price);
    out.margin = out.margin.plus(initialMargin(openingNotional, leg.leverage ?? 0, market, false));
    out.openingFees = out.openingFees.plus(feeEstimate(openingNotional, feeRate));
  }
  out.required = out.margin.plus(out.openingFees);
  return out;
}

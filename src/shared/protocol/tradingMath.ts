/**
 * The money arithmetic of an order, pure, over decimal strings: its notional, which fee it pays (maker or
 * taker), the fee estimate and the initial margin it posts. The services' prepare step, the app's ticket
 * and the command line all call these, so the three never disagree about what an order costs.
 *
 * The rules follow the spec and the service's matching:
 *  - notional is |size| x price (Orders rule 4: size x price, checked after rounding);
 *  - a resting order is a maker (post-only always is: "a post-only fill is a maker fill and pays the maker
 *    rate"); MARKET, IOC, fired triggers and a limit that crosses the mark take liquidity at once;
 *  - opening posts isolated margin of notional x max(1/leverage, initial_margin_ratio); leverage 0 (not
 *    given) reads as the market's max_leverage, which is why the clients always sign an explicit one;
 *  - a reduce-only order only releases margin: it posts none.
 */
import { Decimal, parseDecimal } from '../decimal/decimal.js';
import type { Market } from './schemas/config.js';
import type { Side, SubmittableOrderType, TimeInForce } from './schemas/orders.js';

export type FeeKind = 'maker' | 'taker';

type Dec = Decimal | string;
const dec = (v: Dec, field: string): Decimal => (typeof v === 'string' ? parseDecimal(v, field) : v);

/** |size| x price. */
export function orderNotional(size: Dec, price: Dec): Decimal {
  return dec(size, 'size').abs().mul(dec(price, 'price'));
}

/** A limit BUY at or above the mark (a SELL at or below it) executes at once instead of resting. */
export function crossesMark(side: Side, limitPrice: Dec, mark: Dec): boolean {
  const p = dec(limitPrice, 'limit_price');
  const m = dec(mark, 'mark');
  return side === 'BUY' ? p.gte(m) : p.lte(m);
}

export interface FeeLeg {
  order_type: SubmittableOrderType;
  side: Side;
  time_in_force?: TimeInForce | null | undefined;
  limit_price: string;
}

/**
 * Maker or taker. Without a mark a GTC limit is taken to rest (the usual case: the ticket's estimate then
 * shows the maker rate and the review, which has the mark, says so when it crosses).
 */
export function feeKindOf(leg: FeeLeg, mark: Dec | null): FeeKind {
  if (leg.order_type !== 'LIMIT') return 'taker';
  if (leg.time_in_force === 'ALO') return 'maker';
  if (leg.time_in_force === 'IOC') return 'taker';
  if (mark === null) return 'maker';
  return crossesMark(leg.side, leg.limit_price, mark) ? 'taker' : 'maker';
}

export function feeRateOf(market: Pick<Market, 'maker_fee_rate' | 'taker_fee_rate'>, kind: FeeKind): Decimal {
  return parseDecimal(kind === 'maker' ? market.maker_fee_rate : market.taker_fee_rate, `${kind}_fee_rate`);
}

/** notional x rate (exact; round only for display). */
export function feeEstimate(notional: Dec, rate: Dec): Decimal {
  return dec(notional, 'notional').mul(dec(rate, 'fee_rate'));
}

/** max(1/leverage, initial_margin_ratio), leverage 0 read as max_leverage (as the service reads it). */
export function initialMarginRate(leverage: number, market: Pick<Market, 'max_leverage' | 'initial_margin_ratio'>): Decimal {
  const lev = leverage > 0 ? leverage : market.max_leverage;
  return Decimal.max(new Decimal(1).div(lev), parseDecimal(market.initial_margin_ratio, 'initial_margin_ratio'));
}

/** The isolated margin an order posts when it fills: none for a reduce-only order. */
export function initialMargin(notional: Dec, leverage: number, market: Pick<Market, 'max_leverage' | 'initial_margin_ratio'>, reduceOnly: boolean): Decimal {
  if (reduceOnly) return new Decimal(0);
  return dec(notional, 'notional').mul(initialMarginRate(leverage, market));
}


/**
 * The per-market price and size rules of 'Orders' rule 4 and the Market resource, as pure checks over
 * decimal strings. The client runs them before signing (so a violation is a clear error and nothing is
 * sent); the simulator runs the same spec rules when it judges a leg.
 */
import { Decimal, decimalPlaces, isMultipleOf, parseDecimal } from '../decimal/decimal.js';
import type { Market } from './schemas/config.js';

export type MarketRuleViolation =
  | { rule: 'price_off_tick'; field: 'limit_price' | 'trigger_price'; message: string }
  | { rule: 'price_too_precise'; field: 'limit_price' | 'trigger_price'; message: string }
  | { rule: 'size_too_precise'; field: 'size'; message: string }
  | { rule: 'below_min_order_value'; field: 'size'; message: string }
  | { rule: 'above_max_notional'; field: 'size'; message: string };

type PriceField = 'limit_price' | 'trigger_price';
type RulesMarket = Pick<Market, 'symbol' | 'tick_size' | 'px_decimals' | 'sz_decimals' | 'min_order_value' | 'max_notional'>;

/**
 * A limit price (Orders rule 4): an exact multiple of tick_size and at most px_decimals places. The tick
 * binds harder, so a price that breaks both is reported off-tick (the service's own reason,
 * price_off_tick), not as too precise.
 */
export function checkPrice(market: RulesMarket, price: string, field: PriceField = 'limit_price'): MarketRuleViolation | null {
  const p = parseDecimal(price, field);
  if (!isMultipleOf(p, market.tick_size)) {
    return { rule: 'price_off_tick', field, message: `${field} ${price} is not a multiple of the tick size ${market.tick_size} (${market.symbol})` };
  }
  return checkPricePlaces(market, price, field);
}

/**
 * A trigger price (a TP/SL threshold, a bracket level): the spec puts the tick rule on limit_price only, so
 * a threshold needs just to fit px_decimals, as the service's prices do.
 */
export function checkPricePlaces(market: RulesMarket, price: string, field: PriceField = 'trigger_price'): MarketRuleViolation | null {
  if (decimalPlaces(parseDecimal(price, field)) > market.px_decimals) {
    return { rule: 'price_too_precise', field, message: `${field} ${price} has more than ${market.px_decimals} decimal places (${market.symbol})` };
  }
  return null;
}

/** Size: at most sz_decimals places. */
export function checkSize(market: RulesMarket, size: string): MarketRuleViolation | null {
  if (decimalPlaces(parseDecimal(size, 'size')) > market.sz_decimals) {
    return { rule: 'size_too_precise', field: 'size', message: `size ${size} has more than ${market.sz_decimals} decimal places (${market.symbol})` };
  }
  return null;
}

/** size x price, the order's notional. Inputs are the already-rounded strings that will be sent. */
export function notional(size: string, price: string): Decimal {
  return parseDecimal(size, 'size').mul(parseDecimal(price, 'limit_price'));
}

/**
 * min_order_value after rounding (reduce-only legs are exempt) and max_notional, whose '0' is the
 * no-ceiling sentinel — never a zero cap.
 */
export function checkNotional(market: RulesMarket, size: string, price: string, reduceOnly: boolean): MarketRuleViolation | null {
  const value = notional(size, price);
  if (!reduceOnly && value.lt(parseDecimal(market.min_order_value, 'min_order_value'))) {
    return {
      rule: 'below_min_order_value',
      field: 'size',
      message: `order value ${value.toFixed()} is below the minimum ${market.min_order_value} for ${market.symbol} (size x price, after rounding)`,
    };
  }
  const max = parseDecimal(market.max_notional, 'max_notional');
  if (!max.isZero() && value.gt(max)) {
    return { rule: 'above_max_notional', field: 'size', message: `order value ${value.toFixed()} exceeds the maximum ${market.max_notional} for ${market.symbol}` };
  }
  return null;
}

/** True when max_notional is the no-ceiling sentinel. */
export function hasNoNotionalCeiling(market: Pick<Market, 'max_notional'>): boolean {
  return new Decimal(market.max_notional).isZero();
}

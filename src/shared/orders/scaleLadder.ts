/**
 * A scale order's ladder, pure: 2 to 20 LIMIT legs between two prices, the sizes equal or skewed, every
 * value on the market's grids. The service has no scale order type, so the client builds one from plain
 * limits sent as one batch; main's scale strategy turns these rungs into legs, the renderer can draw the
 * same rungs while the user types, and both get the same answer.
 *
 *  - The two ends are the prices the user typed, and each must already be on the tick: an off-tick end is
 *    refused (naming the tick and the nearest valid prices on either side), never rounded, as a limit
 *    close's price is: a buy ladder signed above the price typed is a loss nobody asked for.
 *  - Prices are evenly spaced from `from` to `to` (either direction); the rungs between the ends go to the
 *    nearest tick. Rounding is monotone, so the prices keep their order; two rungs landing on the same tick
 *    means the range is too narrow for that many legs, which is refused (naming how many fit).
 *  - Sizes follow linear weights 1 .. skew (skew = the last leg's size over the first's; 1 = equal). Each
 *    exact size is rounded down to the size step, and the steps that rounding left over go, one each, to
 *    the legs that lost most: the total is exactly the size asked for, and every leg is within one size
 *    step of its exact share (so the skew holds within rounding).
 *  - Every leg is worth at least min_order_value after rounding (reduce-only ladders are exempt, as the
 *    service exempts reduce-only legs); otherwise the error names the smallest leg.
 */
import { Decimal, canonical, decimalPlaces, isMultipleOf, parseDecimalText, DecimalError } from '../decimal/decimal.js';
import { InputRuleError } from '../errorKinds.js';
import type { Market } from '../protocol/schemas/config.js';
import { splitOnStep } from './splitOnStep.js';
import type { Side } from '../protocol/schemas/orders.js';

export const MIN_SCALE_LEGS = 2;
/** The batch limit of POST /orders: a ladder is sent as one batch. */
export const MAX_SCALE_LEGS = 20;
/** Skews beyond this make the small end a rounding error of the large one; nobody means that. */
export const MAX_SCALE_SKEW = 100;

export type ScaleMarket = Pick<Market, 'symbol' | 'tick_size' | 'px_decimals' | 'sz_decimals' | 'min_order_value'>;

export interface ScaleLadderInput {
  side: Side;
  /** The first leg's price (decimal text). */
  from: string;
  /** The last leg's price. */
  to: string;
  count: number;
  totalSize: string;
  /** The last leg's size over the first's; default '1' (equal sizes). */
  skew?: string;
  /** Reduce-only legs are exempt from min_order_value (as the service exempts them). */
  reduceOnly?: boolean;
}

export interface ScaleRung {
  /** 0-based, from the `from` end. */
  index: number;
  price: string;
  size: string;
  /** size x price. */
  notional: string;
}

/** Why a ladder cannot be built: a validation error (nothing was signed), naming the input field. */
export class ScaleLadderError extends InputRuleError {
  declare readonly field: string;
  constructor(errorCode: string, field: string, message: string, errorHint?: string) {
    super(errorCode, field, message, errorHint);
    this.name = 'ScaleLadderError';
  }
}

function decimalOf(value: string, field: string): Decimal {
  try {
    return parseDecimalText(value, field);
  } catch (err) {
    if (err instanceof DecimalError) throw new ScaleLadderError('VALIDATION_ERROR', field, err.message);
    throw err;
  }
}

/** `price` when it is a multiple of the tick; otherwise a refusal naming the valid prices either side. */
function onTick(market: ScaleMarket, price: Decimal, text: string, field: 'from_price' | 'to_price'): Decimal {
  if (isMultipleOf(price, market.tick_size)) return price;
  const tick = new Decimal(market.tick_size);
  const below = price.div(tick).floor().mul(tick);
  const above = below.plus(tick);
  throw new ScaleLadderError(
    'PRICE_OFF_TICK',
    field,
    `${text} is not a multiple of ${market.symbol}'s tick_size ${market.tick_size}: the nearest valid prices are ${canonical(below)} and ${canonical(above)}`,
    'Give a price on the tick; the ends of a ladder are never rounded.',
  );
}

/** The rung prices, on the tick, from `from` to `to` (both ends must already be on it). */
export function scalePrices(market: ScaleMarket, fromText: string, toText: string, count: number): Decimal[] {
  const from = decimalOf(fromText, 'from_price');
  const to = decimalOf(toText, 'to_price');
  if (from.lte(0)) throw new ScaleLadderError('VALIDATION_ERROR', 'from_price', 'must be greater than 0');
  if (to.lte(0)) throw new ScaleLadderError('VALIDATION_ERROR', 'to_price', 'must be greater than 0');
  if (from.eq(to)) throw new ScaleLadderError('VALIDATION_ERROR', 'to_price', 'must differ from from_price: a ladder spans a range of prices');
  const tick = new Decimal(market.tick_size);
  // The ends are signed as typed: an off-tick end is refused, never rounded (either way is a price the
  // user did not type, and one of the two ways is the wrong side of it).
  const first = onTick(market, from, fromText, 'from_price');
  const last = onTick(market, to, toText, 'to_price');
  const fits = last.minus(first).abs().div(tick).plus(1);
  if (fits.lt(count)) {
    throw new ScaleLadderError(
      'SCALE_RANGE_TOO_NARROW',
      'count',
      `${count} legs do not fit between ${fromText} and ${toText} on ${market.symbol}'s tick ${market.tick_size}: ${fits.toFixed()} distinct prices there`,
      'Widen the range or use fewer legs.',
    );
  }
  const step = last.minus(first).div(count - 1);
  const prices: Decimal[] = [];
  for (let i = 0; i < count; i++) {
    const exact = first.plus(step.mul(i));
    prices.push(i === 0 ? first : i === count - 1 ? last : exact.div(tick).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).mul(tick));
  }
  for (let i = 1; i < count; i++) {
    // Rounding is monotone, so only equal neighbours can happen (a range barely wider than the count).
    if (prices[i]!.eq(prices[i - 1]!)) {
      throw new ScaleLadderError('SCALE_RANGE_TOO_NARROW', 'count', `legs ${i} and ${i + 1} both land on ${canonical(prices[i]!)} on ${market.symbol}'s tick ${market.tick_size}`, 'Widen the range or use fewer legs.');
    }
  }
  for (const p of prices) {
    if (decimalPlaces(p) > market.px_decimals) throw new ScaleLadderError('VALIDATION_ERROR', 'from_price', `${canonical(p)} has more than ${market.px_decimals} decimal places (px_decimals of ${market.symbol})`);
  }
  return prices;
}

/** The rung sizes: linear weights 1 .. skew, rounded to sz_decimals with the total kept exact. */
export function scaleSizes(market: ScaleMarket, totalText: string, count: number, skewText = '1'): Decimal[] {
  const total = decimalOf(totalText, 'total_size');
  if (total.lte(0)) throw new ScaleLadderError('VALIDATION_ERROR', 'total_size', 'must be greater than 0');
  if (decimalPlaces(total) > market.sz_decimals) {
    throw new ScaleLadderError('VALIDATION_ERROR', 'total_size', `${totalText} has more than ${market.sz_decimals} decimal places (sz_decimals of ${market.symbol})`);
  }
  const skew = decimalOf(skewText, 'skew');
  if (skew.lte(0) || skew.gt(MAX_SCALE_SKEW)) throw new ScaleLadderError('VALIDATION_ERROR', 'skew', `must be above 0 and at most ${MAX_SCALE_SKEW} (the last leg's size over the first's), got ${skewText}`);
  const step = new Decimal(1).div(new Decimal(10).pow(market.sz_decimals));
  const weights = Array.from({ length: count }, (_, i) => new Decimal(1).plus(skew.minus(1).mul(i).div(count - 1)));
  const weightSum = weights.reduce((a, w) => a.plus(w), new Decimal(0));
  const exact = weights.map((w) => total.mul(w).div(weightSum));
  const sizes = splitOnStep(total, exact, step);
  const empty = sizes.findIndex((s) => s.isZero());
  if (empty >= 0) {
    throw new ScaleLadderError(
      'SCALE_LEG_TOO_SMALL',
      'total_size',
      `leg ${empty + 1} of ${count} would get a size of 0 at ${market.symbol}'s ${market.sz_decimals} size decimals`,
      'Raise the total size, or use fewer legs or a smaller skew.',
    );
  }
  return sizes;
}

/** The whole ladder (see the module comment); a ScaleLadderError names what is wrong. */
export function scaleLadder(market: ScaleMarket, input: ScaleLadderInput): ScaleRung[] {
  if (!Number.isInteger(input.count) || input.count < MIN_SCALE_LEGS || input.count > MAX_SCALE_LEGS) {
    throw new ScaleLadderError('VALIDATION_ERROR', 'count', `must be an integer from ${MIN_SCALE_LEGS} to ${MAX_SCALE_LEGS} (one batch), got ${String(input.count)}`);
  }
  const prices = scalePrices(market, input.from, input.to, input.count);
  const sizes = scaleSizes(market, input.totalSize, input.count, input.skew);
  const rungs = prices.map((p, i) => ({ index: i, price: p, size: sizes[i]!, notional: p.mul(sizes[i]!) }));
  if (input.reduceOnly !== true) {
    const min = new Decimal(market.min_order_value);
    const smallest = rungs.reduce((a, r) => (r.notional.lt(a.notional) ? r : a));
    if (smallest.notional.lt(min)) {
      throw new ScaleLadderError(
        'SCALE_LEG_BELOW_MIN',
        'total_size',
        `the smallest leg, ${smallest.index + 1} of ${input.count} (${input.side} ${canonical(smallest.size)} at ${canonical(smallest.price)}), is worth ${canonical(smallest.notional)} USDC, below ${market.symbol}'s min_order_value ${market.min_order_value}`,
        'Raise the total size, or use fewer legs or a skew closer to 1; only reduce-only ladders are exempt.',
      );
    }
  }
  return rungs.map((r) => ({ index: r.index, price: canonical(r.price), size: canonical(r.size), notional: canonical(r.notional) }));
}

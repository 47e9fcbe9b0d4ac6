/**
 * Sizing in USD ("--usd 250", "buy 250 usd of btc"): the size is the amount over a reference price,
 * rounded DOWN to the market's sz_decimals, so the order never costs more than was said. The reference is
 * what the order is priced at: a limit order's price, a trigger's trigger price, the mark for a market
 * order or a TWAP, and for a scale ladder the size-weighted mean of its rungs' prices. The size it becomes
 * is what is reviewed and signed; an amount too small for one size step is refused, never rounded up.
 */
import { Decimal, canonical, decimalTextProblem } from '../decimal/decimal.js';

export interface UsdSizing {
  usd: string;
  /** The price the amount was divided by. */
  price: string;
  /** usd / price, rounded down to sz_decimals. */
  size: string;
  /** size x price: what the size is worth at that price (at most usd). */
  notional: string;
}

export type UsdSizingResult = { ok: true; sizing: UsdSizing } | { ok: false; reason: string };

export function sizeFromUsd(usdText: string, price: Decimal | string, market: { symbol: string; sz_decimals: number }): UsdSizingResult {
  const problem = decimalTextProblem(usdText);
  if (problem !== null) return { ok: false, reason: `the USD amount ${problem}` };
  const usd = new Decimal(usdText);
  if (usd.lte(0)) return { ok: false, reason: 'the USD amount must be greater than 0' };
  const p = new Decimal(price);
  if (p.lte(0)) return { ok: false, reason: `no positive price to size ${market.symbol} by` };
  const size = usd.div(p).toDecimalPlaces(market.sz_decimals, Decimal.ROUND_DOWN);
  if (size.isZero()) {
    const step = new Decimal(1).div(new Decimal(10).pow(market.sz_decimals));
    return { ok: false, reason: `${canonical(usd)} USD is less than one size step (${canonical(step)} ${market.symbol}) at ${canonical(p)}; nothing is rounded up` };
  }
  return { ok: true, sizing: { usd: canonical(usd), price: canonical(p), size: canonical(size), notional: canonical(size.mul(p)) } };
}

/** The size-weighted mean price of a ladder whose rung weights are `weights` (any positive scale) at `prices`. */
export function weightedMeanPrice(prices: readonly Decimal[], weights: readonly Decimal[]): Decimal {
  const total = weights.reduce((a, w) => a.plus(w), new Decimal(0));
  return prices.reduce((a, p, i) => a.plus(p.mul(weights[i]!)), new Decimal(0)).div(total);
}

/** The plain line a review shows: "250 USD at 95000 = 0.00263 BTC (worth 249.85; rounded down to 5 places)". */
export function describeUsdSizing(s: UsdSizing, market: { symbol: string; sz_decimals: number }, reference: string): string {
  return `${s.usd} USD at ${reference} ${s.price} = ${s.size} ${market.symbol} (worth ${s.notional} USD; rounded down to ${market.sz_decimals} size decimals)`;
}

/** The size-weighted mean price of a scale ladder (its rungs' prices and linear weights 1 .. skew, as scaleLadder.ts sizes them). */
export function scaleMeanPrice(prices: readonly Decimal[], skewText = '1'): Decimal {
  const skew = new Decimal(skewText);
  const n = prices.length;
  const weights = prices.map((_, i) => (n < 2 ? new Decimal(1) : new Decimal(1).plus(skew.minus(1).mul(i).div(n - 1))));
  return weightedMeanPrice(prices, weights);
}

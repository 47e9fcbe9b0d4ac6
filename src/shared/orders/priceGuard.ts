/**
 * The fat-finger guard's rules, pure, so main's prepare step (which enforces them before anything is
 * signed) and the renderer's ticket (which can warn while the user types) apply the same ones:
 *
 *  - FAR_PRICE: a limit price (or a MARKET order's explicit bound) that crosses the mark by more than the
 *    market's own slippage bound (slippage_bps from GET /markets). A limit buy far above the mark is not a
 *    better limit: it executes at once, at whatever the book offers (a buy at 10^30 fills at market). A
 *    post-only limit is exempt: crossing, it is rejected rather than executed.
 *  - LARGE_ORDER: an order whose notional exceeds the user's own cap (setting max_order_notional; null,
 *    the default, is off).
 *
 * Either needs an explicit confirmation: the app's review lists it and orders:place must name its code;
 * the command line needs --allow-far-price / --allow-large (exit 2 otherwise, nothing sent).
 */
import { Decimal } from '../decimal/decimal.js';
import type { Side } from '../protocol/schemas/orders.js';

export const CONFIRMATION_CODES = ['FAR_PRICE', 'LARGE_ORDER'] as const;
export type ConfirmationCode = (typeof CONFIRMATION_CODES)[number];

const BPS = new Decimal(10_000);

/**
 * The furthest a price may cross the mark without a confirmation: mark x (1 + bps) for a BUY, mark x
 * (1 - bps) for a SELL. Not rounded: the check compares against the exact bound.
 */
export function farPriceBound(side: Side, mark: Decimal, slippageBps: number): Decimal {
  const tol = new Decimal(slippageBps).div(BPS);
  return side === 'BUY' ? mark.mul(tol.plus(1)) : mark.mul(new Decimal(1).minus(tol));
}

/** True when `price` crosses the mark by more than `slippageBps` (a BUY above the bound, a SELL below it). */
export function crossesBeyondBound(side: Side, price: Decimal, mark: Decimal, slippageBps: number): boolean {
  const bound = farPriceBound(side, mark, slippageBps);
  return side === 'BUY' ? price.gt(bound) : price.lt(bound);
}

/** True when a cap is set and `notional` is above it (a cap equal to the notional allows it). */
export function exceedsNotionalCap(notional: Decimal, cap: string | null): boolean {
  return cap !== null && notional.gt(cap);
}

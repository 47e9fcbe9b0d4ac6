/**
 * The worst price a MARKET leg (or a fired market trigger) may execute at: the reference (the venue mark,
 * or the trigger price) moved by a tolerance in basis points, on the market's tick grid, rounded toward
 * the reference so the bound never allows more slippage than asked. Pure, so the app's ticket prices a
 * market order at the same bound main signs (services/orders/slippage.ts turns a bound that cannot be
 * expressed into a ValidationError naming the field).
 */
import { Decimal, roundToStep } from '../decimal/decimal.js';
import type { Side } from '../protocol/schemas/orders.js';

const BPS = new Decimal(10_000);

export type BoundResult =
  | { ok: true; bound: Decimal }
  /** below_reference: a BUY bound rounds under the reference; off_grid: a SELL bound rounds over it, or to 0. */
  | { ok: false; problem: 'below_reference' | 'off_grid' };

/** BUY may pay up to reference x (1 + bps), SELL may receive down to reference x (1 - bps). */
export function slippageBoundOf(side: Side, reference: Decimal, bps: number, tickSize: string): BoundResult {
  const tol = new Decimal(bps).div(BPS);
  const tick = new Decimal(tickSize);
  if (side === 'BUY') {
    const bound = roundToStep(reference.mul(tol.plus(1)), tick, 'down');
    return bound.lt(reference) ? { ok: false, problem: 'below_reference' } : { ok: true, bound };
  }
  const bound = roundToStep(reference.mul(new Decimal(1).minus(tol)), tick, 'up');
  return bound.gt(reference) || bound.lte(0) ? { ok: false, problem: 'off_grid' } : { ok: true, bound };
}

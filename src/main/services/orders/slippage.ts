/**
 * Slippage bounds. A MARKET leg's limit_price is the caller's bound (mark times one plus or minus a
 * tolerance), and a TRIGGER leg's limit_price is the worst price it may execute at once it fires. The
 * tolerance is the market's slippage_bps from GET /markets unless the user gives their own.
 *
 * Rounding to the tick goes toward the reference price ("the safe direction"): a BUY bound rounds down,
 * a SELL bound rounds up, so the bound never allows more slippage than the tolerance asked for. If the
 * tick is so coarse that rounding lands on the wrong side of the reference, the tolerance cannot be
 * expressed on this market's grid and the user has to choose a larger one (or an explicit price).
 */
import type { Decimal } from '../../../shared/decimal/index.js';
import { slippageBoundOf } from '../../../shared/orders/slippageBound.js';
import type { Market, Side } from '../../../shared/protocol/index.js';
import { ValidationError } from '../errors.js';

/** The tolerance to use: the user's value when given, else the market's slippage_bps. */
export function slippageBpsFor(market: Market, userBps?: number): number {
  if (userBps === undefined) return market.slippage_bps;
  if (!Number.isInteger(userBps) || userBps < 0 || userBps >= 10_000) {
    throw new ValidationError(`must be an integer from 0 to 9999 basis points, got ${String(userBps)}`, { field: 'slippage_bps' });
  }
  return userBps;
}

/**
 * The bound for an order of `side` that executes around `reference` (the venue mark for a MARKET leg,
 * the trigger price for a trigger's fire price): BUY may pay up to reference*(1+bps), SELL may receive
 * down to reference*(1-bps), on the tick grid, rounded toward the reference.
 */
export function slippageBound(side: Side, reference: Decimal, bps: number, market: Market, field = 'limit_price'): Decimal {
  const r = slippageBoundOf(side, reference, bps, market.tick_size);
  if (r.ok) return r.bound;
  if (r.problem === 'below_reference') {
    throw new ValidationError(`a ${bps} bps slippage bound above ${reference.toFixed()} rounds below it on ${market.symbol}'s tick ${market.tick_size}`, {
      field,
      hint: 'Give a larger --slippage-bps or an explicit --price.',
    });
  }
  throw new ValidationError(`a ${bps} bps slippage bound below ${reference.toFixed()} does not fit ${market.symbol}'s tick ${market.tick_size}`, {
    field,
    hint: 'Give a different --slippage-bps or an explicit --price.',
  });
}

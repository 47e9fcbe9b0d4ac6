/**
 * The floor a swap is held to when it is sent from a quote the user reviewed. The transaction always comes
 * from a fresh quote (the aggregator's calldata carries a deadline, and the reviewed one may be minutes
 * old), so the fresh quote must still deliver at least the minimum the review showed: the reviewed
 * minAmountOut (its amountOut less the slippage), the same rule the bridge applies to a re-quoted route.
 * Amounts are integer strings in the token's smallest unit, compared as BigInt.
 */
import type { SwapQuote } from '../../api/companion/schemas.js';
import { OperationError } from '../errors.js';

/** What the review promised at least, or null when the reviewed quote named no amount (nothing to hold). */
export function reviewedSwapFloor(reviewed: SwapQuote): bigint | null {
  const floor = reviewed.minAmountOut ?? reviewed.amountOut;
  return floor === undefined ? null : BigInt(floor);
}

/** Throws SWAP_QUOTE_WORSENED (nothing signed or sent) when the fresh quote delivers less than the floor. */
export function checkSwapFloor(floor: bigint | null, fresh: SwapQuote): void {
  if (floor === null) return;
  const delivers = fresh.amountOut ?? fresh.minAmountOut;
  if (delivers === undefined) {
    throw new OperationError('SWAP_QUOTE_WORSENED', 'the fresh swap quote does not say what it delivers, so it cannot be held to the minimum you reviewed', {
      hint: 'Quote the swap again; nothing was signed or sent.',
    });
  }
  if (BigInt(delivers) < floor) {
    throw new OperationError('SWAP_QUOTE_WORSENED', `the swap now delivers ${delivers}, below the minimum of ${floor} you reviewed`, {
      hint: 'Quote the swap again and review the new price; nothing was signed or sent.',
      details: { reviewed_min_amount_out: floor.toString(), new_amount_out: delivers },
    });
  }
}

/**
 * Explicit confirmations of a review (src/shared/orders/priceGuard.ts: FAR_PRICE, LARGE_ORDER). The app's
 * preview lets the guards through so the person can see the order, and lists what they tripped; the
 * acting channel must then name exactly those codes. A request that names fewer (the page skipped the
 * question) or others (it confirmed a different review) is refused before anything is signed, and the
 * review stays usable so the page can ask and send again.
 */
import type { ConfirmationCode } from '../../../shared/orders/priceGuard.js';
import type { ReviewConfirmation } from '../../../shared/orders/review.js';
import type { GuardAllowance } from '../../services/orders/prepareOrder.js';
import { ValidationError } from '../../services/errors.js';

export function requireConfirmations(needed: readonly ReviewConfirmation[], given: readonly string[] | undefined): void {
  const have = new Set(given ?? []);
  const missing = needed.filter((c) => !have.has(c.code));
  if (missing.length > 0) {
    throw new ValidationError(`this order needs an explicit confirmation: ${missing.map((c) => `${c.code} (${c.message})`).join('; ')}`, {
      field: 'confirm',
      code: 'CONFIRMATION_REQUIRED',
      hint: `Show the person what is unusual and, if they confirm, place it again with confirm: [${needed.map((c) => `'${c.code}'`).join(', ')}].`,
    });
  }
  const extra = [...have].filter((code) => !needed.some((c) => c.code === code));
  if (extra.length > 0) {
    throw new ValidationError(`confirm names ${extra.join(', ')}, which this review does not ask for`, {
      field: 'confirm',
      code: 'CONFIRMATION_MISMATCH',
      hint: 'Confirm exactly what the review lists (its confirmations), or preview it again.',
    });
  }
}

/** The guards a one-step action (a close at a limit price, a reverse) may pass, from what the person confirmed. */
export function allowanceOf(confirm: readonly ConfirmationCode[] | undefined): GuardAllowance {
  const codes = new Set(confirm ?? []);
  return { farPrice: codes.has('FAR_PRICE'), large: codes.has('LARGE_ORDER') };
}

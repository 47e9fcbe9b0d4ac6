/**
 * One-step actions (a limit close, a reverse) have no review of their own: main refuses one that trips the
 * fat-finger guard (VALIDATION, reason FAR_PRICE or LARGE_ORDER) before anything is signed, and its message
 * says what is unusual. The dialog then shows that as a confirmation to tick and sends again naming it.
 */
// From priceGuard, not ipc: a value import of ipc.ts would pull zod and every channel schema into the
// renderer (and zod's eval probe trips the page's Content-Security-Policy).
import { CONFIRMATION_CODES, type ConfirmationCode } from '../../../../shared/orders/priceGuard';
import type { ReviewConfirmation } from '../../../../shared/ipc';
import { IpcQueryError } from '../../ipc/client';

/** The confirmation a refusal asks for, or null when the error is anything else. */
export function guardFromError(err: unknown): ReviewConfirmation | null {
  if (!(err instanceof IpcQueryError) || err.code !== 'VALIDATION' || !err.reason) return null;
  const code = CONFIRMATION_CODES.find((c) => c === err.reason);
  return code ? { code, message: err.message } : null;
}

/** `list` with `guard` in it (replacing an older one of the same code: the newer message is the current one). */
export function withGuard(list: readonly ReviewConfirmation[], guard: ReviewConfirmation): ReviewConfirmation[] {
  return [...list.filter((g) => g.code !== guard.code), guard];
}

export type { ConfirmationCode };

/**
 * After a signed write failed, did it reach the book? Decided by the error's kind alone (src/shared/errorKinds.ts),
 * never by its message or code:
 *  - validation: refused before anything was signed or sent;
 *  - rejected: the service (or a signer) answered no: nothing of it is in the book;
 *  - transient: no usable answer (a lost answer, a timeout, a 5xx, a resend answered "already used"):
 *    it may have landed, so what was sent is looked up before anything else is sent;
 *  - internal: a bug; it is not guessed at, the runner stops and says so.
 */
import { toAppError } from '../../errors.js';

export type WriteOutcome = 'refused' | 'may_have_landed' | 'bug';

export function writeOutcome(err: unknown): WriteOutcome {
  const { kind } = toAppError(err);
  if (kind === 'validation' || kind === 'rejected') return 'refused';
  if (kind === 'transient') return 'may_have_landed';
  return 'bug';
}

/** True when a failed write may still have reached the service (its answer was lost). */
export function mayHaveLanded(err: unknown): boolean {
  return writeOutcome(err) === 'may_have_landed';
}

/** True when a failed write certainly did not reach the book (refused outright). */
export function refusedOutright(err: unknown): boolean {
  return writeOutcome(err) === 'refused';
}

/**
 * Sending a stored, signed withdrawal: the identical body every time, never a new signature. A lost answer
 * or a 409 (nonce used) means it landed, and it is found in withdrawal history (reconcile.ts); a refusal at
 * submit becomes the OperationError the caller sees.
 */
import { ApiError, type WithdrawResult } from '../../../../shared/protocol/index.js';
import { NetworkError, TimeoutError, WriteLandedUnknownResultError } from '../../../api/errors.js';
import type { ServiceContext } from '../../serviceContext.js';
import { OperationError } from '../../errors.js';
import type { TrackedWithdrawal } from '../withdrawalStore.js';
import { storeOf } from './prepare.js';
import { matchLanded } from './reconcile.js';

/** Drives a stored intent as far as a send can: SIGNED is (re)sent, LANDED is matched, others returned. */
export async function settleIntent(ctx: ServiceContext, record: TrackedWithdrawal): Promise<TrackedWithdrawal> {
  if (record.phase === 'SIGNED') return sendStored(ctx, record);
  if (record.phase === 'LANDED') return (await matchLanded(ctx, [record]))[0] ?? record;
  throwIfRejected(record);
  return record;
}

/** A submit-time rejection (or a refused body) as the OperationError the caller sees. */
function throwIfRejected(record: TrackedWithdrawal): void {
  if (record.phase !== 'DONE' || record.withdrawal_id !== null || record.reason === null) return;
  throw rejectionError(record);
}

const REJECTION_TEXT: Record<string, string> = {
  BELOW_MIN: 'the amount is under withdrawal.min_amount',
  BELOW_MIN_AFTER_FEE: 'the amount is under the minimum once the one-time new-wallet fee is deducted',
  ABOVE_MAX: 'the amount is over the per-transaction ceiling',
  DAILY_LIMIT_EXCEEDED: 'it would exceed the rolling daily allowance',
  RATE_LIMITED: 'too many withdrawal requests in a short window',
};
const REJECTION_HINT: Record<string, string> = {
  BELOW_MIN: 'Withdraw at least withdrawal.min_amount (see `perps config`).',
  BELOW_MIN_AFTER_FEE: 'The first withdrawal to a new destination pays the new-wallet fee: withdraw at least the minimum plus that fee.',
  ABOVE_MAX: 'Split it into smaller withdrawals.',
  DAILY_LIMIT_EXCEEDED: 'Wait for the rolling 24-hour window to free up, or withdraw less.',
  RATE_LIMITED: 'Wait a minute, then withdraw again.',
};

export function rejectionError(record: TrackedWithdrawal): OperationError {
  const reason = record.reason ?? 'REJECTED';
  const why = REJECTION_TEXT[reason] ?? 'the service refused it';
  const fee = record.new_wallet_fee !== null ? ` (new_wallet_fee ${record.new_wallet_fee} USDC)` : '';
  const details: Record<string, unknown> = { reason, intent_id: record.intent_id, amount: record.amount };
  if (record.new_wallet_fee !== null) details['new_wallet_fee'] = record.new_wallet_fee;
  const hint = REJECTION_HINT[reason];
  return new OperationError(reason, `withdrawal of ${record.amount} USDC rejected: ${reason}: ${why}${fee}; nothing was withdrawn`, { details, ...(hint ? { hint } : {}) });
}

/** A terminal status other than COMPLETED, as an error (for callers that wait). */
export function unsuccessfulError(record: TrackedWithdrawal): OperationError {
  const status = record.status ?? record.phase;
  const meaning: Record<string, string> = {
    REJECTED: 'it was rejected after submission (e.g. insufficient balance at the check); the funds stay in your balance',
    REFUNDED: 'it was debited, then returned in full to your balance',
    FAILED: 'it could not be completed',
    UNMATCHED: 'its request reached the service but no withdrawal exists for it; most likely it was rejected at submit',
  };
  return new OperationError(`WITHDRAWAL_${status}`, `withdrawal ${record.withdrawal_id ?? record.intent_id} ended ${status}: ${meaning[status] ?? status}${record.failure_reason ? ` (${record.failure_reason})` : ''}`, {
    details: { intent_id: record.intent_id, withdrawal_id: record.withdrawal_id, status, failure_reason: record.failure_reason },
    hint: status === 'FAILED' ? 'Check the balance and withdrawal history; contact the operator if funds are missing.' : 'Check `perps balance` and `perps history withdrawals`.',
  });
}

/** Sends the stored body (identical bytes every time) and records what came back. */
export async function sendStored(ctx: ServiceContext, record: TrackedWithdrawal): Promise<TrackedWithdrawal> {
  const store = storeOf(ctx);
  let current = store.update(record.intent_id, { send_attempts: record.send_attempts + 1 });
  let result: WithdrawResult;
  try {
    result = await ctx.api.withdraw(current.body);
  } catch (err) {
    // 409: this nonce is used, so this signed body already reached the service (an earlier send whose
    // answer was lost, or a resend inside the client). Find it; never sign again.
    if (err instanceof WriteLandedUnknownResultError || (err instanceof ApiError && err.status === 409)) {
      current = store.update(record.intent_id, { phase: 'LANDED', note: 'the service already has this request (nonce used); finding it in withdrawal history' });
      return (await matchLanded(ctx, [current]))[0] ?? current;
    }
    if (err instanceof NetworkError || err instanceof TimeoutError || (err instanceof ApiError && err.status >= 500)) {
      store.update(record.intent_id, { note: `last send failed: ${(err as Error).message}` });
      throw new OperationError('SUBMIT_UNCONFIRMED', `the withdrawal of ${record.amount} USDC was signed and sent, but no answer arrived: ${(err as Error).message}`, {
        cause: err,
        details: { intent_id: record.intent_id },
        hint: 'It is stored with its signature and will be resent unchanged (never signed again) on the next `perps withdraw --resume` or app start; the service accepts it at most once.',
      });
    }
    if (err instanceof ApiError) {
      // A definite refusal (400 INVALID_REQUEST, 401 UNAUTHORIZED): it never took effect.
      store.update(record.intent_id, { phase: 'DONE', reason: err.code ?? `HTTP_${err.status}`, note: err.message });
    }
    throw err;
  }
  if (result.status === 'REQUESTED' && result.withdrawal_id) {
    return store.update(record.intent_id, { phase: 'TRACKING', withdrawal_id: result.withdrawal_id, status: 'REQUESTED', note: null });
  }
  if (result.status === 'REQUESTED') {
    // Accepted without an id (off-spec): history will show it, as after a lost answer.
    current = store.update(record.intent_id, { phase: 'LANDED', note: 'accepted without a withdrawal_id; finding it in withdrawal history' });
    return (await matchLanded(ctx, [current]))[0] ?? current;
  }
  const done = store.update(record.intent_id, {
    phase: 'DONE',
    status: 'REJECTED',
    reason: result.reason ?? 'REJECTED',
    new_wallet_fee: result.new_wallet_fee ?? null,
    note: 'rejected at submit; no withdrawal was created',
  });
  throw rejectionError(done);
}

/**
 * POST /account/withdraw and the withdrawal lifecycle.
 *
 * Stages: shape (400 INVALID_REQUEST naming the field; amount is whole USDC with at most 6 places; the
 * Arbitrum rail needs both destination_chain_id = the environment's Arbitrum chain and
 * destination_recipient) -> signature over the server's environment, recovered signer must be the
 * wallet of account_id (401 UNAUTHORIZED) -> nonce (409) -> submit-time rules, answered
 * `status: REJECTED` at HTTP 200 with no record and no progression, in this order:
 *   RATE_LIMITED (more than rate_limit_max signed requests in rate_limit_window_ms),
 *   BELOW_MIN (amount < withdrawal.min_amount),
 *   BELOW_MIN_AFTER_FEE (new destination and amount - new_wallet_fee < min; new_wallet_fee in the answer),
 *   ABOVE_MAX (amount > max_per_tx), DAILY_LIMIT_EXCEEDED (rolling 24 h total incl. this one > daily_limit).
 *
 * Lifecycle: REQUESTED (funds locked out of free_balance when available)
 *   --withdrawal_accept_ms--> ACCEPTED + balance check (insufficient -> REJECTED, failure_reason
 *   INSUFFICIENT_BALANCE) --withdrawal_review_ms--> PROCESSING (l1_tx_hash) --withdrawal_complete_ms-->
 *   COMPLETED. REFUNDED returns the amount to free_balance (completed_at is then the refund's time); FAILED keeps it debited (it "could not be
 *   completed"; only a refund returns funds). Both, and a forced REJECTED, come from the control API.
 *
 * A destination is "new" (pays new_wallet_fee once) while it has no history: no deposit from it and no
 * withdrawal to it in flight or completed. A wallet withdrawing to itself has deposited, so pays no fee.
 */
import { usdcToBaseUnits } from '../../shared/decimal/index.js';
import { joinSignature } from '../../shared/eip712/index.js';
import { toChecksumAddress, walletFromAccountId } from '../../shared/identity/index.js';
import { WithdrawBodySchema, type WithdrawBody } from '../../shared/protocol/index.js';
import { ZERO, d, money, str } from '../core/numbers.js';
import { ApiFailure, invalidRequest } from '../core/response.js';
import { parseOr400 } from '../core/validate.js';
import type { SimContext } from '../context.js';
import type { WithdrawalForcedOutcome, WithdrawalRecord } from '../state/model.js';
import { consumeNonces } from '../auth/nonces.js';
import { recoverWithdrawSigner } from '../auth/verify.js';

const DAY_MS = 86_400_000;
const IN_FLIGHT = new Set(['REQUESTED', 'ACCEPTED', 'PROCESSING']);

export type WithdrawAnswer =
  | { status: 'REQUESTED'; withdrawal_id: string }
  | { status: 'REJECTED'; reason: 'RATE_LIMITED' | 'BELOW_MIN' | 'BELOW_MIN_AFTER_FEE' | 'ABOVE_MAX' | 'DAILY_LIMIT_EXCEEDED'; new_wallet_fee?: string };

function unauthorized(): ApiFailure {
  return new ApiFailure(401, 'UNAUTHORIZED', 'withdrawal signature does not verify for the wallet of account_id');
}

/**
 * `withdrawal.new_wallet_fee` is for "the first-ever credit to a destination with no history on it".
 * A wallet that deposited has history (its transfer to the venue is on record, whatever the rail or
 * amount), and so has one that a withdrawal already went to (in flight or completed).
 */
export function isNewDestination(ctx: SimContext, destination: string): boolean {
  const dest = destination.toLowerCase();
  if ((ctx.store.depositsByWallet.get(dest)?.length ?? 0) > 0) return false;
  for (const w of ctx.store.withdrawals.values()) {
    if (w.destination.toLowerCase() === dest && (w.status === 'COMPLETED' || IN_FLIGHT.has(w.status))) return false;
  }
  return true;
}

export function requestWithdrawal(ctx: SimContext, raw: unknown): WithdrawAnswer {
  const body: WithdrawBody = parseOr400(WithdrawBodySchema, raw);
  const amount = d(body.amount);
  if (amount.isNegative()) throw invalidRequest('amount: must not be negative');
  try {
    usdcToBaseUnits(body.amount);
  } catch (err) {
    throw invalidRequest((err as Error).message);
  }
  const arbitrum = body.destination_chain_id !== undefined || body.destination_recipient !== undefined;
  if (arbitrum) {
    if (body.destination_chain_id === undefined) throw invalidRequest('destination_chain_id: is required with destination_recipient (Arbitrum rail)');
    if (body.destination_recipient === undefined) throw invalidRequest('destination_recipient: is required with destination_chain_id (Arbitrum rail)');
    if (body.destination_chain_id !== ctx.env.arbitrumChainId) {
      throw invalidRequest(`destination_chain_id: the Arbitrum rail of ${ctx.env.environment} is ${ctx.env.arbitrumChainId}, got ${body.destination_chain_id}`);
    }
  }
  const walletChecksum = walletFromAccountId(body.account_id);
  const wallet = walletChecksum.toLowerCase();
  let signature: string;
  try {
    signature = joinSignature(body.signature);
  } catch {
    // Well-formed but unusable (high s): it cannot verify.
    throw unauthorized();
  }
  if (recoverWithdrawSigner(body, ctx.env.environment, signature) !== walletChecksum) throw unauthorized();
  consumeNonces(ctx, 'custody', wallet, [body.nonce]);

  const now = ctx.clock.now();
  const limits = ctx.config.withdrawal_limits;
  const times = (ctx.store.withdrawalRequests.get(wallet) ?? []).filter((t) => t > now - limits.rate_limit_window_ms);
  times.push(now);
  ctx.store.withdrawalRequests.set(wallet, times);
  if (times.length > limits.rate_limit_max) return { status: 'REJECTED', reason: 'RATE_LIMITED' };

  const cfg = ctx.config.funding_config.withdrawal;
  const min = d(cfg.min_amount);
  if (amount.lt(min)) return { status: 'REJECTED', reason: 'BELOW_MIN' };
  const destination = arbitrum ? toChecksumAddress(body.destination_recipient) : walletChecksum;
  const fee = isNewDestination(ctx, destination) ? d(cfg.new_wallet_fee) : ZERO;
  if (amount.minus(fee).lt(min)) return { status: 'REJECTED', reason: 'BELOW_MIN_AFTER_FEE', new_wallet_fee: str(fee) };
  if (amount.gt(limits.max_per_tx)) return { status: 'REJECTED', reason: 'ABOVE_MAX' };
  let dayTotal = amount;
  for (const w of ctx.store.withdrawalsByWallet.get(wallet) ?? []) {
    if (w.created_at > now - DAY_MS && w.status !== 'REJECTED' && w.status !== 'REFUNDED') dayTotal = dayTotal.plus(w.amount);
  }
  if (dayTotal.gt(limits.daily_limit)) return { status: 'REJECTED', reason: 'DAILY_LIMIT_EXCEEDED' };

  const record: WithdrawalRecord = {
    withdrawal_id: ctx.store.nextWithdrawalId(),
    wallet,
    account_id: body.account_id.toLowerCase(),
    amount: str(amount),
    l1_send_amount: money(amount.minus(fee)),
    new_wallet_fee: str(fee),
    destination,
    rail: arbitrum ? 'arbitrum' : 'hypercore',
    destination_chain_id: arbitrum ? body.destination_chain_id! : null,
    status: 'REQUESTED',
    failure_reason: null,
    l1_tx_hash: null,
    created_at: now,
    updated_at: now,
    completed_at: null,
    locked: false,
    forced_outcome: ctx.store.forcedNext.withdrawal,
  };
  ctx.store.forcedNext.withdrawal = null;
  // Funds leave free_balance at once when they are there; otherwise the balance check decides later.
  if (ctx.store.free(wallet).gte(amount)) {
    ctx.store.addFree(wallet, amount.neg());
    record.locked = true;
  }
  ctx.store.addWithdrawal(record);
  ctx.jobs.add('withdrawal.step', ctx.timings.withdrawal_accept_ms, { id: record.withdrawal_id });
  return { status: 'REQUESTED', withdrawal_id: record.withdrawal_id };
}

function finish(ctx: SimContext, w: WithdrawalRecord, status: 'COMPLETED' | 'REJECTED' | 'REFUNDED' | 'FAILED', failureReason: string | null): void {
  const now = ctx.clock.now();
  if ((status === 'REJECTED' || status === 'REFUNDED') && w.locked) ctx.store.addFree(w.wallet, d(w.amount));
  w.locked = false;
  w.status = status;
  w.failure_reason = failureReason;
  w.updated_at = now;
  // A refund's time is when the funds came back: readers rebuilding the balance need it.
  if (status === 'COMPLETED' || status === 'REFUNDED') w.completed_at = now;
}

function step(ctx: SimContext, w: WithdrawalRecord): void {
  const now = ctx.clock.now();
  switch (w.status) {
    case 'REQUESTED': {
      w.status = 'ACCEPTED';
      w.updated_at = now;
      if (w.forced_outcome === 'REJECTED') return finish(ctx, w, 'REJECTED', 'REJECTED_BY_REVIEW');
      if (!w.locked) {
        if (ctx.store.free(w.wallet).lt(w.amount)) return finish(ctx, w, 'REJECTED', 'INSUFFICIENT_BALANCE');
        ctx.store.addFree(w.wallet, d(w.amount).neg());
        w.locked = true;
      }
      ctx.jobs.add('withdrawal.step', ctx.timings.withdrawal_review_ms, { id: w.withdrawal_id });
      return;
    }
    case 'ACCEPTED':
      w.status = 'PROCESSING';
      w.updated_at = now;
      w.l1_tx_hash = '0x' + ctx.random.hex(32);
      ctx.jobs.add('withdrawal.step', ctx.timings.withdrawal_complete_ms, { id: w.withdrawal_id });
      return;
    case 'PROCESSING':
      if (w.forced_outcome === 'REFUNDED') return finish(ctx, w, 'REFUNDED', 'TRANSFER_RETURNED');
      if (w.forced_outcome === 'FAILED') return finish(ctx, w, 'FAILED', 'TRANSFER_FAILED');
      return finish(ctx, w, 'COMPLETED', null);
    default:
      return; // terminal (a control outcome got there first)
  }
}

/**
 * Control: force an outcome now on an in-flight withdrawal. REJECTED only before PROCESSING
 * (the balance check is at ACCEPTED); REFUNDED and FAILED at any in-flight status.
 */
export function forceWithdrawalOutcome(ctx: SimContext, id: string, outcome: WithdrawalForcedOutcome): WithdrawalRecord {
  const w = ctx.store.withdrawals.get(id);
  if (!w) throw new Error(`withdrawal_id: unknown withdrawal ${id}`);
  if (!IN_FLIGHT.has(w.status)) throw new Error(`withdrawal ${id} is already ${w.status}`);
  if (outcome === 'REJECTED') {
    if (w.status === 'PROCESSING') throw new Error(`withdrawal ${id} is PROCESSING: past the balance check, it can only be REFUNDED or FAILED`);
    finish(ctx, w, 'REJECTED', 'REJECTED_BY_REVIEW');
  } else if (outcome === 'REFUNDED') finish(ctx, w, 'REFUNDED', 'TRANSFER_RETURNED');
  else finish(ctx, w, 'FAILED', 'TRANSFER_FAILED');
  return w;
}

export function withdrawalView(w: WithdrawalRecord): Record<string, unknown> {
  return {
    withdrawal_id: w.withdrawal_id,
    amount: w.amount,
    // What actually left: known once the transfer is sent (PROCESSING onwards); null before and when rejected.
    l1_send_amount: w.status === 'REQUESTED' || w.status === 'ACCEPTED' || w.status === 'REJECTED' ? null : w.l1_send_amount,
    destination: w.destination,
    status: w.status,
    failure_reason: w.failure_reason,
    l1_tx_hash: w.l1_tx_hash,
    created_at: w.created_at,
    completed_at: w.completed_at,
    new_wallet_fee: w.new_wallet_fee,
    rail: w.rail,
    destination_chain_id: w.destination_chain_id,
    updated_at: w.updated_at,
  };
}

export function registerWithdrawalJobs(ctx: SimContext): void {
  ctx.jobs.on('withdrawal.step', ({ id }) => {
    const w = ctx.store.withdrawals.get(id);
    if (!w) throw new Error(`withdrawal.step: unknown withdrawal ${id}`);
    step(ctx, w);
  });
}

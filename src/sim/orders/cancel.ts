/**
 * POST /orders/{orderId}/cancel and POST /orders/cancel-batch.
 *
 * A cancel is signed by a trading key of `account` (the wallet) over the path's orderId. Accepted
 * cancels answer SUBMITTED and take effect cancel_ms later; a cancel that cannot apply answers
 * REJECTED (single) / FAILED (batch leg) with a reason:
 *   order_not_found (unknown id or another account's order), order_type_mismatch (body order_type is not
 *   the order's: LIMIT for non-trigger orders, TRIGGER for triggers and bracket legs), order_replaced
 *   (the id died in an accepted modify), modify_in_flight (the PENDING_MODIFY replacement itself),
 *   order_not_open (terminal, executing, or a trigger that already fired).
 * Batch legs also fail with invalid_signature (the leg's signature does not authorize the account) and
 * nonce_replayed; other legs are unaffected and the envelope says success:false at HTTP 200.
 *
 * Effect: CANCELLED (PARTIALLY_FILLED_CANCELLED when a resting order had partly filled). An entry with
 * pending bracket legs cancels them with bracket_parent_not_filled, or arms them if it had filled.
 */
import { z } from 'zod';
import { toChecksumAddress } from '../../shared/identity/index.js';
import { CancelBatchBodySchema, CancelBodySchema, type CancelBody } from '../../shared/protocol/index.js';
import { parseOr400 } from '../core/validate.js';
import type { SimContext } from '../context.js';
import type { SimOrder } from '../state/model.js';
import { consumeNonces, tryConsumeNonce } from '../auth/nonces.js';
import { isAuthorizedAgent, requireAgent } from '../auth/trading.js';
import { recoverCancelSigner } from '../auth/verify.js';
import { stopStatus, transition } from './stateMachine.js';
import { entryEnded } from './brackets.js';

/** Why a cancel of this order cannot be accepted now, or null. */
export function cancelRefusal(ctx: SimContext, wallet: string, orderId: string, orderType: 'LIMIT' | 'TRIGGER'): string | null {
  const order = ctx.store.orders.get(orderId);
  if (!order || order.wallet !== wallet) return 'order_not_found';
  const isTrigger = order.order_type === 'TRIGGER';
  if ((orderType === 'TRIGGER') !== isTrigger) return 'order_type_mismatch';
  if (order.replaced_by !== null) return 'order_replaced';
  if (order.status === 'PENDING_MODIFY') return 'modify_in_flight';
  if (!isCancellable(order)) return 'order_not_open';
  return null;
}

function isCancellable(order: SimOrder): boolean {
  if (order.order_type === 'TRIGGER') return order.status === 'SUBMITTED' || order.status === 'PENDING_PARENT';
  return order.status === 'SUBMITTED' || order.status === 'ACCEPTED';
}

function accept(ctx: SimContext, orderId: string): void {
  ctx.jobs.add('order.cancel', ctx.timings.cancel_ms, { order_id: orderId });
}

export function cancelOne(ctx: SimContext, orderId: string, raw: unknown): { order_id: string; status: 'SUBMITTED' | 'REJECTED'; reason?: string } {
  const body: CancelBody = parseOr400(CancelBodySchema, raw);
  const wallet = toChecksumAddress(body.account).toLowerCase();
  requireAgent(ctx, wallet, recoverCancelSigner(ctx.env.tradingChainId, orderId, body, body.signature));
  consumeNonces(ctx, 'trading', wallet, [body.nonce]);
  const refusal = cancelRefusal(ctx, wallet, orderId, body.order_type);
  if (refusal) return { order_id: orderId, status: 'REJECTED', reason: refusal };
  accept(ctx, orderId);
  return { order_id: orderId, status: 'SUBMITTED' };
}

type BatchLeg = { order_id: string; status: 'SUBMITTED' | 'FAILED'; reason?: string };

export function cancelBatch(ctx: SimContext, raw: unknown): { results: BatchLeg[]; success: boolean } {
  const body: z.infer<typeof CancelBatchBodySchema> = parseOr400(CancelBatchBodySchema, raw);
  const wallet = toChecksumAddress(body.account).toLowerCase();
  const results = body.cancels.map((leg): BatchLeg => {
    const signer = recoverCancelSigner(ctx.env.tradingChainId, leg.order_id, { account: body.account, order_type: leg.order_type, nonce: leg.nonce }, leg.signature);
    if (!isAuthorizedAgent(ctx, wallet, signer)) return { order_id: leg.order_id, status: 'FAILED', reason: 'invalid_signature' };
    if (!tryConsumeNonce(ctx, 'trading', wallet, leg.nonce)) return { order_id: leg.order_id, status: 'FAILED', reason: 'nonce_replayed' };
    const refusal = cancelRefusal(ctx, wallet, leg.order_id, leg.order_type);
    if (refusal) return { order_id: leg.order_id, status: 'FAILED', reason: refusal };
    accept(ctx, leg.order_id);
    return { order_id: leg.order_id, status: 'SUBMITTED' };
  });
  return { results, success: results.every((r) => r.status === 'SUBMITTED') };
}

/** Cancels now (the job, and system cancels). No-op when the order is no longer cancellable. */
export function applyCancel(ctx: SimContext, order: SimOrder): void {
  if (!isCancellable(order) || order.status === 'PENDING_MODIFY') return;
  transition(ctx, order, stopStatus(order));
  entryEnded(ctx, order);
}

export function registerCancelJobs(ctx: SimContext): void {
  ctx.jobs.on('order.cancel', ({ order_id }) => {
    const order = ctx.store.orders.get(order_id);
    if (!order) throw new Error(`order.cancel: unknown order ${order_id}`);
    applyCancel(ctx, order);
  });
}

/**
 * POST /positions/margin and GET /positions/margin/{requestId}.
 *
 * account_id, nonce (JSON integer) and signature must be well-formed (400 naming the field): without them
 * the request cannot be attributed. Then the trading-key signature (403) and the nonce (409), before
 * anything is recorded: a request nobody signed creates nothing under any account. Then, per the spec's
 * margin table, a shape failure of the rest (`amount` or `market` not a string) is HTTP 200 `REJECTED`
 * INVALID_REQUEST. Up-front business rejections are HTTP 200 `REJECTED` too:
 * UNKNOWN_MARKET, or INVALID_REQUEST for an amount that is not a non-zero canonical decimal with at most
 * 6 places. Otherwise SUBMITTED; margin_apply_ms later it is
 * APPLIED or REJECTED with NO_OPEN_POSITION, INSUFFICIENT_BALANCE (adding more than free_balance),
 * EXCEEDS_MAX_REMOVABLE (removing more than margin + min(uPnL, 0) - |size| x mark x IMR), or a reason
 * forced through the control API (TRANSFER_DECLINED, DECLINED). The read answers 404 while pending.
 */
import { isCanonicalDecimal } from '../../shared/decimal/index.js';
import { walletFromAccountId } from '../../shared/identity/index.js';
import { z } from 'zod';
import { MarginBodySchema, accountId, nonceNumber, signatureHex, type MarginBody } from '../../shared/protocol/index.js';
import { d } from '../core/numbers.js';
import { notFound } from '../core/response.js';
import { parseOr400 } from '../core/validate.js';
import type { SimContext } from '../context.js';
import type { MarginRequestRecord } from '../state/model.js';
import { consumeNonces } from '../auth/nonces.js';
import { requireAgent } from '../auth/trading.js';
import { recoverMarginSigner } from '../auth/verify.js';
import { maxRemovable } from '../positions/ledger.js';
import { positionState, savePosition } from '../positions/positions.js';

/** What identifies the request and its signer: without these it cannot be attributed (400). */
const MarginEnvelope = z.object({ account_id: accountId, nonce: nonceNumber, signature: signatureHex });

type MarginAnswer = { request_id: string; status: 'SUBMITTED' | 'REJECTED'; reason?: string };

function record(ctx: SimContext, wallet: string, accountIdText: string, market: string, amount: string, reason: string | null): MarginAnswer {
  const now = ctx.clock.now();
  const r: MarginRequestRecord = {
    request_id: ctx.store.nextMarginId(),
    wallet,
    account_id: accountIdText,
    market,
    amount,
    status: reason ? 'REJECTED' : 'SUBMITTED',
    reason,
    created_at: now,
    resolved_at: reason ? now : null,
    visible_at: now + ctx.chaos.persist_lag_ms,
    forced_outcome: reason ? null : ctx.store.forcedNext.margin,
  };
  if (!reason) ctx.store.forcedNext.margin = null;
  ctx.store.margin.set(r.request_id, r);
  if (!reason) ctx.jobs.add('margin.apply', ctx.timings.margin_apply_ms, { id: r.request_id });
  return { request_id: r.request_id, status: reason ? 'REJECTED' : 'SUBMITTED', ...(reason ? { reason } : {}) };
}

/**
 * The text signed for `market` or `amount`: a string exactly as sent. A member that is not a string is
 * signed as its JSON text (10 -> "10", true -> "true"), the nearest reading of "hashed exactly as sent",
 * and a missing one as ''. Only a holder of the account's trading key can produce either.
 */
function signedText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

export function requestMargin(ctx: SimContext, raw: Record<string, unknown>): MarginAnswer {
  const head = parseOr400(MarginEnvelope, raw);
  const accountIdText = head.account_id.toLowerCase();
  const wallet = walletFromAccountId(accountIdText).toLowerCase();
  const market = signedText(raw.market);
  const amount = signedText(raw.amount);
  // Signature and nonce first: a REJECTED record is still a record under the account, so only its
  // trading key may cause one.
  requireAgent(ctx, wallet, recoverMarginSigner(ctx.env.tradingChainId, { account_id: head.account_id, market, amount, nonce: head.nonce }, head.signature));
  consumeNonces(ctx, 'trading', wallet, [String(head.nonce)]);
  // The margin table: a shape check failing up front is REJECTED at HTTP 200 with a reason.
  const shape = MarginBodySchema.safeParse(raw);
  if (!shape.success) return record(ctx, wallet, accountIdText, market, amount, 'INVALID_REQUEST');
  const body: MarginBody = shape.data;

  let reason: string | null = null;
  if (!ctx.markets.get(body.market)) reason = 'UNKNOWN_MARKET';
  else if (!isCanonicalDecimal(body.amount) || d(body.amount).isZero() || d(body.amount).decimalPlaces() > 6) reason = 'INVALID_REQUEST';
  return record(ctx, wallet, accountIdText, body.market, body.amount, reason);
}

function resolve(ctx: SimContext, r: MarginRequestRecord, reason: string | null): void {
  r.status = reason ? 'REJECTED' : 'APPLIED';
  r.reason = reason;
  r.resolved_at = ctx.clock.now();
}

export function applyMargin(ctx: SimContext, r: MarginRequestRecord): void {
  if (r.status !== 'SUBMITTED') return;
  if (r.forced_outcome) return resolve(ctx, r, r.forced_outcome);
  const pos = positionState(ctx, r.wallet, r.market);
  if (!pos) return resolve(ctx, r, 'NO_OPEN_POSITION');
  const amount = d(r.amount);
  if (amount.isPositive()) {
    if (ctx.store.free(r.wallet).lt(amount)) return resolve(ctx, r, 'INSUFFICIENT_BALANCE');
    ctx.store.addFree(r.wallet, amount.neg());
    savePosition(ctx, r.wallet, r.market, { ...pos, margin: pos.margin.plus(amount) });
    return resolve(ctx, r, null);
  }
  const info = ctx.markets.require(r.market);
  const mark = d(ctx.venue.getMark(info.venueSymbol));
  if (amount.abs().gt(maxRemovable(pos, mark, info.imr))) return resolve(ctx, r, 'EXCEEDS_MAX_REMOVABLE');
  ctx.store.addFree(r.wallet, amount.abs());
  savePosition(ctx, r.wallet, r.market, { ...pos, margin: pos.margin.plus(amount) });
  resolve(ctx, r, null);
}

export function marginRequestView(ctx: SimContext, id: string): Record<string, unknown> {
  const r = ctx.store.margin.get(id);
  if (!r || r.status === 'SUBMITTED' || ctx.clock.now() < r.visible_at) throw notFound(`no margin request ${id} (requests read 404 while pending)`);
  return { request_id: r.request_id, status: r.status, ...(r.reason ? { reason: r.reason } : {}), market: r.market, amount: r.amount, created_at: r.created_at, resolved_at: r.resolved_at };
}

/** Control: force the outcome of a pending request now. */
export function forceMarginOutcome(ctx: SimContext, id: string, outcome: 'TRANSFER_DECLINED' | 'DECLINED'): MarginRequestRecord {
  const r = ctx.store.margin.get(id);
  if (!r) throw new Error(`request_id: unknown margin request ${id}`);
  if (r.status !== 'SUBMITTED') throw new Error(`margin request ${id} is already ${r.status}`);
  resolve(ctx, r, outcome);
  return r;
}

export function registerMarginJobs(ctx: SimContext): void {
  ctx.jobs.on('margin.apply', ({ id }) => {
    const r = ctx.store.margin.get(id);
    if (!r) throw new Error(`margin.apply: unknown request ${id}`);
    applyMargin(ctx, r);
  });
}

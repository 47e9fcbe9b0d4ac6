/**
 * Adding or removing isolated margin (POST /positions/margin, UpdateIsolatedMargin signed by the trading
 * key). The amount is a signed canonical decimal string (positive adds from free balance, negative
 * removes); the nonce is a JSON integer here, unlike the order routes.
 *
 * The service validates only the shape up front; everything else (no position, not enough balance, more
 * than removable) comes back as status REJECTED with a reason, either at submit (HTTP 200) or once the
 * request is applied asynchronously. GET /positions/margin/{requestId} answers 404 while the request is
 * pending, which is normal: the wait polls until APPLIED or REJECTED.
 */
import { canonical } from '../../../shared/decimal/index.js';
import { decimalInput } from '../decimalInput.js';
import { marginTypedData } from '../../../shared/eip712/index.js';
import type { MarginBody, MarginRequest } from '../../../shared/protocol/index.js';
import { NetworkError, TimeoutError, WriteLandedUnknownResultError, isNotFound } from '../../api/errors.js';
import { OperationError, ValidationError } from '../errors.js';
import { pollUntil, walletIds, type TradingContext } from '../orders/orderContext.js';
import { MAX_DECIMAL_INPUT_LENGTH } from '../../../shared/fieldSchemas.js';
import type { Signer } from '../../signers/signer.js';
import { summarizeTypedData } from '../../signers/offlineSigner.js';
import { assertPreparedFor, reserveNonces, signPrepared, signRequest, type PreparedBase } from '../signing/prepared.js';
import { explainingForbidden } from '../keys/explainForbidden.js';

export interface MarginInput {
  wallet: string;
  market: string;
  /** Signed decimal text: positive adds margin, negative removes it. */
  amount: string;
}

export type MarginStatus = 'SUBMITTED' | 'APPLIED' | 'REJECTED' | 'UNKNOWN';

export interface MarginResult {
  wallet: string;
  market: string;
  amount: string;
  request_id: string | null;
  status: MarginStatus;
  reason: string | null;
  /** What the reason means, for people. */
  explanation: string | null;
}

/** The spec's margin reasons, explained. */
export const MARGIN_REASONS: Record<string, string> = {
  NO_OPEN_POSITION: 'there is no open position on this market',
  UNKNOWN_MARKET: 'the service does not know this market',
  INVALID_REQUEST: 'the request was malformed',
  INSUFFICIENT_BALANCE: 'the free balance does not cover the amount to add',
  EXCEEDS_MAX_REMOVABLE: 'removing this much would leave the position with less margin than it needs',
  TRANSFER_DECLINED: 'the venue declined the margin transfer',
  DECLINED: 'the service declined the adjustment',
};

export function explainMarginReason(reason: string | null | undefined): string | null {
  if (!reason) return null;
  return MARGIN_REASONS[reason] ?? null;
}

/** The amount as sent: canonical, signed, non-zero. */
export function marginAmount(value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError('must be a signed decimal string such as "25" or "-10.5"', { field: 'amount' });
  if (value.length > MAX_DECIMAL_INPUT_LENGTH) throw new ValidationError(`at most ${MAX_DECIMAL_INPUT_LENGTH} characters`, { field: 'amount' });
  const text = canonical(decimalInput(value, 'amount', { signed: true }));
  if (text === '0') throw new ValidationError('must not be zero: positive adds margin, negative removes it', { field: 'amount' });
  return text;
}

function fromRequest(base: Omit<MarginResult, 'status' | 'reason' | 'explanation' | 'request_id'>, r: MarginRequest, requestId: string | null): MarginResult {
  return { ...base, request_id: r.request_id ?? requestId, status: r.status, reason: r.reason ?? null, explanation: explainMarginReason(r.reason) };
}

export interface PreparedMargin extends PreparedBase<'margin'> {
  readonly accountId: string;
  readonly market: string;
  readonly amount: string;
  readonly nonce: number;
  readonly view: { wallet: string; market: string; amount: string; direction: 'add' | 'remove'; summary: string[] };
}

/** Checks the amount and market, reserves the nonce and builds UpdateIsolatedMargin; nothing is signed. */
export async function prepareMargin(ctx: TradingContext, input: MarginInput): Promise<PreparedMargin> {
  const { wallet, accountId } = walletIds(input.wallet);
  const amount = marginAmount(input.amount);
  // Margin may be added to a position on a market that was deactivated since (it may need saving).
  await ctx.config.market(input.market, { allowInactive: true });
  const signer = await ctx.tradingSigner(wallet);
  const [nonce] = await reserveNonces(ctx.nonces, wallet, 1);
  const typed = marginTypedData({ account_id: accountId, market: input.market, amount, nonce: nonce! }, ctx.profile.network);
  const direction = amount.startsWith('-') ? 'remove' : 'add';
  return {
    action: 'margin',
    profile: ctx.profile.name,
    wallet,
    signer: { role: 'trading-key', address: signer.address },
    requests: [signRequest('margin', typed)],
    accountId,
    market: input.market,
    amount,
    nonce: nonce!,
    view: { wallet, market: input.market, amount, direction, summary: summarizeTypedData(typed) },
  };
}

/** Prepares and submits with the wallet's trading key, in one go. */
export async function adjustMargin(ctx: TradingContext, input: MarginInput, options: MarginOptions = {}): Promise<MarginResult> {
  const prepared = await prepareMargin(ctx, input);
  return submitMargin(ctx, prepared, await ctx.tradingSigner(prepared.wallet), options);
}

export interface MarginOptions {
  wait?: boolean;
  timeoutMs?: number;
  onProgress?: (text: string) => void;
}

export async function submitMargin(ctx: TradingContext, prepared: PreparedMargin, signer: Signer, options: MarginOptions = {}): Promise<MarginResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  const { wallet, accountId, amount } = prepared;
  const [signature] = await signPrepared(prepared, signer);
  const body: MarginBody = { account_id: accountId, market: prepared.market, amount, nonce: prepared.nonce, signature: signature! };
  const base = { wallet, market: prepared.market, amount };

  let submitted: MarginRequest;
  try {
    submitted = await explainingForbidden(ctx, { wallet, agent: signer.address }, () => ctx.api.adjustMargin(body));
  } catch (err) {
    if (err instanceof WriteLandedUnknownResultError) {
      // It landed but its request id was lost: there is no route to look it up by anything else.
      return { ...base, request_id: null, status: 'UNKNOWN', reason: null, explanation: 'the request reached the service but its answer was lost; check the position\'s isolated_margin' };
    }
    if ((err instanceof NetworkError || err instanceof TimeoutError) && err.mayHaveLanded) {
      throw new OperationError('MARGIN_UNCONFIRMED', `the margin request got no answer (${err.message})`, {
        hint: "It may have been applied: check the position's isolated_margin (`perps positions --wallet ADDR`) before sending it again.",
        cause: err,
      });
    }
    throw err;
  }
  const result = fromRequest(base, submitted, null);
  if (result.status !== 'SUBMITTED' || !options.wait) return result;
  if (!result.request_id) {
    throw new OperationError('BAD_RESPONSE', 'the margin request was accepted without a request_id, so it cannot be followed', { hint: "Check the position's isolated_margin." });
  }
  const requestId = result.request_id;
  options.onProgress?.(`margin request ${requestId} submitted; waiting for it to apply`);
  const final = await pollUntil(
    ctx.sleep,
    `waiting for margin request ${requestId}`,
    async () => {
      try {
        const r = await ctx.api.marginRequest(requestId, { retryNotFound: false });
        return r.status === 'SUBMITTED' ? undefined : r;
      } catch (err) {
        // 404 while pending is normal (spec, "Margin").
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    { minIntervalMs: 150, maxIntervalMs: 2_000, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) },
  );
  return fromRequest(base, final, requestId);
}

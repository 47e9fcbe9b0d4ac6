/**
 * Cancelling: one order (POST /orders/{id}/cancel), many (POST /orders/cancel-batch, 20 per request,
 * each leg signing its own Cancel) and every open order of a wallet, optionally on one market.
 *
 * A cancel answer of SUBMITTED only means the cancel was queued: it takes effect asynchronously. It is
 * confirmed by reading open-orders (which lists resting orders and every trigger, armed or awaiting its
 * entry, so it also covers position-triggers) until the ids are gone, then the final status of each is
 * read from order-history (the order may have filled before the cancel applied).
 *
 * Cancel signs `account` = the wallet (not the account_id) and the path's order id; order_type is LIMIT
 * for resting orders and TRIGGER for triggers and bracket legs. When the caller does not say which, it
 * is read from open-orders before anything is signed.
 */
import { cancelTypedData } from '../../../shared/eip712/index.js';
import { MAX_LEGS_PER_BATCH, isTerminalOrderStatus, type CancelBatchBody, type ListedOrder } from '../../../shared/protocol/index.js';
import { ApiError, NetworkError, TimeoutError, WriteLandedUnknownResultError, isNotFound } from '../../api/errors.js';
import type { Signer } from '../../signers/signer.js';
import { assertPreparedFor, reserveNonces, signPrepared, signRequest, type PreparedBase } from '../signing/prepared.js';
import { OperationError, ValidationError } from '../errors.js';
import { isPendingBracketLeg } from './brackets.js';
import { pollUntil, walletIds, WaitTimeoutError, type TradingContext } from './orderContext.js';
import { OrderTracker, untilTerminal, type TrackedStatus } from './orderTracker.js';
import { explainingForbidden } from '../keys/explainForbidden.js';

export type CancelOrderType = 'LIMIT' | 'TRIGGER';

export interface CancelTarget {
  order_id: string;
  order_type?: CancelOrderType;
}

export interface CancelLegResult {
  order_id: string;
  order_type: CancelOrderType;
  /** The service's answer: SUBMITTED (queued), REJECTED (single cancel) or FAILED (batch leg); UNKNOWN when the answer was lost. */
  status: 'SUBMITTED' | 'REJECTED' | 'FAILED' | 'UNKNOWN';
  reason: string | null;
  /** The order no longer appears in open-orders: the goal of a cancel, whatever the answer said. */
  confirmed: boolean;
  /** Final status from order-history once confirmed (CANCELLED, or FILLED if it filled first). */
  final_status: TrackedStatus | null;
  final_reason: string | null;
}

export interface CancelResult {
  wallet: string;
  results: CancelLegResult[];
  /** Open orders still listed after cancel-all's rounds (empty on success). */
  remaining?: ListedOrder[];
}

export interface CancelOptions {
  /** Confirm through open-orders (default true). */
  confirm?: boolean;
  timeoutMs?: number;
  onProgress?: (text: string) => void;
}

const CANCELLABLE = new Set(['LIMIT', 'TRIGGER']);

function cancelTypeOf(row: ListedOrder): CancelOrderType | null {
  return row.order_type === 'TRIGGER' ? 'TRIGGER' : row.order_type === 'LIMIT' ? 'LIMIT' : null;
}

/** The wallet's open orders, every page (optionally one market). */
export async function openOrdersOf(ctx: TradingContext, wallet: string, market?: string): Promise<ListedOrder[]> {
  return ctx.api.allOpenOrders({ wallet, ...(market ? { market } : {}) });
}

/** Fills in order types from open-orders (or the order record); refuses what cannot be cancelled. */
async function resolveTypes(ctx: TradingContext, wallet: string, targets: readonly CancelTarget[]): Promise<{ order_id: string; order_type: CancelOrderType }[]> {
  const seen = new Set<string>();
  for (const t of targets) {
    if (typeof t.order_id !== 'string' || t.order_id.length === 0) throw new ValidationError('an order id is required', { field: 'order_id' });
    if (seen.has(t.order_id)) throw new ValidationError(`order ${t.order_id} is listed twice`, { field: 'order_id' });
    seen.add(t.order_id);
  }
  const missing = targets.filter((t) => t.order_type === undefined);
  const open = missing.length > 0 ? new Map((await openOrdersOf(ctx, wallet)).map((r) => [r.order_id, r])) : new Map<string, ListedOrder>();
  const out: { order_id: string; order_type: CancelOrderType }[] = [];
  for (const t of targets) {
    if (t.order_type !== undefined) {
      if (!CANCELLABLE.has(t.order_type)) throw new ValidationError(`order_type must be LIMIT or TRIGGER, got ${String(t.order_type)}`, { field: 'order_type' });
      out.push({ order_id: t.order_id, order_type: t.order_type });
      continue;
    }
    const row = open.get(t.order_id);
    if (row) {
      const type = cancelTypeOf(row);
      if (!type) throw new ValidationError(`order ${t.order_id} is a ${row.order_type} order, which cannot be cancelled`, { field: 'order_id' });
      out.push({ order_id: t.order_id, order_type: type });
      continue;
    }
    // Not listed as open: terminal already, or too new to be listed. The record says which.
    let record;
    try {
      record = await ctx.api.order(t.order_id, { retryNotFound: false });
    } catch (err) {
      if (isNotFound(err)) throw new ValidationError(`no open order ${t.order_id} for ${wallet}`, { field: 'order_id', code: 'ORDER_NOT_FOUND', hint: 'Check the id with `perps orders open --wallet ADDR`; pass --type to send the cancel anyway.' });
      throw err;
    }
    if (isTerminalOrderStatus(record.status)) {
      throw new ValidationError(`order ${t.order_id} is already ${record.status}; nothing to cancel`, { field: 'order_id', code: 'ORDER_NOT_OPEN' });
    }
    const type = record['order_type'];
    if (type === 'LIMIT' || type === 'TRIGGER') out.push({ order_id: t.order_id, order_type: type });
    else throw new ValidationError(`cannot tell whether order ${t.order_id} is a LIMIT or a TRIGGER order`, { field: 'order_type', hint: 'Pass --type limit or --type trigger.' });
  }
  return out;
}

function maybeLanded(err: unknown): boolean {
  return err instanceof WriteLandedUnknownResultError || ((err instanceof NetworkError || err instanceof TimeoutError) && err.mayHaveLanded) || (err instanceof ApiError && err.status >= 500);
}

/**
 * Polls open-orders (one walk per poll) until none of `ids` is listed. Returns the ids still listed when
 * the time ran out (empty on success).
 */
export async function waitGoneFromOpenOrders(ctx: TradingContext, wallet: string, ids: readonly string[], options: { market?: string; timeoutMs?: number } = {}): Promise<string[]> {
  if (ids.length === 0) return [];
  let left: string[] = [...ids];
  try {
    await pollUntil(
      ctx.sleep,
      `confirming the cancel of ${ids.join(', ')}`,
      async () => {
        const open = new Set((await openOrdersOf(ctx, wallet, options.market)).map((r) => r.order_id));
        left = ids.filter((id) => open.has(id));
        return left.length === 0 ? true : undefined;
      },
      { timeoutMs: options.timeoutMs ?? 60_000, minIntervalMs: 150 },
    );
  } catch (err) {
    if (!(err instanceof WaitTimeoutError)) throw err;
  }
  return left;
}

/** Final statuses of orders that left open-orders, from order-history (the tracker's one-request polls). */
async function finalStatuses(ctx: TradingContext, wallet: string, ids: readonly string[], timeoutMs: number): Promise<Map<string, { status: TrackedStatus; reason: string | null }>> {
  const out = new Map<string, { status: TrackedStatus; reason: string | null }>();
  if (ids.length === 0) return out;
  const tracker = new OrderTracker({ api: ctx.api, wallet, sleep: ctx.sleep });
  for (const id of ids) tracker.track(id, { justSubmitted: false });
  let states;
  try {
    states = await tracker.waitFor(ids, { until: untilTerminal, timeoutMs });
  } catch (err) {
    if (!(err instanceof WaitTimeoutError)) throw err;
    states = ids.map((id) => tracker.get(id)!);
  }
  for (const s of states) out.set(s.order_id, { status: s.status, reason: s.reason });
  return out;
}

/**
 * Confirms every leg by reading, whatever its answer said: an order that left open-orders is cancelled
 * (or filled) however the cancel was answered. A resent batch, for one, can answer FAILED for legs whose
 * first copy already landed.
 */
async function confirmAll(ctx: TradingContext, wallet: string, results: CancelLegResult[], options: CancelOptions): Promise<void> {
  const pending = results;
  if (pending.length === 0) return;
  options.onProgress?.(`confirming ${pending.length} cancel${pending.length === 1 ? '' : 's'}`);
  const left = new Set(await waitGoneFromOpenOrders(ctx, wallet, pending.map((r) => r.order_id), { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) }));
  const gone = pending.filter((r) => !left.has(r.order_id));
  for (const r of gone) r.confirmed = true;
  const finals = await finalStatuses(ctx, wallet, gone.map((r) => r.order_id), 30_000);
  for (const r of gone) {
    const f = finals.get(r.order_id);
    if (f) {
      r.final_status = f.status;
      r.final_reason = f.reason;
    }
  }
}

export interface CancelTargetView {
  order_id: string;
  order_type: CancelOrderType;
}

/** Cancels prepared for signing: one Cancel per order (path order id, the wallet as account). */
export interface PreparedCancel extends PreparedBase<'cancel'> {
  readonly targets: readonly CancelTargetView[];
  readonly nonces: readonly string[];
  /** POST /orders/{id}/cancel for one order, cancel-batch (chunks of 20) otherwise. */
  readonly route: 'single' | 'batch';
  /**
   * Cancel-all only: bracket legs awaiting an entry that is cancelled too. They are not cancelled
   * themselves (the service cancels them with their entry, bracket_parent_not_filled); submit waits for
   * them to leave open-orders.
   */
  readonly followers: readonly string[];
  /** Cancel-all on one market. */
  readonly market: string | null;
  readonly view: { wallet: string; market: string | null; targets: CancelTargetView[]; followers: string[]; summary: string[] };
}

async function prepareTargets(ctx: TradingContext, wallet: string, targets: readonly CancelTargetView[], extra: { route: 'single' | 'batch'; followers?: string[]; market?: string | null }): Promise<PreparedCancel> {
  const signer = await ctx.tradingSigner(wallet);
  const nonces = (await reserveNonces(ctx.nonces, wallet, targets.length)).map(String);
  const requests = targets.map((t, i) => signRequest(`cancel ${t.order_id}`, cancelTypedData(t.order_id, { account: wallet, order_type: t.order_type, nonce: nonces[i]! }, ctx.profile.network)));
  const followers = extra.followers ?? [];
  const market = extra.market ?? null;
  return {
    action: 'cancel',
    profile: ctx.profile.name,
    wallet,
    signer: { role: 'trading-key', address: signer.address },
    requests,
    targets,
    nonces,
    route: extra.route,
    followers,
    market,
    view: {
      wallet,
      market,
      targets: [...targets],
      followers,
      summary: targets.length === 0 ? ['nothing to cancel'] : targets.map((t) => `Cancel ${t.order_type.toLowerCase()} order ${t.order_id}`),
    },
  };
}

/** One order: its type read from open-orders (or its record) when not given. */
export async function prepareCancel(ctx: TradingContext, input: { wallet: string; orderId: string; orderType?: CancelOrderType }): Promise<PreparedCancel> {
  const { wallet } = walletIds(input.wallet);
  const targets = await resolveTypes(ctx, wallet, [{ order_id: input.orderId, ...(input.orderType ? { order_type: input.orderType } : {}) }]);
  return prepareTargets(ctx, wallet, targets, { route: 'single' });
}

/** Many orders, through cancel-batch. */
export async function prepareCancelOrders(ctx: TradingContext, input: { wallet: string; targets: CancelTarget[] }): Promise<PreparedCancel> {
  const { wallet } = walletIds(input.wallet);
  const targets = input.targets.length === 0 ? [] : await resolveTypes(ctx, wallet, input.targets);
  return prepareTargets(ctx, wallet, targets, { route: 'batch' });
}

/**
 * Every open order of the wallet (optionally on one market): resting limits, armed triggers and bracket
 * legs awaiting their entry. A pending leg whose entry is cancelled too is left to the service (it
 * cancels attached legs with bracket_parent_not_filled); legs that arm instead (a partly filled entry)
 * are caught by another round (cancelAll).
 */
export async function prepareCancelAll(ctx: TradingContext, input: { wallet: string; market?: string }): Promise<PreparedCancel> {
  const { wallet } = walletIds(input.wallet);
  if (input.market !== undefined) await ctx.config.market(input.market, { allowInactive: true });
  const rows = await openOrdersOf(ctx, wallet, input.market);
  const cancellable = rows.filter((r) => cancelTypeOf(r) !== null);
  const ids = new Set(cancellable.map((r) => r.order_id));
  const followers = cancellable.filter((r) => isPendingBracketLeg(r) && ids.has(r.parent_order_id!));
  const targets = cancellable.filter((r) => !followers.includes(r)).map((r) => ({ order_id: r.order_id, order_type: cancelTypeOf(r)! }));
  return prepareTargets(ctx, wallet, targets, { route: 'batch', followers: followers.map((r) => r.order_id), market: input.market ?? null });
}

/**
 * Signs the prepared cancels (exactly those) and sends them. A cancel answer of SUBMITTED only queues it;
 * with `confirm` (default) each is confirmed by reading open-orders, and cancel-all waits for the
 * followers too. A lost answer is always confirmed by reading.
 */
export async function submitCancel(ctx: TradingContext, prepared: PreparedCancel, signer: Signer, options: CancelOptions = {}): Promise<CancelResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  const { wallet, targets } = prepared;
  if (targets.length === 0) return { wallet, results: [] };
  const signatures = await signPrepared(prepared, signer);
  const results: CancelLegResult[] = targets.map((t) => ({ order_id: t.order_id, order_type: t.order_type, status: 'UNKNOWN', reason: null, confirmed: false, final_status: null, final_reason: null }));
  let lost: unknown = null;
  if (prepared.route === 'single') {
    const t = targets[0]!;
    try {
      const res = await explainingForbidden(ctx, { wallet, agent: signer.address }, () => ctx.api.cancel(t.order_id, { account: wallet, order_type: t.order_type, nonce: prepared.nonces[0]!, signature: signatures[0]! }));
      results[0]!.status = res.status;
      results[0]!.reason = res.reason ?? null;
    } catch (err) {
      if (!maybeLanded(err)) throw err;
      // The answer was lost: whether the cancel landed shows in open-orders.
      lost = err;
    }
  } else {
    for (let i = 0; i < targets.length; i += MAX_LEGS_PER_BATCH) {
      const chunk = targets.slice(i, i + MAX_LEGS_PER_BATCH);
      const cancels: CancelBatchBody['cancels'] = chunk.map((t, k) => ({ order_id: t.order_id, order_type: t.order_type, nonce: prepared.nonces[i + k]!, signature: signatures[i + k]! }));
      options.onProgress?.(`cancelling ${Math.min(i + chunk.length, targets.length)}/${targets.length}`);
      try {
        const res = await explainingForbidden(ctx, { wallet, agent: signer.address }, () => ctx.api.cancelBatch({ account: wallet, cancels }));
        // Legs are index-aligned with the request; match by id anyway in case a server reorders them.
        const byId = new Map(res.legs.map((l) => [l.order_id, l]));
        for (const r of results.slice(i, i + chunk.length)) {
          const leg = byId.get(r.order_id);
          if (leg) {
            r.status = leg.status;
            r.reason = leg.reason ?? null;
          }
        }
      } catch (err) {
        // A lost answer leaves the legs UNKNOWN; confirmation below tells whether they landed.
        if (!maybeLanded(err)) throw err;
      }
    }
  }
  if (options.confirm !== false || lost || results.some((r) => r.status === 'UNKNOWN')) await confirmAll(ctx, wallet, results, options);
  if (lost && !results[0]!.confirmed) {
    throw new OperationError('CANCEL_UNCONFIRMED', `the cancel of ${results[0]!.order_id} got no answer (${(lost as Error).message}) and the order is still open`, {
      kind: 'transient',
      hint: 'Run the cancel again: a new cancel is safe (the order can only be cancelled once).',
      cause: lost,
    });
  }
  // Legs that follow their entry leave with it; wait for them too before anyone lists again.
  if (options.confirm !== false && prepared.followers.length > 0) {
    await waitGoneFromOpenOrders(ctx, wallet, prepared.followers, { ...(prepared.market ? { market: prepared.market } : {}), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
  }
  return { wallet, results };
}

/** Cancels one order and (by default) confirms it left open-orders. */
export async function cancelOrder(ctx: TradingContext, input: { wallet: string; orderId: string; orderType?: CancelOrderType }, options: CancelOptions = {}): Promise<CancelResult> {
  const prepared = await prepareCancel(ctx, input);
  return submitCancel(ctx, prepared, await ctx.tradingSigner(prepared.wallet), options);
}

/** Cancels many orders through cancel-batch (chunks of 20) and confirms them. */
export async function cancelOrders(ctx: TradingContext, input: { wallet: string; targets: CancelTarget[] }, options: CancelOptions = {}): Promise<CancelResult> {
  const prepared = await prepareCancelOrders(ctx, input);
  return submitCancel(ctx, prepared, await ctx.tradingSigner(prepared.wallet), options);
}

/**
 * Cancel-all in rounds (prepare, submit, list again), so legs that armed meanwhile (a partly filled
 * entry) are caught too. Without confirmation a second round would cancel the same, still listed,
 * orders again, so there is one round.
 */
export async function cancelAll(ctx: TradingContext, input: { wallet: string; market?: string }, options: CancelOptions & { rounds?: number } = {}): Promise<CancelResult> {
  const { wallet } = walletIds(input.wallet);
  const results: CancelLegResult[] = [];
  const rounds = options.confirm === false ? 1 : (options.rounds ?? 3);
  for (let round = 0; round < rounds; round++) {
    const prepared = await prepareCancelAll(ctx, input);
    if (prepared.targets.length === 0) return { wallet, results, remaining: await openOrdersOf(ctx, wallet, input.market) };
    results.push(...(await submitCancel(ctx, prepared, await ctx.tradingSigner(wallet), options)).results);
  }
  return { wallet, results, remaining: await openOrdersOf(ctx, wallet, input.market) };
}

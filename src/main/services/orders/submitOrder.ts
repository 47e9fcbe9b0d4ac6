/**
 * Submitting a prepared order (prepareOrder.ts): POST /orders with 1..20 legs, each signed by the
 * wallet's trading key over exactly the typed data that was reviewed.
 *
 *  1. sign each leg (its reserved nonce) and send the batch once. The API client resends the identical
 *     bytes after a lost answer, so the batch is processed at most once.
 *  2. per-leg results: SUBMITTED (queued, not filled) or REJECTED with the service's reason. When the
 *     answer was lost for good (a resend met 409, or every attempt failed in transit) the legs are found
 *     by reading order-history (reconcile) instead of signing again, which could trade twice. Nothing is
 *     read before the POST: history is newest first and each leg carries its client order id, new to the
 *     account, so the legs can be found after the fact, only when an answer is actually lost (issue 17).
 *     Only an order with a client order id the caller chose (which may have been used before) reads the
 *     newest history first, to tell an earlier order with that id from this one. The spec's history row
 *     does not list client_order_id (only the simulator adds it): where rows leave it out, each leg is
 *     matched on the fields it sent, among orders the service stamped no earlier than the send (by the
 *     service's clock); more look-alikes than legs is ambiguous and stays UNKNOWN, never guessed.
 *  3. optionally follow every order with the OrderTracker until it is terminal (MARKET and IOC legs) or
 *     settled in a live state (resting limits, armed triggers, bracket legs).
 */
import { recheckBeforeSend, recordSentOrders } from '../risk/riskCheck.js';
import { Decimal } from '../../../shared/decimal/index.js';
import type { ListedOrder, OrderLeg } from '../../../shared/protocol/index.js';
import { NetworkError, TimeoutError, WriteLandedUnknownResultError, ApiError, isTransientFailure } from '../../api/errors.js';
import type { Signer } from '../../signers/signer.js';
import { OperationError } from '../errors.js';
import { assertPreparedFor, signPrepared } from '../signing/prepared.js';
import { isGeneratedClientOrderId, wireLeg } from './buildOrder.js';
import { listsSentFields, type SentOrderFields } from './listedOrderFields.js';
import { WaitBudget, type TradingContext } from './orderContext.js';
import type { UnsignedLeg } from './orderValidation.js';
import { prepareLegs, prepareOrder, type PrepareLegsInput, type PrepareOrderInput, type PreparedOrder } from './prepareOrder.js';
import { OrderTracker, untilSettled, untilTerminal, type TrackedOrder, type UntilPredicate } from './orderTracker.js';
import { explainingForbidden } from '../keys/explainForbidden.js';

export type PlacedStatus = 'SUBMITTED' | 'REJECTED' | 'UNKNOWN';

export interface PlacedLeg {
  client_order_id: string;
  order_id: string | null;
  /** UNKNOWN only when the answer was lost and the leg could not be found in history yet. */
  status: PlacedStatus;
  reason: string | null;
  /** The leg as sent (without nonce and signature). */
  leg: UnsignedLeg;
  /** The tracked state after --wait. */
  final?: TrackedOrder;
}

export interface PlaceOrdersResult {
  wallet: string;
  account_id: string;
  /** True only if every leg is SUBMITTED. */
  success: boolean;
  legs: PlacedLeg[];
  /** The service's answer was lost; the legs were found by reading order-history. */
  reconciled: boolean;
}

export interface PlaceOptions {
  /** Follow the orders (see module comment); default false. */
  wait?: boolean;
  waitTimeoutMs?: number;
  /** A tracker to register the orders with (the app keeps one per wallet); one is made otherwise. */
  tracker?: OrderTracker;
  onProgress?: (text: string) => void;
  /** How long to look for the legs in history after a lost answer, default 20 s. */
  reconcileTimeoutMs?: number;
}

/**
 * Prepares legs given one by one (API field names) and submits them with the wallet's trading key: the
 * command line's batch and scripts. Nothing is signed when preparing fails.
 */
export async function placeOrders(ctx: TradingContext, input: PrepareLegsInput, options: PlaceOptions = {}): Promise<PlaceOrdersResult> {
  const prepared = await prepareLegs(ctx, input);
  return submitOrder(ctx, prepared, await ctx.tradingSigner(prepared.wallet), options);
}

/** Prepares an order intent and submits it with the wallet's trading key, in one go (the command line). */
export async function placeOrder(ctx: TradingContext, input: PrepareOrderInput, options: PlaceOptions = {}): Promise<PlaceOrdersResult> {
  const prepared = await prepareOrder(ctx, input);
  return submitOrder(ctx, prepared, await ctx.tradingSigner(prepared.wallet), options);
}

/**
 * Signs exactly the prepared legs with `signer` (the trading key named at prepare) and sends the batch
 * once; see the module comment for what happens after a lost answer and with `wait`.
 */
export async function submitOrder(ctx: TradingContext, prepared: PreparedOrder, signer: Signer, options: PlaceOptions = {}): Promise<PlaceOrdersResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  const { wallet, accountId, legs } = prepared;
  // A risk limit tightened (or a lockout begun) since the review refuses it still (issue 39).
  await recheckBeforeSend(ctx, prepared);
  const signatures = await signPrepared(prepared, signer);
  // No read on the app's path: its client order ids are new, so a lost answer is found by them afterwards.
  // A caller's own id may name an earlier order too: only then are the orders already listed noted first.
  const before = legs.every((l) => isGeneratedClientOrderId(l.client_order_id)) ? null : await historyIds(ctx, wallet);
  const signed: OrderLeg[] = legs.map((leg, i) => ({ ...wireLeg(leg, prepared.nonces[i]!), signature: signatures[i]! }));
  // Local time of the send: a lost answer on a service whose rows carry no client order id is matched
  // among the orders stamped after it (converted to the service's clock only then, off the hot path).
  const sentAt = Date.now();
  options.onProgress?.(`submitting ${legs.length} leg${legs.length === 1 ? '' : 's'}`);

  let placed: PlacedLeg[];
  let reconciled = false;
  try {
    const res = await explainingForbidden(ctx, { wallet, agent: signer.address }, () => ctx.api.placeOrders({ account_id: accountId, orders: signed }));
    if (res.legs.length !== legs.length) {
      throw new OperationError('BAD_RESPONSE', `POST /orders answered ${res.legs.length} results for ${legs.length} legs`, { hint: 'Check order-history before placing again.' });
    }
    placed = legs.map((leg, i) => {
      const r = res.legs[i]!;
      return { client_order_id: leg.client_order_id, order_id: r.order_id ?? null, status: r.status, reason: r.reason ?? null, leg };
    });
  } catch (err) {
    const landed = err instanceof WriteLandedUnknownResultError;
    const maybe = ((err instanceof NetworkError || err instanceof TimeoutError) && err.mayHaveLanded) || (err instanceof ApiError && err.status >= 500);
    if (!landed && !maybe) throw err;
    options.onProgress?.('the answer was lost; looking the orders up in order-history');
    placed = await reconcile(ctx, wallet, legs, before, sentAt, options.reconcileTimeoutMs ?? 20_000);
    reconciled = true;
    if (!landed && placed.every((p) => p.status === 'UNKNOWN' && p.reason === null)) {
      // Nothing of it shows up: most likely it never landed. Still not safe to sign it again blindly.
      // transient: no usable answer; it may still have landed (services/algos/engine/mayHaveLanded.ts).
      throw new OperationError('SUBMIT_UNCONFIRMED', `POST /orders failed (${(err as Error).message}) and none of the legs appears in order-history`, {
        kind: 'transient',
        hint: 'Most likely nothing was placed. Check `perps history orders --wallet ADDR` before placing again.',
        cause: err,
      });
    }
  }

  // The orders-per-minute limit counts what was just sent (order-history hides it for its persist lag).
  await recordSentOrders(ctx, wallet, placed.filter((p) => p.status === 'SUBMITTED').map((p) => p.order_id));

  const result: PlaceOrdersResult = {
    wallet,
    account_id: accountId,
    success: placed.every((p) => p.status === 'SUBMITTED'),
    legs: placed,
    reconciled,
  };
  if (!options.wait) return result;

  const tracker = options.tracker ?? new OrderTracker({ api: ctx.api, wallet, sleep: ctx.sleep });
  const waiting: { id: string; until: UntilPredicate }[] = [];
  const entryType = new Map(legs.map((l) => [l.client_order_id, l.order_type]));
  for (const p of placed) {
    if (!p.order_id) continue;
    const isChild = p.leg.parent_client_order_id !== undefined;
    tracker.track(p.order_id, {
      market: p.leg.market,
      order_type: p.leg.order_type,
      status: p.status === 'REJECTED' ? 'REJECTED' : isChild ? 'PENDING_PARENT' : p.status === 'SUBMITTED' ? 'SUBMITTED' : 'UNKNOWN',
      reason: p.reason,
      justSubmitted: true,
    });
    if (p.status === 'REJECTED') continue;
    let until: UntilPredicate;
    if (p.leg.order_type === 'MARKET' || p.leg.time_in_force === 'IOC') until = untilTerminal;
    else if (isChild && entryType.get(p.leg.parent_client_order_id!) === 'MARKET') {
      // The entry fills at once, so its legs are followed until they arm (or are cancelled).
      until = (o) => o.terminal || (o.armed && o.source !== 'submit');
    } else until = untilSettled;
    waiting.push({ id: p.order_id, until });
  }
  if (waiting.length > 0) {
    const predicates = new Map(waiting.map((w) => [w.id, w.until]));
    await tracker.waitFor(
      waiting.map((w) => w.id),
      {
        until: (o) => (predicates.get(o.order_id) ?? untilTerminal)(o),
        ...(options.waitTimeoutMs !== undefined ? { timeoutMs: options.waitTimeoutMs } : {}),
        onChange: (_changed, all) => options.onProgress?.(all.map((o) => `${o.order_id}: ${o.status}`).join(', ')),
      },
    );
  }
  for (const p of placed) {
    if (p.order_id) {
      const t = tracker.get(p.order_id);
      if (t) p.final = t;
    }
  }
  return result;
}

/** Ids in the newest history page, read before a submit whose client order ids may have been used before. */
async function historyIds(ctx: TradingContext, wallet: string): Promise<Set<string>> {
  const page = await ctx.api.orderHistory({ wallet, limit: 200 });
  return new Set(page.orders.map((o) => o.order_id));
}

/** The fields `leg` was sent with, as history lists them back. */
function sentFieldsOf(leg: UnsignedLeg): SentOrderFields {
  return { market: leg.market, side: leg.side, order_type: leg.order_type, reduce_only: leg.reduce_only, size: leg.size, limit_price: leg.limit_price, ...(leg.trigger ? { trigger_price: leg.trigger.trigger_price } : {}) };
}

function rowMatches(row: ListedOrder, leg: UnsignedLeg): boolean {
  return listsSentFields(row, sentFieldsOf(leg));
}

/** A leg found in history after a lost answer, or why it cannot be. */
type Finding = { id: string; latest: ListedOrder } | { unknown: UnknownReason };

/** Why a leg of a lost answer stays UNKNOWN though history was read. */
export type UnknownReason = typeof AMBIGUOUS_CLIENT_ORDER_ID | typeof AMBIGUOUS_FIELDS;
/** Several orders carry the leg's client order id and fields (a caller's reused id): guessing could name another. */
export const AMBIGUOUS_CLIENT_ORDER_ID = 'client_order_id_ambiguous';
/**
 * The rows list no client order ids, and more orders stamped since the send carry the leg's fields than
 * the batch has such legs (an identical order placed just before, or by another process): any pick could
 * name an order that is not this one.
 */
export const AMBIGUOUS_FIELDS = 'order_fields_ambiguous';

/**
 * Slack between the send (local clock, moved to the service's by a measured offset) and the service's
 * submitted_at: the offset is measured over a round trip, so it is off by up to that trip. Small on
 * purpose: an identical order placed within it makes the match ambiguous (UNKNOWN), the safe side.
 */
const SENT_AT_SLACK_MS = 2_000;

/** Pages of order-history read per look (newest first): the legs are among the newest rows. */
const RECONCILE_PAGES = 5;
const PAGE = 200;

/** Is this row one of `leg`'s? Its client order id, and (for a caller's id, which may be reused) its fields. */
function isRowOf(row: ListedOrder, leg: UnsignedLeg): boolean {
  return row.client_order_id === leg.client_order_id && rowMatches(row, leg);
}

/**
 * After a lost answer: each leg's order is the one in order-history with its client order id (and
 * fields). History is newest first, so the newest pages hold it once the order has persisted; rows appear
 * as orders persist (a MARKET leg is listed once the venue has it), so this polls until every leg is found
 * or the time runs out; unfound legs are UNKNOWN. A leg two orders match (a caller's reused id whose
 * earlier order was not yet listed when `before` was read) is UNKNOWN with reason
 * client_order_id_ambiguous. Rows without client order ids are matched on fields since the send
 * (matchByFields), ambiguous ones UNKNOWN with order_fields_ambiguous. `before`: order ids known to be
 * older than this submit (null when every client order id is new); `sentAt`: local time of the send.
 */
async function reconcile(ctx: TradingContext, wallet: string, legs: readonly UnsignedLeg[], before: ReadonlySet<string> | null, sentAt: number, timeoutMs: number): Promise<PlacedLeg[]> {
  const budget = new WaitBudget(ctx.sleep, timeoutMs);
  const found = new Map<number, Finding>();
  // The send on the service's clock, measured once and only if the rows turn out to lack client order ids.
  let sinceOnService: number | null = null;
  let interval = 250;
  let failures = 0;
  for (;;) {
    let rows: ListedOrder[];
    try {
      rows = await newestHistory(ctx, wallet, (page) => legs.every((leg, i) => found.has(i) || page.some((r) => isRowOf(r, leg))));
      failures = 0;
    } catch (err) {
      // The same trouble that lost the answer may fail a read too: keep looking, within reason.
      if (!isTransientFailure(err) || ++failures >= 5 || budget.expired) throw err;
      await budget.sleep(interval);
      continue;
    }
    // Rows newest first, grouped by order: the first row of each order is its latest state.
    const byId = new Map<string, ListedOrder[]>();
    for (const r of rows) if (!before?.has(r.order_id)) byId.set(r.order_id, [...(byId.get(r.order_id) ?? []), r]);
    if (rows.length > 0 && rows.every((r) => r.client_order_id === undefined)) {
      if (sinceOnService === null) sinceOnService = sentAt + ((await ctx.clock.now()) - Date.now()) - SENT_AT_SLACK_MS;
      matchByFields(legs, byId, sinceOnService, found);
    } else legs.forEach((leg, i) => {
      const f = found.get(i);
      if (f && 'id' in f) f.latest = byId.get(f.id)?.[0] ?? f.latest;
      if (f) return;
      // Client order ids are unique within a batch, so each leg's candidates are its own.
      const candidates = [...byId.entries()].filter(([, rs]) => rs.some((r) => isRowOf(r, leg)));
      if (candidates.length > 1) found.set(i, { unknown: AMBIGUOUS_CLIENT_ORDER_ID });
      else if (candidates.length === 1) found.set(i, { id: candidates[0]![0], latest: candidates[0]![1][0]! });
    });
    if (found.size === legs.length || budget.expired) break;
    await budget.sleep(interval);
    interval = Math.min(2_000, interval * 2);
  }
  return legs.map((leg, i) => {
    const f = found.get(i);
    if (!f || !('id' in f)) return { client_order_id: leg.client_order_id, order_id: null, status: 'UNKNOWN' as const, reason: f?.unknown ?? null, leg };
    const rejected = f.latest.status === 'rejected';
    return {
      client_order_id: leg.client_order_id,
      order_id: f.id,
      status: rejected ? ('REJECTED' as const) : ('SUBMITTED' as const),
      reason: f.latest.reason ?? null,
      leg,
    };
  });
}

/** The fields a leg is matched on when rows carry no client order id (and its group of identical legs). */
function fieldsKey(leg: UnsignedLeg): string {
  const f = sentFieldsOf(leg);
  const d = (v: string | undefined) => (v === undefined ? '' : new Decimal(v).toFixed());
  return [f.market, f.side.toLowerCase(), f.order_type, f.reduce_only, d(f.limit_price), d(f.size), d(f.trigger_price)].join('|');
}

/**
 * Rows without client order ids: each leg's order is one stamped since the send (by the service's clock)
 * whose fields match. Legs with identical fields form a group: as many look-alike orders as legs (or
 * fewer, while the rest persist) are theirs, taken oldest first in batch order (the legs are the same, so
 * which gets which does not matter); more look-alikes than legs makes the whole group ambiguous. Worked
 * out afresh on every look, since rows keep arriving.
 */
function matchByFields(legs: readonly UnsignedLeg[], byId: ReadonlyMap<string, ListedOrder[]>, since: number, found: Map<number, Finding>): void {
  found.clear();
  const groups = new Map<string, number[]>();
  legs.forEach((leg, i) => groups.set(fieldsKey(leg), [...(groups.get(fieldsKey(leg)) ?? []), i]));
  for (const members of groups.values()) {
    const leg = legs[members[0]!]!;
    const candidates = [...byId.entries()]
      .filter(([, rs]) => rs.some((r) => rowMatches(r, leg)) && rs[rs.length - 1]!.submitted_at >= since)
      .sort(([, a], [, b]) => a[a.length - 1]!.submitted_at - b[b.length - 1]!.submitted_at);
    if (candidates.length > members.length) {
      for (const i of members) found.set(i, { unknown: AMBIGUOUS_FIELDS });
      continue;
    }
    candidates.forEach(([id, rs], k) => found.set(members[k]!, { id, latest: rs[0]! }));
  }
}

/**
 * The newest order-history rows: pages newest first until `enough` says the rows so far hold every leg,
 * or history ends, or RECONCILE_PAGES pages were read.
 */
async function newestHistory(ctx: TradingContext, wallet: string, enough: (rows: readonly ListedOrder[]) => boolean): Promise<ListedOrder[]> {
  const rows: ListedOrder[] = [];
  for (let page = 0; page < RECONCILE_PAGES; page++) {
    const res = await ctx.api.orderHistory({ wallet, limit: PAGE, offset: page * PAGE });
    rows.push(...res.orders);
    if (res.orders.length < PAGE || rows.length >= res.total || enough(rows)) break;
  }
  return rows;
}

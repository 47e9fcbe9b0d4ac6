/**
 * Modifying an open order (POST /orders/{id}/modify): only price, size and trigger price change; market,
 * side, time in force (ALO included), reduce-only, leverage and type are inherited. All three values are
 * always sent (no partial modify): trigger_price is '0' for a limit order.
 *
 * Before signing: the order must be open and modifiable (a resting LIMIT or an armed TRIGGER). A TP/SL leg
 * still awaiting its entry (PENDING_PARENT) is refused up front (the service would answer
 * modify_not_modifiable), as is an order with a modify already in flight (is_modifying: re-read
 * instead of modifying again). The new values are checked against the live market record, the mark (a
 * trigger's new threshold must not already be past it) and, for a bracket entry, its pending legs'
 * sides against the new limit price.
 *
 * Success returns the new order's id, and the old id is dead: the tracker follows the new id instead. The
 * new order sits in PENDING_MODIFY until the old one terminates; if the original stopped being live in the
 * meantime (a trigger fired) or the open-order cap no longer allows the swap, the modify is dropped and
 * the original stays.
 */
import { enforceOnModify } from '../risk/riskCheck.js';
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import { modifyTypedData } from '../../../shared/eip712/index.js';
import { isTerminalOrderStatus, type ListedOrder, type ModifyBody } from '../../../shared/protocol/index.js';
import { ApiError, NetworkError, TimeoutError, WriteLandedUnknownResultError, isNotFound, isTransientFailure } from '../../api/errors.js';
import { OperationError, ValidationError } from '../errors.js';
import { decimalInput, newClientOrderId } from './buildOrder.js';
import { isPendingBracketLeg } from './brackets.js';
import { readMark, walletIds, WaitBudget, type TradingContext } from './orderContext.js';
import { bracketWrongSide, checkPriceAndSize, triggerAlreadyPast, triggerFiresUp } from './orderValidation.js';
import { OrderTracker, untilSettled, type TrackedOrder } from './orderTracker.js';
import { explainingForbidden } from '../keys/explainForbidden.js';
import type { Signer } from '../../signers/signer.js';
import { summarizeTypedData } from '../../signers/offlineSigner.js';
import { assertPreparedFor, reserveNonces, signPrepared, signRequest, type PreparedBase } from '../signing/prepared.js';

export interface ModifyInput {
  wallet: string;
  orderId: string;
  /** New limit price (the fire price of a trigger). */
  price: string;
  /** New size; omitted: the order keeps what it has left (its size less what has filled; a whole-position trigger stays 0). */
  size?: string;
  /** New trigger price of a trigger order; default: its current one. Must be omitted (or 0) for a limit. */
  triggerPrice?: string;
  clientOrderId?: string;
}

export type ModifyOutcome = 'applied' | 'dropped' | 'rejected' | 'pending';

export interface ModifyOrderResult {
  wallet: string;
  old_order_id: string;
  new_order_id: string | null;
  client_order_id: string;
  /** The service's answer (UNKNOWN if it was lost and the new order could not be found yet). */
  status: 'SUBMITTED' | 'REJECTED' | 'UNKNOWN';
  reason: string | null;
  sent: { limit_price: string; size: string; trigger_price: string };
  /** After --wait: applied (the new order is live or done), dropped (the original stays), rejected, pending. */
  outcome: ModifyOutcome;
  final?: TrackedOrder;
}

export interface ModifyOptions {
  wait?: boolean;
  waitTimeoutMs?: number;
  tracker?: OrderTracker;
  onProgress?: (text: string) => void;
}

const DROP_REASONS = new Set(['modify_dropped', 'max_open_orders']);

async function findOpen(ctx: TradingContext, wallet: string, orderId: string): Promise<{ row: ListedOrder; open: ListedOrder[] }> {
  const open = await ctx.api.allOpenOrders({ wallet });
  const row = open.find((r) => r.order_id === orderId);
  if (row) return { row, open };
  let record;
  try {
    record = await ctx.api.order(orderId, { retryNotFound: false });
  } catch (err) {
    if (isNotFound(err)) throw new ValidationError(`no open order ${orderId} for ${wallet}`, { field: 'order_id', code: 'ORDER_NOT_FOUND', hint: 'List open orders with `perps orders open --wallet ADDR`.' });
    throw err;
  }
  if (isTerminalOrderStatus(record.status)) throw new ValidationError(`order ${orderId} is already ${record.status}; only open orders can be modified`, { field: 'order_id', code: 'ORDER_NOT_OPEN' });
  if (record.status === 'PENDING_MODIFY') {
    throw new ValidationError(`order ${orderId} is itself a pending modify`, { field: 'order_id', code: 'MODIFY_IN_FLIGHT', hint: 'Wait for it to go live (`perps order get ID --wait`), then modify it.' });
  }
  if (record.status === 'PENDING_PARENT') {
    throw new ValidationError(`order ${orderId} is a TP/SL leg awaiting its entry (PENDING_PARENT) and cannot be modified`, { field: 'order_id', code: 'MODIFY_NOT_MODIFIABLE', hint: 'Cancel it and attach a new leg, or modify it once it has armed.' });
  }
  throw new ValidationError(`order ${orderId} is ${record.status} and not yet listed as open`, { field: 'order_id', code: 'ORDER_NOT_OPEN', hint: 'Wait for it to rest (`perps order get ID --wait`), then modify it.' });
}

/** A modify prepared for signing: the order as it is now and exactly what replaces it. */
export interface PreparedModify extends PreparedBase<'modify'> {
  readonly accountId: string;
  /** The order being modified, as open-orders listed it at prepare time. */
  readonly row: ListedOrder;
  /** Ids open at prepare time: after a lost answer, the replacement is a new id among the open ones. */
  readonly openIds: readonly string[];
  readonly fields: Omit<ModifyBody, 'nonce' | 'signature' | 'account_id'>;
  readonly nonce: string;
  readonly view: {
    wallet: string;
    order_id: string;
    market: string;
    side: 'BUY' | 'SELL';
    order_type: string;
    before: { limit_price: string; size: string; trigger_price: string | null };
    after: { limit_price: string; size: string; trigger_price: string };
    summary: string[];
  };
}

/** Everything before signing: checks, the nonce, the exact Modify typed data. */
export async function prepareModify(ctx: TradingContext, input: ModifyInput): Promise<PreparedModify> {
  const { wallet, accountId } = walletIds(input.wallet);
  const price = decimalInput(input.price, 'modify', 'price');
  const typedSize = input.size === undefined ? undefined : decimalInput(input.size, 'modify', 'size');
  const triggerInput = input.triggerPrice === undefined ? undefined : decimalInput(input.triggerPrice, 'modify', 'trigger_price');
  const { row, open } = await findOpen(ctx, wallet, input.orderId);
  if (isPendingBracketLeg(row)) {
    throw new ValidationError(`order ${row.order_id} is a TP/SL leg awaiting its entry (PENDING_PARENT) and cannot be modified (modify_not_modifiable)`, {
      field: 'order_id',
      code: 'MODIFY_NOT_MODIFIABLE',
      hint: 'Cancel it and attach a new leg, or modify it once the entry has filled and it has armed.',
    });
  }
  if (row.is_modifying) {
    throw new ValidationError(`order ${row.order_id} has a modify in flight`, { field: 'order_id', code: 'MODIFY_IN_FLIGHT', hint: 'Re-read it (`perps orders open`) and modify the new order instead.' });
  }
  const isTrigger = row.order_type === 'TRIGGER';
  if (!isTrigger && !(row.order_type === 'LIMIT' && row.time_in_force !== 'IOC')) {
    throw new ValidationError(`a ${row.order_type}${row.time_in_force ? ' ' + row.time_in_force : ''} order cannot be modified; only resting limits and triggers can`, { field: 'order_id' });
  }
  const market = await ctx.config.market(row.market);
  // A price change keeps the size: what is left of the order (a modify replaces the order; what already
  // filled stays filled), and a whole-position trigger's 0 stays 0.
  const size = typedSize ?? canonical(Decimal.max(new Decimal(decimalInput(row.size, 'modify', 'size')).minus(decimalInput(row.filled_size ?? '0', 'modify', 'filled_size')), 0));
  let triggerPrice = '0';
  if (isTrigger) {
    triggerPrice = triggerInput ?? (row.trigger_price ? decimalInput(row.trigger_price, 'modify', 'trigger_price') : '');
    if (!triggerPrice || triggerPrice === '0') throw new ValidationError('a trigger order needs a trigger price', { field: 'modify.trigger_price' });
  } else if (triggerInput !== undefined && triggerInput !== '0') {
    throw new ValidationError('only trigger orders have a trigger price (it is sent as 0 for a limit order)', { field: 'modify.trigger_price' });
  }
  const side = row.side === 'buy' ? 'BUY' : 'SELL';
  checkPriceAndSize(market, { size, limit_price: price, reduce_only: row.reduce_only, wholePosition: isTrigger && row.reduce_only && size === '0', ...(isTrigger ? { trigger_price: triggerPrice } : {}) }, 'modify');
  if (isTrigger) {
    const tpsl = row.tpsl === 'tp' ? 'TP' : 'SL';
    const fire = new Decimal(price);
    const threshold = new Decimal(triggerPrice);
    if (side === 'SELL' ? fire.gt(threshold) : fire.lt(threshold)) {
      throw new ValidationError(`a ${side} trigger's fire price ${price} must be ${side === 'SELL' ? 'at or below' : 'at or above'} its trigger price ${triggerPrice}`, { field: 'modify.price' });
    }
    const mark = await readMark(ctx, market);
    if (triggerAlreadyPast(side, tpsl, threshold, mark)) {
      const up = triggerFiresUp(side, tpsl);
      throw new ValidationError(`${triggerPrice} is already ${up ? 'at or below' : 'at or above'} the mark ${mark.toFixed()}; the trigger would fire at once`, { field: 'modify.trigger_price' });
    }
  } else {
    // A bracket entry's pending legs must stay on the right side of the new limit price.
    for (const leg of open.filter((r) => isPendingBracketLeg(r) && r.parent_order_id === row.order_id)) {
      const tpsl = leg.tpsl === 'tp' ? 'TP' : 'SL';
      if (leg.trigger_price && bracketWrongSide(side, new Decimal(price), tpsl, new Decimal(leg.trigger_price))) {
        throw new ValidationError(`the attached ${tpsl} at ${leg.trigger_price} would be on the wrong side of the new limit price ${price} (bracket_${tpsl.toLowerCase()}_wrong_side)`, {
          field: 'modify.price',
        });
      }
    }
  }
  // The trader's risk limits (issue 39): a larger opening order is checked for what it adds.
  if (!isTrigger) await enforceOnModify(ctx, { wallet, accountId, market: row.market, side, reduceOnly: row.reduce_only, increase: new Decimal(size).minus(new Decimal(row.size).minus(row.filled_size)), price: new Decimal(price) });
  const fields = { client_order_id: input.clientOrderId ?? newClientOrderId('m'), limit_price: price, size, trigger_price: triggerPrice };
  const signer = await ctx.tradingSigner(wallet);
  const [nonce] = (await reserveNonces(ctx.nonces, wallet, 1)).map(String);
  const typed = modifyTypedData(row.order_id, { account_id: accountId, ...fields, nonce: nonce! }, ctx.profile.network);
  return {
    action: 'modify',
    profile: ctx.profile.name,
    wallet,
    signer: { role: 'trading-key', address: signer.address },
    requests: [signRequest(`modify ${row.order_id}`, typed)],
    accountId,
    row,
    openIds: open.map((r) => r.order_id),
    fields,
    nonce: nonce!,
    view: {
      wallet,
      order_id: row.order_id,
      market: row.market,
      side,
      order_type: row.order_type,
      before: { limit_price: row.limit_price, size: row.size, trigger_price: row.trigger_price ?? null },
      after: { limit_price: price, size, trigger_price: triggerPrice },
      summary: summarizeTypedData(typed),
    },
  };
}

/** Prepares and submits with the wallet's trading key, in one go. */
export async function modifyOrder(ctx: TradingContext, input: ModifyInput, options: ModifyOptions = {}): Promise<ModifyOrderResult> {
  const prepared = await prepareModify(ctx, input);
  return submitModify(ctx, prepared, await ctx.tradingSigner(prepared.wallet), options);
}

/**
 * Signs the prepared Modify and sends it. Success returns the new order's id and the old id is dead; the
 * tracker follows the new id. With `wait`, the outcome says whether the swap happened.
 */
export async function submitModify(ctx: TradingContext, prepared: PreparedModify, signer: Signer, options: ModifyOptions = {}): Promise<ModifyOrderResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  const { wallet, accountId, row, fields } = prepared;
  const [signature] = await signPrepared(prepared, signer);
  const body: ModifyBody = { account_id: accountId, ...fields, nonce: prepared.nonce, signature: signature! };
  const result: ModifyOrderResult = {
    wallet,
    old_order_id: row.order_id,
    new_order_id: null,
    client_order_id: fields.client_order_id,
    status: 'UNKNOWN',
    reason: null,
    sent: { limit_price: fields.limit_price, size: fields.size, trigger_price: fields.trigger_price },
    outcome: 'pending',
  };
  try {
    const res = await explainingForbidden(ctx, { wallet, agent: signer.address }, () => ctx.api.modify(row.order_id, body));
    if (res.status === 'REJECTED') {
      result.status = 'REJECTED';
      result.reason = res.reason ?? null;
      result.outcome = 'rejected';
      return result;
    }
    result.status = 'SUBMITTED';
    result.new_order_id = res.order_id;
  } catch (err) {
    const lost = err instanceof WriteLandedUnknownResultError || ((err instanceof NetworkError || err instanceof TimeoutError) && err.mayHaveLanded) || (err instanceof ApiError && err.status >= 500);
    if (!lost) throw err;
    options.onProgress?.('the answer was lost; looking for the new order');
    const found = await findReplacement(ctx, wallet, row, fields, new Set(prepared.openIds));
    if (!found) {
      if (err instanceof WriteLandedUnknownResultError) return result;
      // transient: no usable answer; it may still have landed (services/algos/engine/mayHaveLanded.ts).
      throw new OperationError('MODIFY_UNCONFIRMED', `the modify of ${row.order_id} got no answer (${(err as Error).message}) and no replacement order shows up`, {
        kind: 'transient',
        hint: 'Check `perps orders open --wallet ADDR` before modifying again.',
        cause: err,
      });
    }
    result.status = 'SUBMITTED';
    result.new_order_id = found;
  }
  const tracker = options.tracker ?? new OrderTracker({ api: ctx.api, wallet, sleep: ctx.sleep });
  tracker.track(row.order_id, { market: row.market, order_type: row.order_type, justSubmitted: false, status: row.order_type === 'TRIGGER' ? 'SUBMITTED' : 'ACCEPTED' });
  tracker.replace(row.order_id, result.new_order_id!, { market: row.market, order_type: row.order_type });
  if (!options.wait) return result;
  options.onProgress?.(`waiting for ${result.new_order_id} to replace ${row.order_id}`);
  const [final] = await tracker.waitFor([result.new_order_id!], { until: untilSettled, ...(options.waitTimeoutMs !== undefined ? { timeoutMs: options.waitTimeoutMs } : {}) });
  result.final = final!;
  if (final!.terminal && final!.status === 'CANCELLED' && final!.reason !== null && DROP_REASONS.has(final!.reason)) {
    // The swap did not happen: the original order is still the live one.
    tracker.restore(row.order_id);
    result.outcome = 'dropped';
  } else if (final!.terminal && final!.status === 'REJECTED') result.outcome = 'rejected';
  else result.outcome = 'applied';
  return result;
}

/** After a lost answer: a new id (not open before) on the same market and side carrying the new values. */
async function findReplacement(ctx: TradingContext, wallet: string, row: ListedOrder, fields: { limit_price: string; size: string }, before: ReadonlySet<string>): Promise<string | null> {
  const budget = new WaitBudget(ctx.sleep, 20_000);
  let interval = 250;
  let failures = 0;
  for (;;) {
    let open: ListedOrder[];
    let history: ListedOrder[];
    try {
      open = await ctx.api.allOpenOrders({ wallet, market: row.market });
      history = (await ctx.api.orderHistory({ wallet, market: row.market, limit: 200 })).orders;
      failures = 0;
    } catch (err) {
      if (!isTransientFailure(err) || ++failures >= 5 || budget.expired) throw err;
      await budget.sleep(interval);
      continue;
    }
    const hit = [...open, ...history].find(
      (r) => r.order_id !== row.order_id && !before.has(r.order_id) && r.submitted_at >= row.submitted_at && r.side === row.side && r.order_type === row.order_type && new Decimal(r.limit_price).eq(fields.limit_price) && new Decimal(r.size).eq(fields.size),
    );
    if (hit) return hit.order_id;
    if (budget.expired) return null;
    await budget.sleep(interval);
    interval = Math.min(2_000, interval * 2);
  }
}

/**
 * POST /orders/{orderId}/modify: replaces a live order with a new one carrying a new price, size and
 * trigger price. Everything else (market, side, time in force incl. ALO, reduce-only, leverage, type,
 * tpsl) is inherited.
 *
 * Stages: shape (400) -> signature over the path's orderId (403) -> replayed nonce (409) -> field rules
 *   that need the order and client_order_id novelty (400 naming the field) -> nonce consumed -> business (200 REJECTED + reason)
 *   -> accepted: the new order is created in PENDING_MODIFY, the old id is dead (is_modifying on its
 *   rows), and the swap happens modify_ms later.
 * At apply time the modify is dropped and the original stays when the original is no longer live (a
 *   trigger that fired, an order that filled or was cancelled: reason modify_dropped on the new id) or
 *   when the open-order cap no longer allows it (reason max_open_orders on the new id).
 * Otherwise the old order ends CANCELLED (PARTIALLY_FILLED_CANCELLED if partly filled) with reason
 *   `modified`, pending bracket legs follow to the new id, and the new order goes live (ACCEPTED, or
 *   SUBMITTED = armed for a trigger; a post-only replacement that would cross is REJECTED
 *   post_only_would_take).
 */
import { walletFromAccountId } from '../../shared/identity/index.js';
import { ModifyBodySchema, type ModifyBody } from '../../shared/protocol/index.js';
import { d } from '../core/numbers.js';
import { invalidRequest } from '../core/response.js';
import { parseOr400 } from '../core/validate.js';
import type { SimContext } from '../context.js';
import type { SimOrder } from '../state/model.js';
import { assertFreshNonce, consumeNonces } from '../auth/nonces.js';
import { requireAgent } from '../auth/trading.js';
import { recoverModifySigner } from '../auth/verify.js';
import { wouldCross } from '../matching/book.js';
import { countsTowardCap, isArmedTrigger, triggerCrossed } from './model.js';
import { pendingLegs, wrongSideReason, entryEnded } from './brackets.js';
import { openOrderCount } from './place.js';
import { stopStatus, transition } from './stateMachine.js';
import { fireTrigger } from './fireTrigger.js';
import { currentMark, priceSizeReason } from './validation.js';

export interface ModifyResult {
  order_id: string;
  client_order_id: string;
  status: 'SUBMITTED' | 'REJECTED';
  reason?: string;
}

/** Live and modifiable right now: a resting GTC/ALO limit or an armed trigger. */
function isModifiableNow(order: SimOrder): boolean {
  if (order.order_type === 'TRIGGER') return order.status === 'SUBMITTED';
  return order.order_type === 'LIMIT' && order.time_in_force !== 'IOC' && (order.status === 'SUBMITTED' || order.status === 'ACCEPTED');
}

function refusal(order: SimOrder): string | null {
  if (order.status === 'PENDING_PARENT') return 'modify_not_modifiable';
  if (order.replaced_by !== null) return 'order_replaced';
  if (order.status === 'PENDING_MODIFY' || order.is_modifying) return 'modify_in_flight';
  if (order.order_type === 'MARKET' || order.order_type === 'LIQUIDATION' || order.order_type === 'ORPHAN_LIQUIDATION' || (order.order_type === 'LIMIT' && order.time_in_force === 'IOC')) {
    return 'order_not_modifiable';
  }
  if (!isModifiableNow(order)) return 'order_not_open';
  return null;
}

export function modifyOrder(ctx: SimContext, orderId: string, raw: unknown): ModifyResult {
  const body: ModifyBody = parseOr400(ModifyBodySchema, raw);
  const accountId = body.account_id.toLowerCase();
  const wallet = walletFromAccountId(accountId).toLowerCase();
  requireAgent(ctx, wallet, recoverModifySigner(ctx.env.tradingChainId, orderId, body, body.signature));

  // A replayed modify is a 409 even though its client_order_id is, by then, no longer new.
  assertFreshNonce(ctx, 'trading', wallet, body.nonce);
  const order = ctx.store.orders.get(orderId);
  const mine = order !== undefined && order.wallet === wallet;
  // Field rules that depend on the order being modified (still validation: 400 naming the field).
  if (ctx.store.cloids.get(wallet)?.has(body.client_order_id)) {
    throw invalidRequest(`client_order_id: must be new; ${JSON.stringify(body.client_order_id)} was already used by this account`);
  }
  if (mine) {
    const tpslTrigger = order.order_type === 'TRIGGER' && order.reduce_only;
    if (body.size === '0' && !tpslTrigger) throw invalidRequest('size: "0" (full-position close) is allowed only on TP/SL triggers');
    if (order.order_type === 'TRIGGER' && body.trigger_price === '0') throw invalidRequest('trigger_price: must be the new trigger threshold (non-zero) for a trigger order');
    if (order.order_type !== 'TRIGGER' && body.trigger_price !== '0') throw invalidRequest('trigger_price: must be "0" for a non-trigger order');
  }
  consumeNonces(ctx, 'trading', wallet, [body.nonce]);

  const reject = (reason: string): ModifyResult => ({ order_id: orderId, client_order_id: body.client_order_id, status: 'REJECTED', reason });
  if (!mine) return reject('order_not_found');
  const r = refusal(order);
  if (r) return reject(r);
  const market = ctx.markets.require(order.market);
  const wholePosition = order.order_type === 'TRIGGER' && order.reduce_only && body.size === '0';
  const rule = priceSizeReason(market, {
    size: body.size,
    limit_price: body.limit_price,
    reduce_only: order.reduce_only,
    whole_position: wholePosition,
    trigger_price: order.order_type === 'TRIGGER' ? body.trigger_price : null,
  });
  if (rule) return reject(rule);
  if (order.order_type === 'TRIGGER' && triggerCrossed(order.side, { ...order.trigger!, trigger_price: body.trigger_price }, currentMark(ctx, market))) {
    return reject('trigger_past_mark');
  }
  const legs = pendingLegs(ctx, order);
  if (legs.length > 0) {
    const wrong = wrongSideReason(order.side, d(body.limit_price), legs.map((l) => ({ tpsl: l.trigger!.tpsl, trigger_price: l.trigger!.trigger_price })));
    if (wrong) return reject(wrong);
  }

  const now = ctx.clock.now();
  const replacement: SimOrder = {
    ...order,
    order_id: ctx.store.nextOrderId(),
    client_order_id: body.client_order_id,
    size: body.size,
    whole_position: wholePosition,
    filled_size: '0',
    filled_notional: '0',
    fees: '0',
    limit_price: body.limit_price,
    trigger: order.trigger ? { ...order.trigger, trigger_price: body.trigger_price } : null,
    status: 'PENDING_MODIFY',
    reason: null,
    submitted_at: now,
    status_at: now,
    visible_at: now + ctx.chaos.persist_lag_ms,
    avg_fill_price: null,
    parent_order_id: null,
    bracket_legs: [],
    is_modifying: false,
    replaced_by: null,
    replaces: order.order_id,
    fired_at: null,
    forced_failure: false,
  };
  ctx.store.addOrder(replacement);
  order.is_modifying = true;
  order.replaced_by = replacement.order_id;
  ctx.jobs.add('order.modify', ctx.timings.modify_ms, { old_id: order.order_id, new_id: replacement.order_id });
  return { order_id: replacement.order_id, client_order_id: body.client_order_id, status: 'SUBMITTED' };
}

function drop(ctx: SimContext, old: SimOrder, replacement: SimOrder, reason: string): void {
  old.is_modifying = false;
  old.replaced_by = null;
  transition(ctx, replacement, 'CANCELLED', reason);
}

export function applyModify(ctx: SimContext, old: SimOrder, replacement: SimOrder): void {
  if (replacement.status !== 'PENDING_MODIFY') return;
  if (!isModifiableNow(old)) return drop(ctx, old, replacement, 'modify_dropped');
  const market = ctx.markets.require(old.market);
  // The replacement takes the old order's place: the cap must still hold without the old one.
  if (countsTowardCap(old) && openOrderCount(ctx, old.wallet, old.market, new Set([old.order_id])) + 1 > market.config.max_open_orders) {
    return drop(ctx, old, replacement, 'max_open_orders');
  }
  const legs = pendingLegs(ctx, old);
  old.is_modifying = false;
  transition(ctx, old, stopStatus(old), 'modified');
  for (const leg of legs) {
    leg.parent_order_id = replacement.order_id;
    leg.bracket_entry_id = replacement.order_id;
    replacement.bracket_legs = [...replacement.bracket_legs, leg.order_id];
  }
  old.bracket_legs = old.bracket_legs.filter((id) => !legs.some((l) => l.order_id === id));

  if (replacement.order_type === 'TRIGGER') {
    transition(ctx, replacement, 'SUBMITTED');
    if (isArmedTrigger(replacement) && triggerCrossed(replacement.side, replacement.trigger!, currentMark(ctx, market))) fireTrigger(ctx, replacement);
    return;
  }
  const crosses = wouldCross(ctx.venue.getBook(market.venueSymbol), replacement.side, d(replacement.limit_price));
  if (replacement.time_in_force === 'ALO' && crosses) {
    transition(ctx, replacement, 'REJECTED', 'post_only_would_take');
    entryEnded(ctx, replacement);
    return;
  }
  transition(ctx, replacement, 'ACCEPTED');
  if (crosses) ctx.jobs.add('order.execute', ctx.timings.order_execute_ms, { order_id: replacement.order_id });
}

export function registerModifyJobs(ctx: SimContext): void {
  ctx.jobs.on('order.modify', ({ old_id, new_id }) => {
    const old = ctx.store.orders.get(old_id);
    const replacement = ctx.store.orders.get(new_id);
    if (!old || !replacement) throw new Error(`order.modify: unknown order ${old ? new_id : old_id}`);
    applyModify(ctx, old, replacement);
  });
}

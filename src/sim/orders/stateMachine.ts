/**
 * Order status transitions. Every change goes through transition(), which stamps status_at, keeps the
 * live indexes current and writes the order-history row (history holds one row per status change in
 * the list vocabulary; statuses with no list counterpart — EXECUTING, PENDING_MODIFY, FAILED and a
 * not-yet-live SUBMITTED limit — write none).
 *
 * Legal moves (from the spec's table, plus the transitions it leaves "not shown"):
 *   SUBMITTED      -> ACCEPTED | REJECTED (post_only_would_take, venue rejections) | FAILED (not routable) | CANCELLED
 *   PENDING_PARENT -> SUBMITTED (armed) | CANCELLED (bracket_*)
 *   PENDING_MODIFY -> ACCEPTED | SUBMITTED (trigger) | CANCELLED (modify dropped) | REJECTED (post_only_would_take)
 *   ACCEPTED       -> EXECUTING | CANCELLED | PARTIALLY_FILLED_CANCELLED (partly filled resting order cancelled or replaced)
 *   EXECUTING      -> FILLED | PARTIALLY_FILLED_CANCELLED
 */
import { isTerminalOrderStatus, listStatusOfOrder, type OrderStatus } from '../../shared/protocol/index.js';
import type { SimContext } from '../context.js';
import type { SimOrder } from '../state/model.js';

const ALLOWED: Record<OrderStatus, readonly OrderStatus[]> = {
  SUBMITTED: ['ACCEPTED', 'REJECTED', 'FAILED', 'CANCELLED', 'PARTIALLY_FILLED_CANCELLED'],
  PENDING_PARENT: ['SUBMITTED', 'CANCELLED'],
  PENDING_MODIFY: ['ACCEPTED', 'SUBMITTED', 'CANCELLED', 'REJECTED'],
  ACCEPTED: ['EXECUTING', 'CANCELLED', 'PARTIALLY_FILLED_CANCELLED', 'REJECTED', 'FILLED'],
  EXECUTING: ['FILLED', 'PARTIALLY_FILLED_CANCELLED'],
  FILLED: [],
  PARTIALLY_FILLED_CANCELLED: [],
  CANCELLED: [],
  REJECTED: [],
  FAILED: [],
};

export class IllegalTransition extends Error {}

export function transition(ctx: SimContext, order: SimOrder, to: OrderStatus, reason: string | null = null): void {
  if (!ALLOWED[order.status].includes(to)) {
    throw new IllegalTransition(`order ${order.order_id}: ${order.status} -> ${to} is not a legal transition`);
  }
  order.status = to;
  order.status_at = ctx.clock.now();
  if (reason !== null) order.reason = reason;
  if (isTerminalOrderStatus(to)) order.is_modifying = false;
  ctx.store.reindex(order);
  recordHistory(ctx, order);
}

/** Writes the order's current state as a history row when its status has a list counterpart. */
export function recordHistory(ctx: SimContext, order: SimOrder): void {
  const ls = listStatusOfOrder(order.status, order.order_type);
  if (ls) ctx.store.addHistory(order, ls);
}

/** Terminal status for an order that stops with what it has: partly filled or not at all. */
export function stopStatus(order: SimOrder): 'PARTIALLY_FILLED_CANCELLED' | 'CANCELLED' {
  return order.filled_size !== '0' ? 'PARTIALLY_FILLED_CANCELLED' : 'CANCELLED';
}

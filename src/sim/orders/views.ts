/**
 * The two outward shapes of an order: the single-order record (GET /orders/{id}, uppercase statuses)
 * and the listed row (open-orders, position-triggers, order-history, lowercase list vocabulary).
 */
import { isTerminalOrderStatus, listStatusOfOrder, type ListStatus } from '../../shared/protocol/index.js';
import type { HistoryEntry, HistoryRecord, ListedOrderRow, SimOrder } from '../state/model.js';
import { triggerDirection } from './model.js';

/** A list row of the order as it is now, under the given list status. */
export function listedRow(order: SimOrder, status: ListStatus): ListedOrderRow {
  return historyRow(historyEntry(order, status));
}

/** What a history row written now, under the given list status, holds beyond the order itself. */
export function historyEntry(order: SimOrder, status: ListStatus): HistoryEntry {
  return {
    order,
    status,
    after: order.status_at - order.submitted_at,
    size: order.size,
    filled_size: order.filled_size,
    avg_fill_price: order.avg_fill_price,
    reason: (status === 'rejected' || status === 'cancelled' || status === 'partially_filled_cancelled') && order.reason ? order.reason : null,
    is_modifying: order.is_modifying,
    // Present only while the leg waits for its entry; it disappears once the leg arms.
    parent_order_id: order.status === 'PENDING_PARENT' && order.parent_order_id ? order.parent_order_id : null,
  };
}

/** The entry of a stored history row (a terminal order standing for its own last row: see HistoryRecord). */
export function entryOf(row: HistoryRecord): HistoryEntry {
  return 'order' in row ? row : historyEntry(row, listStatusOfOrder(row.status, row.order_type)!);
}

/**
 * What the store keeps for a history entry: the order itself when the entry is the terminal order's row
 * exactly as the order now is (nothing changes a terminal order again), else the entry.
 */
export function compactEntry(entry: HistoryEntry): HistoryRecord {
  const order = entry.order;
  if (!isTerminalOrderStatus(order.status) || entry.status !== listStatusOfOrder(order.status, order.order_type)) return entry;
  const now = historyEntry(order, entry.status);
  const same =
    entry.after === now.after &&
    entry.size === now.size &&
    entry.filled_size === now.filled_size &&
    entry.avg_fill_price === now.avg_fill_price &&
    entry.reason === now.reason &&
    entry.is_modifying === now.is_modifying &&
    entry.parent_order_id === now.parent_order_id;
  return same ? order : entry;
}

/** The full listed row of a history entry (the order's fixed fields plus the entry's own). */
export function historyRow(entry: HistoryEntry): ListedOrderRow {
  const order = entry.order;
  const row: ListedOrderRow = {
    order_id: order.order_id,
    client_order_id: order.client_order_id,
    market: order.market,
    side: order.side === 'BUY' ? 'buy' : 'sell',
    size: entry.size,
    filled_size: entry.filled_size,
    limit_price: order.limit_price,
    order_type: order.order_type,
    time_in_force: order.time_in_force,
    reduce_only: order.reduce_only,
    status: entry.status,
    submitted_at: order.submitted_at,
    status_at: order.submitted_at + entry.after,
    is_modifying: entry.is_modifying,
  };
  if (order.trigger) {
    row.trigger_price = order.trigger.trigger_price;
    row.trigger_direction = triggerDirection(order.side, order.trigger);
    row.tpsl = order.trigger.tpsl === 'TP' ? 'tp' : 'sl';
    row.is_trigger_market = order.trigger.is_market;
  }
  if (entry.parent_order_id !== null) row.parent_order_id = entry.parent_order_id;
  if (entry.reason !== null) row.reason = entry.reason;
  if (entry.avg_fill_price !== null) row.avg_fill_price = entry.avg_fill_price;
  return row;
}

/** GET /orders/{id}: the spec's four fields plus the order's own details (documented as sim extras). */
export function orderRecord(order: SimOrder): Record<string, unknown> {
  return {
    order_id: order.order_id,
    status: order.status,
    reason: order.reason,
    avg_fill_price: order.avg_fill_price,
    client_order_id: order.client_order_id,
    account_id: order.account_id,
    market: order.market,
    side: order.side,
    order_type: order.order_type,
    size: order.size,
    filled_size: order.filled_size,
    limit_price: order.limit_price,
    time_in_force: order.time_in_force,
    reduce_only: order.reduce_only,
    leverage: order.leverage,
    trigger: order.trigger,
    parent_order_id: order.status === 'PENDING_PARENT' ? order.parent_order_id : null,
    is_modifying: order.is_modifying,
    replaced_by: order.replaced_by,
    replaces: order.replaces,
    fee: order.fees,
    submitted_at: order.submitted_at,
    status_at: order.status_at,
  };
}

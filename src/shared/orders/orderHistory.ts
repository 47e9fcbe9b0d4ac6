/**
 * Order history a person can scan. The service logs one row per status change, so an order id repeats
 * (open, then triggered, then filled...). Grouped here into one entry per order: its latest status and
 * fields, every status change in the order it happened, and the average fill price. The app's History ›
 * Orders (through the history desk, which holds every row) and `perps history orders` both show these.
 *
 * A market order is shown at the price it filled at, its average fill price: its limit_price is only
 * the slippage bound it was sent with, not a price anyone paid.
 */

import { orderStatusLabel } from './orderStatusLabel.js';

/** The fields of a history row the grouping reads (the service's rows and the app's views both have them). */
export interface OrderHistoryRow {
  order_id: string;
  order_type: string;
  status: string;
  status_at: number;
  submitted_at: number;
  limit_price: string;
  filled_size: string;
  reason?: string | null | undefined;
  avg_fill_price?: string | null | undefined;
  /** On a bracket TP/SL leg's rows while it waits for its entry; absent once it arms (spec, "Listed order"). */
  parent_order_id?: string | null | undefined;
}

export interface OrderStatusChange {
  /** The service's list status, as logged. */
  status: string;
  /**
   * The status as a trader reads it (orderStatusLabel.ts): a trigger's `open` is "armed" or, for a bracket
   * leg still waiting for its entry, "awaiting entry"; otherwise the status itself.
   */
  label: string;
  at: number;
  reason: string | null;
  filled_size: string;
  avg_fill_price: string | null;
}

export interface OrderHistoryEntry<T extends OrderHistoryRow> {
  order_id: string;
  /** The order's latest row: its status now, its latest fields. */
  latest: T;
  /** Every status change, oldest first. */
  changes: OrderStatusChange[];
  /** The latest status as a trader reads it: "armed", "awaiting entry", or the service's status. */
  status_label: string;
  /** The average fill price, from the latest change that carries one; null when nothing filled. */
  avg_fill_price: string | null;
  /**
   * The price to show for the order: a MARKET order's average fill price (null while nothing filled),
   * any other order's limit price.
   */
  price: string | null;
  submitted_at: number;
}

/** Changes logged at the same millisecond keep the lifecycle's order: open, then triggered, then the end. */
const STATUS_RANK: Record<string, number> = { open: 0, triggered: 1 };
const rank = (status: string): number => STATUS_RANK[status.toLowerCase()] ?? 2;
/**
 * Two `open` rows of one bracket leg logged at the same millisecond: waiting for the entry (parent_order_id
 * present) comes before armed (parent gone). A leg arms once and never waits again, so the armed row is
 * the latest whatever order the service lists ties in.
 */
const waiting = (row: OrderHistoryRow): number => (typeof row.parent_order_id === 'string' && row.parent_order_id.length > 0 ? 0 : 1);

/**
 * One entry per order id, newest placed first (ties: latest change first, then order id). `rows` may come
 * in any order; rows that tie on time and status keep the service's newest-first order.
 */
export function groupOrderHistory<T extends OrderHistoryRow>(rows: readonly T[]): OrderHistoryEntry<T>[] {
  const byId = new Map<string, { row: T; index: number }[]>();
  rows.forEach((row, index) => {
    const list = byId.get(row.order_id);
    if (list) list.push({ row, index });
    else byId.set(row.order_id, [{ row, index }]);
  });
  const entries: OrderHistoryEntry<T>[] = [];
  for (const [orderId, list] of byId) {
    // Oldest first: by time, then lifecycle rank, then the later position in a newest-first list.
    const ordered = [...list].sort((a, b) => a.row.status_at - b.row.status_at || rank(a.row.status) - rank(b.row.status) || waiting(a.row) - waiting(b.row) || b.index - a.index).map((x) => x.row);
    const latest = ordered[ordered.length - 1]!;
    const changes = ordered.map((r) => ({ status: r.status, label: orderStatusLabel(r.status, r), at: r.status_at, reason: r.reason ?? null, filled_size: r.filled_size, avg_fill_price: r.avg_fill_price ?? null }));
    const avg = [...changes].reverse().find((c) => c.avg_fill_price !== null)?.avg_fill_price ?? null;
    entries.push({
      order_id: orderId,
      latest,
      changes,
      status_label: changes[changes.length - 1]!.label,
      avg_fill_price: avg,
      price: latest.order_type === 'MARKET' ? avg : latest.limit_price,
      submitted_at: Math.min(...ordered.map((r) => r.submitted_at)),
    });
  }
  return entries.sort((a, b) => b.submitted_at - a.submitted_at || b.latest.status_at - a.latest.status_at || (a.order_id < b.order_id ? -1 : a.order_id > b.order_id ? 1 : 0));
}

/**
 * The exactly-once step every algorithm shares: what it is about to send is written to its record first
 * (with a client order id derived from the algorithm, and the time), then sent once. After a crash or a
 * lost answer, the order is looked up here in order-history before anything else is sent: by its client
 * order id, or, where the rows carry none (the spec does not list client_order_id among a history row's
 * fields), by what was sent, no earlier than it was sent and not an order the algorithm already owns. Two
 * look-alikes (an identical order placed by hand) are reported as ambiguous, never picked from: taking
 * the wrong one could count another order as this one, and calling it unsent could send it twice.
 */
import type { ListedOrder } from '../../../shared/protocol/index.js';
import type { TradingContext } from '../orders/orderContext.js';

/** Clock skew and persistence lag allowed between a send's recorded time and what the service stamps. */
export const SENT_SLACK_MS = 60_000;
const PAGE = 200;

export interface SentOrderQuery {
  wallet: string;
  market: string;
  clientOrderId: string;
  /** When the intent was written (ms): the order was submitted no earlier than this, less the slack. */
  sentAt: number;
  /** Order ids the algorithm already owns (a field match must not take one of them). */
  claimed: ReadonlySet<string>;
  /** A row without a client order id that carries what was sent. */
  matches(row: ListedOrder): boolean;
}

/** The order found (by client order id, or by its fields), several look-alikes (ambiguous), or nothing listed (yet). */
export type SentOrderFinding = { order_id: string; row: ListedOrder; by: 'client_order_id' | 'fields' } | { ambiguous: string[] } | null;

/**
 * The order-history rows of `market`, newest first, page by page, down to the page that reaches a row
 * older than `oldest` (ms, by status_at): what every look-up after a send reads. Stopping the loop early
 * reads no further page.
 */
export async function* historyRowsSince(ctx: Pick<TradingContext, 'api'>, wallet: string, market: string, oldest: number): AsyncGenerator<ListedOrder> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await ctx.api.orderHistory({ wallet, market, limit: PAGE, offset });
    yield* page.orders;
    const last = page.orders.at(-1);
    if (!last || last.status_at < oldest || offset + page.orders.length >= page.total) return;
  }
}

/** The order of an intent in the newest order-history rows of its market (see the module comment). */
export async function findSentOrder(ctx: Pick<TradingContext, 'api'>, q: SentOrderQuery): Promise<SentOrderFinding> {
  const since = q.sentAt - SENT_SLACK_MS;
  const lookAlikes = new Map<string, ListedOrder>();
  for await (const row of historyRowsSince(ctx, q.wallet, q.market, since)) {
    if (q.claimed.has(row.order_id)) continue;
    if (row.client_order_id !== undefined) {
      if (row.client_order_id === q.clientOrderId) return { order_id: row.order_id, row, by: 'client_order_id' };
      continue;
    }
    // Newest first: the first row seen of an order is its latest state.
    if (row.submitted_at >= since && q.matches(row) && !lookAlikes.has(row.order_id)) lookAlikes.set(row.order_id, row);
  }
  if (lookAlikes.size > 1) return { ambiguous: [...lookAlikes.keys()] };
  const [only] = [...lookAlikes.entries()];
  return only ? { order_id: only[0], row: only[1], by: 'fields' } : null;
}

/** The latest order-history row of `orderId` on `market` (newest pages back to `since`), or null. */
export async function latestHistoryRow(ctx: Pick<TradingContext, 'api'>, wallet: string, market: string, orderId: string, since: number): Promise<ListedOrder | null> {
  for await (const row of historyRowsSince(ctx, wallet, market, since - SENT_SLACK_MS)) if (row.order_id === orderId) return row;
  return null;
}

/** Every order-history row of `orderId` on `market` (newest first, back to `since`): one row per status change. */
export async function historyRowsOf(ctx: Pick<TradingContext, 'api'>, wallet: string, market: string, orderId: string, since: number): Promise<ListedOrder[]> {
  const rows: ListedOrder[] = [];
  for await (const row of historyRowsSince(ctx, wallet, market, since - SENT_SLACK_MS)) if (row.order_id === orderId) rows.push(row);
  return rows;
}

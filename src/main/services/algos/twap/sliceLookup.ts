/**
 * Finding a slice's order and fills after the fact, over the public API client: when a process died (or
 * an answer was lost) between writing a slice as `sending` and learning its order id, the slice is looked
 * up in order-history by its client order id, which is derived from the TWAP id and the slice index, so
 * it is the same in every process. The spec does not list client_order_id among the fields of a history
 * row; where the service leaves it out, the row is matched on what the slice sent instead (market, side,
 * MARKET, reduce-only, size and bound), no earlier than it was sent and not already claimed by another
 * slice of the TWAP. Two such look-alikes (an identical order placed by hand, or by another TWAP) are
 * reported as ambiguous, never picked from: taking the wrong one would count another order's fills as
 * this slice's, and calling the slice unsent could send its size twice.
 */
import { Decimal } from '../../../../shared/decimal/index.js';
import type { Fill, ListedOrder } from '../../../../shared/protocol/index.js';
import { listsSentFields } from '../../orders/listedOrderFields.js';
import type { TradingContext } from '../../orders/orderContext.js';
import { SENT_SLACK_MS, findSentOrder, type SentOrderFinding } from '../sentOrderLookup.js';
import { sliceIndexOfClientOrderId, type TwapRecord, type TwapSliceRecord } from './twapRecord.js';

/** Clock skew and persistence lag allowed between the slice's sent_at and what the service stamps. */
const SLACK_MS = SENT_SLACK_MS;
const PAGE = 200;

function sameFields(row: ListedOrder, slice: TwapSliceRecord, market: string, side: string, reduceOnly: boolean): boolean {
  // A slice written as sending always has its size and bound; without them there is nothing to match.
  if (slice.sent_size === null || slice.limit_price === null) return false;
  return (
    listsSentFields(row, { market, side, order_type: 'MARKET', reduce_only: reduceOnly, size: slice.sent_size, limit_price: slice.limit_price }) &&
    row.submitted_at >= (slice.sent_at ?? 0) - SLACK_MS
  );
}

export interface SliceLookup {
  wallet: string;
  market: string;
  side: string;
  reduceOnly: boolean;
  /** Order ids other slices of the TWAP already own (a field match must not take one of them). */
  claimed: ReadonlySet<string>;
}

/**
 * What order-history says of a slice: its order (found by client order id, or by its fields where rows
 * carry no id), several look-alikes it cannot be told from (ambiguous), or nothing listed (yet).
 */
export type SliceFinding = SentOrderFinding;

/** The order of `slice` in the newest order-history rows of its market (see the module comment). */
export async function findSliceOrder(ctx: Pick<TradingContext, 'api'>, slice: TwapSliceRecord, q: SliceLookup): Promise<SliceFinding> {
  return findSentOrder(ctx, {
    wallet: q.wallet,
    market: q.market,
    clientOrderId: slice.client_order_id,
    sentAt: slice.sent_at ?? 0,
    claimed: q.claimed,
    matches: (row) => sameFields(row, slice, q.market, q.side, q.reduceOnly),
  });
}

/** The fills of one order (newest trade-history rows of its market, back to when it was sent). */
export async function fillsOfOrder(ctx: Pick<TradingContext, 'api'>, wallet: string, market: string, orderId: string, sentAt: number): Promise<Fill[]> {
  const out: Fill[] = [];
  const seen = new Set<string>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await ctx.api.tradeHistory({ wallet, market, limit: PAGE, offset });
    for (const f of page.fills) if (f.order_id === orderId && !seen.has(f.tid) && seen.add(f.tid)) out.push(f);
    const oldest = page.fills.at(-1);
    if (!oldest || oldest.filled_at < sentAt - SLACK_MS || offset + page.fills.length >= page.total) return out.sort((a, b) => a.filled_at - b.filled_at);
  }
}

/** History statuses after which an order fills no more: what it filled is all it will ever take. */
const SETTLED = new Set<ListedOrder['status']>(['filled', 'partially_filled_cancelled', 'cancelled', 'rejected']);

/** What the service's own order history says a TWAP has sent (see twapSentAtService). */
export interface TwapSentAtService {
  /** What its orders filled, plus the whole size of those that may still fill. */
  committed: Decimal;
  /** Its orders found (latest row of each). */
  orders: ListedOrder[];
}

/**
 * What TWAP `r` has sent by the service's own order history, not by its record: the check before each
 * slice that a record which under-reports (damaged, edited) can never make it send past its target.
 * Its orders are the rows carrying one of its client order ids. A row without a client order id (the
 * spec lists none) is counted when the record names its order, or when it looks like a slice (same
 * market, side, MARKET, reduce-only) and was sent after the TWAP started: counting a look-alike placed by
 * hand can stop a TWAP early, never make it send too much.
 */
export async function twapSentAtService(ctx: Pick<TradingContext, 'api'>, r: TwapRecord): Promise<TwapSentAtService> {
  const since = r.created_at - SLACK_MS;
  const known = new Set(r.slices.map((s) => s.order_id).filter((id): id is string => id !== null));
  const latest = new Map<string, ListedOrder>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await ctx.api.orderHistory({ wallet: r.wallet, market: r.market, limit: PAGE, offset });
    for (const row of page.orders) {
      // Newest first: the first row seen of an order is its latest state.
      if (latest.has(row.order_id)) continue;
      const ours =
        row.client_order_id !== undefined
          ? sliceIndexOfClientOrderId(r.id, row.client_order_id) !== null
          : known.has(row.order_id) ||
            (row.market === r.market && row.side === r.side.toLowerCase() && row.order_type === 'MARKET' && row.reduce_only === r.reduce_only && row.submitted_at >= since);
      if (ours) latest.set(row.order_id, row);
    }
    const oldest = page.orders.at(-1);
    // Every order of the TWAP was sent after it was created: older rows are not its.
    if (!oldest || oldest.status_at < since || offset + page.orders.length >= page.total) break;
  }
  const orders = [...latest.values()];
  const committed = orders.reduce((a, o) => a.plus(SETTLED.has(o.status) ? o.filled_size : o.size), new Decimal(0));
  return { committed, orders };
}

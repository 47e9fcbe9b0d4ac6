/**
 * Asynchronous progression of a submitted order (jobs on the SimClock):
 *
 *   submit --order_accept_ms--> accept: FAILED (forced: not routable) | REJECTED (leverage above the
 *     market's max, reduce-only with nothing to reduce, post_only_would_take) | ACCEPTED
 *   ACCEPTED --order_execute_ms--> execute (MARKET, IOC, or a marketable GTC): fills against the book
 *     within the limit -> EXECUTING, or a GTC remainder rests; no liquidity -> CANCELLED
 *   EXECUTING --order_settle_ms--> FILLED, or PARTIALLY_FILLED_CANCELLED when an IOC/MARKET filled only
 *     part within its bound
 *   a fired trigger (ACCEPTED) --trigger_fire_ms--> execute as an IOC market order
 */
import { d, str } from '../core/numbers.js';
import type { SimContext } from '../context.js';
import type { SimOrder } from '../state/model.js';
import { takeFromBook, wouldCross } from '../matching/book.js';
import { capChunks, executeChunks, reducibleSize } from '../matching/execute.js';
import { remaining } from './model.js';
import { transition } from './stateMachine.js';
import { entryEnded } from './brackets.js';

function get(ctx: SimContext, id: string): SimOrder {
  const o = ctx.store.orders.get(id);
  if (!o) throw new Error(`order job for unknown order ${id}`);
  return o;
}

function end(ctx: SimContext, order: SimOrder, status: 'REJECTED' | 'CANCELLED' | 'PARTIALLY_FILLED_CANCELLED' | 'FAILED' | 'FILLED', reason: string | null): void {
  transition(ctx, order, status, reason);
  entryEnded(ctx, order);
}

export function acceptOrder(ctx: SimContext, order: SimOrder): void {
  if (order.status !== 'SUBMITTED' || order.order_type === 'TRIGGER') return;
  const market = ctx.markets.require(order.market);
  if (order.forced_failure) return end(ctx, order, 'FAILED', 'venue_unreachable');
  // A market following an upstream venue that is unreachable, or whose data is held or was rejected,
  // has no live book to route to.
  const paused = ctx.venue.pauseReason(market.venueSymbol);
  if (paused) return end(ctx, order, 'FAILED', paused);
  // Leverage is not range-checked at validation; the venue refuses it here.
  if (order.leverage > market.config.max_leverage) return end(ctx, order, 'REJECTED', 'leverage_exceeds_max');
  if (order.reduce_only && reducibleSize(ctx, order).isZero()) return end(ctx, order, 'REJECTED', 'reduce_only_no_position');
  const book = ctx.venue.getBook(market.venueSymbol);
  const crosses = wouldCross(book, order.side, d(order.limit_price));
  if (order.time_in_force === 'ALO' && crosses) return end(ctx, order, 'REJECTED', 'post_only_would_take');
  transition(ctx, order, 'ACCEPTED');
  if (order.order_type === 'MARKET' || order.time_in_force === 'IOC' || crosses) {
    ctx.jobs.add('order.execute', ctx.timings.order_execute_ms, { order_id: order.order_id });
  }
}

export function executeOrder(ctx: SimContext, order: SimOrder): void {
  if (order.status !== 'ACCEPTED') return;
  const market = ctx.markets.require(order.market);
  const resting = order.order_type === 'LIMIT' && order.time_in_force !== 'IOC';
  if (order.whole_position && order.filled_size === '0') {
    // A size-0 trigger closes the whole position as it stands when it fires.
    const size = reducibleSize(ctx, order);
    if (size.isZero()) return end(ctx, order, 'CANCELLED', 'reduce_only_no_position');
    order.size = str(size);
  }
  const paused = ctx.venue.pauseReason(market.venueSymbol);
  if (paused) {
    // The upstream went away (or its data was held or refused) between accept and execute: a resting
    // order waits, a taker one stops.
    if (resting) return;
    return end(ctx, order, order.filled_size === '0' ? 'CANCELLED' : 'PARTIALLY_FILLED_CANCELLED', paused);
  }
  const left = remaining(order);
  const chunks = takeFromBook(ctx.venue.getBook(market.venueSymbol), order.side, left, d(order.limit_price));
  if (chunks.length === 0) {
    if (resting) return; // nothing marketable any more: it simply rests
    return end(ctx, order, 'CANCELLED', 'no_liquidity_within_limit');
  }
  const outcome = executeChunks(ctx, order, chunks, 'taker');
  // The venue refuses an order it cannot margin (or that has nothing to reduce): REJECTED when nothing
  // filled yet, otherwise the filled part stands and the rest is cancelled.
  if (!outcome.ok) return end(ctx, order, order.filled_size === '0' ? 'REJECTED' : 'PARTIALLY_FILLED_CANCELLED', outcome.reason);
  // What we took is gone from this snapshot of a followed book, so the next fill cannot take it again.
  ctx.venue.consumeLiquidity(market.venueSymbol, order.side, capChunks(chunks, outcome.qty).map((c) => ({ px: str(c.px), sz: str(c.sz) })));
  if (resting && remaining(order).gt(0)) return; // partly filled; the remainder rests at its limit
  transition(ctx, order, 'EXECUTING');
  ctx.jobs.add('order.settle', ctx.timings.order_settle_ms, { order_id: order.order_id });
}

export function settleOrder(ctx: SimContext, order: SimOrder): void {
  if (order.status !== 'EXECUTING') return;
  if (remaining(order).lte(0)) end(ctx, order, 'FILLED', null);
  else end(ctx, order, 'PARTIALLY_FILLED_CANCELLED', 'unfilled_remainder_cancelled');
}

export function registerOrderJobs(ctx: SimContext): void {
  ctx.jobs.on('order.accept', ({ order_id }) => acceptOrder(ctx, get(ctx, order_id)));
  ctx.jobs.on('order.execute', ({ order_id }) => executeOrder(ctx, get(ctx, order_id)));
  ctx.jobs.on('order.settle', ({ order_id }) => settleOrder(ctx, get(ctx, order_id)));
}

/**
 * Applying an execution: book chunks become fills (with venue trade ids, fees, realized PnL and a
 * direction), the position and the free balance move, and the fills are published to the venue's trade
 * feed. An execution is all-or-nothing with respect to the balance: if the opening part cannot be
 * margined from the free balance, nothing is filled and the caller gets `insufficient_margin`.
 */
import { Decimal, ZERO, d, money, price8, str } from '../core/numbers.js';
import type { SimContext } from '../context.js';
import type { FillRow, SimOrder } from '../state/model.js';
import { marginRateFor, tradeEffect, type PositionState } from '../positions/ledger.js';
import { positionState, savePosition } from '../positions/positions.js';
import type { Chunk } from './book.js';

export type ExecOutcome = { ok: true; qty: Decimal } | { ok: false; reason: 'reduce_only_no_position' | 'insufficient_margin' | 'nothing_to_fill' };

/** Size a reduce-only order may still take: the opposite position's size, else 0. */
export function reducibleSize(ctx: SimContext, order: SimOrder): Decimal {
  const pos = positionState(ctx, order.wallet, order.market);
  if (!pos) return ZERO;
  const opposite = order.side === 'BUY' ? pos.size.isNegative() : pos.size.isPositive();
  return opposite ? pos.size.abs() : ZERO;
}

/** Trims chunks to at most `cap` in total size. */
export function capChunks(chunks: readonly Chunk[], cap: Decimal): Chunk[] {
  const out: Chunk[] = [];
  let left = cap;
  for (const c of chunks) {
    if (left.lte(0)) break;
    const sz = Decimal.min(c.sz, left);
    out.push({ px: c.px, sz });
    left = left.minus(sz);
  }
  return out;
}

export function executeChunks(ctx: SimContext, order: SimOrder, input: readonly Chunk[], liquidity: 'maker' | 'taker'): ExecOutcome {
  const market = ctx.markets.require(order.market);
  let chunks = [...input];
  if (order.reduce_only) {
    const reducible = reducibleSize(ctx, order);
    if (reducible.isZero()) return { ok: false, reason: 'reduce_only_no_position' };
    chunks = capChunks(chunks, reducible);
  }
  if (chunks.length === 0) return { ok: false, reason: 'nothing_to_fill' };
  const marginRate = marginRateFor(order.leverage, market.config.max_leverage, market.imr);
  const feeRate = liquidity === 'maker' ? market.makerFee : market.takerFee;

  // Dry run: the opening part must be covered by the free balance at the moment it happens.
  let free = ctx.store.free(order.wallet);
  let state: PositionState | null = positionState(ctx, order.wallet, order.market);
  for (const c of chunks) {
    const effect = tradeEffect(state, order.side, c.sz, c.px, marginRate, feeRate);
    for (const part of effect.parts) {
      if (part.kind === 'open' && effect.required.gt(free)) return { ok: false, reason: 'insufficient_margin' };
      free = free.plus(part.balanceDelta);
    }
    state = effect.next;
  }

  const now = ctx.clock.now();
  let filled = ZERO;
  let notional = d(order.filled_notional);
  let fees = d(order.fees);
  state = positionState(ctx, order.wallet, order.market);
  for (const c of chunks) {
    const effect = tradeEffect(state, order.side, c.sz, c.px, marginRate, feeRate);
    for (const part of effect.parts) {
      // The venue's trade side is the aggressor: our side when we take, the other side when we rest.
      const aggressorBuys = liquidity === 'taker' ? order.side === 'BUY' : order.side === 'SELL';
      const trade = ctx.venue.recordTrade(market.venueSymbol, str(c.px), str(part.qty), aggressorBuys ? 'B' : 'A', now);
      const fill: FillRow = {
        tid: trade.tid,
        order_id: order.order_id,
        market: order.market,
        side: order.side === 'BUY' ? 'buy' : 'sell',
        price: str(c.px),
        size: str(part.qty),
        fee: money(part.fee),
        closed_pnl: part.closedPnl ? money(part.closedPnl) : null,
        dir: part.dir,
        is_liquidation: false,
        filled_at: now,
        liquidity,
      };
      ctx.store.addFill(order.wallet, fill);
      ctx.store.addFree(order.wallet, part.balanceDelta);
      fees = fees.plus(part.fee);
    }
    state = effect.next;
    filled = filled.plus(c.sz);
    notional = notional.plus(c.px.mul(c.sz));
  }
  savePosition(ctx, order.wallet, order.market, state);
  const totalFilled = d(order.filled_size).plus(filled);
  order.filled_size = str(totalFilled);
  order.filled_notional = str(notional);
  order.avg_fill_price = price8(notional.div(totalFilled));
  order.fees = money(fees);
  if (!state) ctx.events.emit('position.closed', { wallet: order.wallet, market: order.market });
  return { ok: true, qty: filled };
}

/**
 * Liquidation of isolated positions. When margin + unrealized PnL at the mark falls below the
 * maintenance margin (|size| x mark x maintenance_margin_ratio), the venue closes the whole position
 * at the mark with a server-generated LIQUIDATION order (ORPHAN_LIQUIDATION when forced as such through
 * the control API). The position's remaining equity (below maintenance by definition) is forfeited as
 * the liquidation penalty, so nothing returns to the free balance; its fill carries is_liquidation true
 * and records that whole loss: closed_pnl - fee = -(posted margin), so the account's records add up to
 * its balance. The order reads FILLED and appears in order history
 * and trade history only: the type can never be submitted.
 */
import type { OrderType } from '../../shared/protocol/index.js';
import { Decimal, d, money, price8, str } from '../core/numbers.js';
import type { SimContext } from '../context.js';
import type { SimOrder } from '../state/model.js';
import { isLiquidatable } from '../positions/ledger.js';
import { positionState, savePosition } from '../positions/positions.js';
import { recordHistory } from '../orders/stateMachine.js';

export function checkLiquidations(ctx: SimContext, market: string, mark: Decimal): void {
  const info = ctx.markets.require(market);
  // Never liquidate on a frozen mark: a followed market waits until its upstream answers again.
  if (ctx.venue.isPaused(info.venueSymbol)) return;
  for (const wallet of ctx.store.holders(market)) {
    const pos = positionState(ctx, wallet, market);
    if (pos && isLiquidatable(pos, mark, info.mmr)) liquidate(ctx, wallet, market, 'LIQUIDATION');
  }
}

/** Closes the wallet's position on the market at the current mark. Returns the liquidation order, or null without a position. */
export function liquidate(ctx: SimContext, wallet: string, market: string, type: Extract<OrderType, 'LIQUIDATION' | 'ORPHAN_LIQUIDATION'>): SimOrder | null {
  const info = ctx.markets.require(market);
  const pos = positionState(ctx, wallet, market);
  if (!pos) return null;
  const now = ctx.clock.now();
  const mark = d(ctx.venue.getMark(info.venueSymbol));
  const qty = pos.size.abs();
  const long = pos.size.isPositive();
  const side = long ? 'SELL' : 'BUY';
  const fee = d(money(qty.mul(mark).mul(info.takerFee)));
  // Nothing returns to the account: the posted margin is lost whole. The fill records that loss, so its
  // closed_pnl - fee is exactly the margin the account lost (the remaining equity, forfeited as the
  // penalty, is part of the realized loss rather than vanishing from the records).
  const pnl = fee.minus(pos.margin);
  const trade = ctx.venue.recordTrade(info.venueSymbol, str(mark), str(qty), long ? 'A' : 'B', now);
  const order: SimOrder = {
    order_id: ctx.store.nextOrderId(),
    wallet,
    account_id: wallet + '0'.repeat(24),
    client_order_id: `liq-${trade.tid}`,
    market,
    side,
    order_type: type,
    size: str(qty),
    whole_position: false,
    filled_size: str(qty),
    filled_notional: str(qty.mul(mark)),
    fees: money(fee),
    limit_price: str(mark),
    time_in_force: 'IOC',
    reduce_only: true,
    leverage: 0,
    trigger: null,
    status: 'FILLED',
    reason: type === 'LIQUIDATION' ? 'maintenance_margin_breached' : 'orphan_position',
    submitted_at: now,
    status_at: now,
    visible_at: now,
    avg_fill_price: price8(mark),
    parent_order_id: null,
    bracket_entry_id: null,
    bracket_legs: [],
    is_modifying: false,
    replaced_by: null,
    replaces: null,
    fired_at: null,
    mark_at_submit: str(mark),
    forced_failure: false,
  };
  ctx.store.addOrder(order);
  recordHistory(ctx, order);
  ctx.store.addFill(wallet, {
    tid: trade.tid,
    order_id: order.order_id,
    market,
    side: side === 'BUY' ? 'buy' : 'sell',
    price: str(mark),
    size: str(qty),
    fee: money(fee),
    closed_pnl: money(pnl),
    dir: long ? 'Close Long' : 'Close Short',
    is_liquidation: true,
    filled_at: now,
    liquidity: 'taker',
  });
  // The remaining equity is below maintenance margin: it is the penalty; nothing is credited.
  savePosition(ctx, wallet, market, null);
  ctx.events.emit('position.closed', { wallet, market });
  return order;
}

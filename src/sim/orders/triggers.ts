/**
 * What a new venue mark does to orders: armed triggers whose threshold it reaches fire (SUBMITTED ->
 * ACCEPTED, listed as `triggered`, then executed as an IOC market order bounded by limit_price), and
 * resting limit orders it crosses fill at their limit price as maker. Liquidations are checked after.
 * A closed position (the engine's position.closed event) cancels its whole-position triggers.
 */
import { d, type Decimal } from '../core/numbers.js';
import type { SimContext } from '../context.js';
import type { SimOrder } from '../state/model.js';
import { executeChunks } from '../matching/execute.js';
import { checkLiquidations } from '../liquidation/liquidation.js';
import { isArmedTrigger, remaining, triggerCrossed } from './model.js';
import { stopStatus, transition } from './stateMachine.js';
import { entryEnded } from './brackets.js';
import { fireTrigger } from './fireTrigger.js';

/** A resting limit the mark has reached: BUY rests below the market and fills when the mark falls to it, SELL the reverse. */
function restingCrossed(order: SimOrder, mark: Decimal): boolean {
  const limit = d(order.limit_price);
  return order.side === 'BUY' ? mark.lte(limit) : mark.gte(limit);
}

/**
 * A maker fill of a resting limit at its limit price: all that is left, or `part` of it (a print at the
 * level for that much: POST /sim/fill-resting). A part fill leaves the rest resting, as on the venue.
 */
export function fillResting(ctx: SimContext, order: SimOrder, part?: Decimal): void {
  const left = remaining(order);
  if (left.lte(0)) return;
  const outcome = executeChunks(ctx, order, [{ px: d(order.limit_price), sz: part && part.lt(left) ? part : left }], 'maker');
  if (!outcome.ok) {
    transition(ctx, order, stopStatus(order), outcome.reason);
    entryEnded(ctx, order);
    return;
  }
  if (remaining(order).gt(0)) return;
  transition(ctx, order, 'EXECUTING');
  ctx.jobs.add('order.settle', ctx.timings.order_settle_ms, { order_id: order.order_id });
}

export function onMarkUpdate(ctx: SimContext, marketSymbol: string, markText: string): void {
  // A followed market whose upstream is away has no live mark: triggers and liquidations wait for it.
  if (ctx.venue.isPaused(ctx.markets.require(marketSymbol).venueSymbol)) return;
  const mark = d(markText);
  for (const order of ctx.store.liveInMarket(marketSymbol)) {
    // Earlier orders in this pass may have changed this one (a close cancels whole-position triggers).
    if (isArmedTrigger(order)) {
      if (triggerCrossed(order.side, order.trigger!, mark)) fireTrigger(ctx, order);
    } else if (order.order_type === 'LIMIT' && order.status === 'ACCEPTED' && order.time_in_force !== 'IOC' && restingCrossed(order, mark)) {
      fillResting(ctx, order);
    }
  }
  checkLiquidations(ctx, marketSymbol, mark);
}

/**
 * A trade printed upstream on a followed market: resting limits at or through its price fill at their
 * limit as maker (the simulator keeps no queue position: a print at the level is taken to reach us).
 */
export function onUpstreamPrint(ctx: SimContext, marketSymbol: string, pxText: string): void {
  // A market whose upstream data is held or refused does not trade, not even resting limits (issue 26).
  if (ctx.venue.isPaused(ctx.markets.require(marketSymbol).venueSymbol)) return;
  const px = d(pxText);
  for (const order of ctx.store.liveInMarket(marketSymbol)) {
    if (order.order_type === 'LIMIT' && order.status === 'ACCEPTED' && order.time_in_force !== 'IOC' && restingCrossed(order, px)) {
      fillResting(ctx, order);
    }
  }
}

/** Registers what triggers do on the engine's events: a closed position cancels its whole-position triggers. */
export function registerTriggerListeners(ctx: SimContext): void {
  ctx.events.on('position.closed', ({ wallet, market }) => onPositionClosed(ctx, wallet, market));
}

/** A closed position takes its whole-position triggers with it (they have nothing left to close). */
function onPositionClosed(ctx: SimContext, wallet: string, market: string): void {
  for (const o of [...ctx.store.liveOf(wallet)]) {
    if (o.market === market && o.whole_position && isArmedTrigger(o)) transition(ctx, o, 'CANCELLED', 'position_closed');
  }
}

/**
 * Bracket orders: an opening MARKET or LIMIT entry with whole-position TP and/or SL legs.
 *
 * - At submit the group is decided together (groupReason): any failure rejects every member with the
 *   same reason.
 * - Legs wait in PENDING_PARENT. When the entry ends, entryEnded() decides: FAILED (never persisted at
 *   the venue) -> bracket_parent_missing; no fill -> bracket_parent_not_filled; any fill -> the legs arm
 *   once the fill has settled into the position (position_lag_ms later), or bracket_no_position if there
 *   is then no position on the entry's side.
 * - Arming replaces any armed whole-position trigger of the same tpsl on the market (bracket_replaced).
 */
import type { OrderLeg } from '../../shared/protocol/index.js';
import { d, type Decimal } from '../core/numbers.js';
import type { SimContext } from '../context.js';
import type { SimOrder } from '../state/model.js';
import { positionState } from '../positions/positions.js';
import { isArmedTrigger, triggerCrossed } from './model.js';
import { transition } from './stateMachine.js';
import { fireTrigger } from './fireTrigger.js';

export type BracketReason = 'bracket_parent_invalid' | 'bracket_child_invalid' | 'bracket_tp_wrong_side' | 'bracket_sl_wrong_side';

/** Sides of TP/SL levels against the reference: long TP above / SL below; short the other way. */
export function wrongSideReason(entrySide: 'BUY' | 'SELL', reference: Decimal, legs: readonly { tpsl: 'TP' | 'SL'; trigger_price: string }[]): BracketReason | null {
  const long = entrySide === 'BUY';
  for (const leg of legs) {
    const level = d(leg.trigger_price);
    if (leg.tpsl === 'TP' && !(long ? level.gt(reference) : level.lt(reference))) return 'bracket_tp_wrong_side';
    if (leg.tpsl === 'SL' && !(long ? level.lt(reference) : level.gt(reference))) return 'bracket_sl_wrong_side';
  }
  return null;
}

/**
 * Structural rules of one group. `reference` is the entry's limit_price for a LIMIT entry and the mark
 * at submit for a MARKET entry.
 */
export function groupReason(entry: OrderLeg, children: readonly OrderLeg[], reference: Decimal | null): BracketReason | null {
  const type = entry.order_type ?? 'MARKET';
  if ((entry.reduce_only ?? false) || (type !== 'MARKET' && type !== 'LIMIT') || entry.parent_client_order_id !== undefined) return 'bracket_parent_invalid';
  let tp = 0;
  let sl = 0;
  for (const c of children) {
    if (c.trigger!.tpsl === 'TP') tp++;
    else sl++;
    if (c.market !== entry.market || c.side === entry.side) return 'bracket_child_invalid';
  }
  if (tp > 1 || sl > 1) return 'bracket_child_invalid';
  if (reference === null) return null;
  return wrongSideReason(
    entry.side,
    reference,
    children.map((c) => ({ tpsl: c.trigger!.tpsl, trigger_price: c.trigger!.trigger_price })),
  );
}

export function pendingLegs(ctx: SimContext, entry: SimOrder): SimOrder[] {
  return entry.bracket_legs.map((id) => ctx.store.orders.get(id)).filter((o): o is SimOrder => o !== undefined && o.status === 'PENDING_PARENT');
}

function cancelLegs(ctx: SimContext, entry: SimOrder, reason: string): void {
  for (const leg of pendingLegs(ctx, entry)) transition(ctx, leg, 'CANCELLED', reason);
}

/** Called whenever an entry reaches a terminal status. */
export function entryEnded(ctx: SimContext, entry: SimOrder): void {
  if (pendingLegs(ctx, entry).length === 0) return;
  if (entry.status === 'FAILED') cancelLegs(ctx, entry, 'bracket_parent_missing');
  else if (entry.filled_size !== '0') ctx.jobs.add('bracket.arm', ctx.timings.position_lag_ms, { entry_id: entry.order_id });
  else cancelLegs(ctx, entry, 'bracket_parent_not_filled');
}

export function armLegs(ctx: SimContext, entry: SimOrder): void {
  const legs = pendingLegs(ctx, entry);
  if (legs.length === 0) return;
  const pos = positionState(ctx, entry.wallet, entry.market);
  const onEntrySide = pos !== null && (entry.side === 'BUY' ? pos.size.isPositive() : pos.size.isNegative());
  if (!onEntrySide) {
    cancelLegs(ctx, entry, 'bracket_no_position');
    return;
  }
  const legIds = new Set(legs.map((l) => l.order_id));
  for (const leg of legs) {
    for (const other of [...ctx.store.liveOf(entry.wallet)]) {
      if (other.market === entry.market && isArmedTrigger(other) && other.whole_position && other.trigger?.tpsl === leg.trigger?.tpsl && !legIds.has(other.order_id)) {
        transition(ctx, other, 'CANCELLED', 'bracket_replaced');
      }
    }
    leg.parent_order_id = null;
    transition(ctx, leg, 'SUBMITTED');
  }
  const market = ctx.markets.require(entry.market);
  const mark = d(ctx.venue.getMark(market.venueSymbol));
  for (const leg of legs) if (leg.status === 'SUBMITTED' && triggerCrossed(leg.side, leg.trigger!, mark)) fireTrigger(ctx, leg);
}

export function registerBracketJobs(ctx: SimContext): void {
  ctx.jobs.on('bracket.arm', ({ entry_id }) => {
    const entry = ctx.store.orders.get(entry_id);
    if (!entry) throw new Error(`bracket.arm: unknown entry ${entry_id}`);
    armLegs(ctx, entry);
  });
}

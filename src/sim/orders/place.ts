/**
 * POST /orders: validation (400) -> every leg's signature (403 for the whole request) -> nonces (409)
 * -> business rules per leg (200 with per-leg SUBMITTED / REJECTED + reason). Top-level success is true
 * only when every leg is SUBMITTED. Every leg gets an order_id, rejected ones included (their record
 * reads REJECTED with the reason).
 */
import { walletFromAccountId } from '../../shared/identity/index.js';
import type { OrderLeg } from '../../shared/protocol/index.js';
import { d, type Decimal } from '../core/numbers.js';
import type { SimContext } from '../context.js';
import type { SimOrder } from '../state/model.js';
import { consumeNonces } from '../auth/nonces.js';
import { requireAgent } from '../auth/trading.js';
import { recoverOrderSigner } from '../auth/verify.js';
import { countsTowardCap } from './model.js';
import { groupReason } from './brackets.js';
import { recordHistory } from './stateMachine.js';
import { currentMark, legReason, validatePlaceOrders } from './validation.js';

export interface LegResult {
  order_id: string;
  client_order_id: string;
  status: 'SUBMITTED' | 'REJECTED';
  reason?: string;
}

/** Open orders (per max_open_orders) of a wallet on a market right now. */
export function openOrderCount(ctx: SimContext, wallet: string, market: string, exclude?: ReadonlySet<string>): number {
  let n = 0;
  for (const o of ctx.store.liveOf(wallet)) if (o.market === market && countsTowardCap(o) && !exclude?.has(o.order_id)) n++;
  return n;
}

function legCountsTowardCap(leg: OrderLeg): boolean {
  const type = leg.order_type ?? 'MARKET';
  return type === 'TRIGGER' || (type === 'LIMIT' && leg.time_in_force !== 'IOC');
}

export function placeOrders(ctx: SimContext, raw: unknown): { results: LegResult[]; success: boolean } {
  const body = validatePlaceOrders(raw);
  const accountId = body.account_id.toLowerCase();
  const walletChecksum = walletFromAccountId(accountId);
  const wallet = walletChecksum.toLowerCase();
  const chainId = ctx.env.tradingChainId;

  // Every leg is signed independently and must recover an active agent of this account.
  for (const leg of body.orders) requireAgent(ctx, wallet, recoverOrderSigner(chainId, body.account_id, leg, leg.signature));
  consumeNonces(ctx, 'trading', wallet, body.orders.map((l) => l.nonce));

  const legs = body.orders;
  const indexOfCloid = new Map(legs.map((l, i) => [l.client_order_id, i]));
  // Bracket groups: entry index -> attached leg indexes.
  const children = new Map<number, number[]>();
  legs.forEach((l, i) => {
    if (l.parent_client_order_id === undefined) return;
    const p = indexOfCloid.get(l.parent_client_order_id)!;
    const list = children.get(p);
    if (list) list.push(i);
    else children.set(p, [i]);
  });
  const groupOf = new Map<number, number>();
  for (const [entry, kids] of children) {
    groupOf.set(entry, entry);
    for (const k of kids) groupOf.set(k, entry);
  }

  const reasons: (string | null)[] = legs.map(() => null);
  const decided = new Set<number>();
  const added = new Map<string, number>();
  const capReached = (market: string, more: number): boolean => {
    const info = ctx.markets.get(market);
    if (!info) return false;
    return openOrderCount(ctx, wallet, market) + (added.get(market) ?? 0) + more > info.config.max_open_orders;
  };
  const count = (market: string, n: number): void => {
    added.set(market, (added.get(market) ?? 0) + n);
  };

  for (let i = 0; i < legs.length; i++) {
    if (decided.has(i)) continue;
    const entryIndex = groupOf.get(i);
    if (entryIndex === undefined) {
      const leg = legs[i]!;
      let r: string | null = legReason(ctx, wallet, leg, false);
      if (!r && legCountsTowardCap(leg) && capReached(leg.market, 1)) r = 'max_open_orders';
      if (!r && legCountsTowardCap(leg)) count(leg.market, 1);
      reasons[i] = r;
      decided.add(i);
      continue;
    }
    // The whole group is decided at its first member: one reason for every member.
    const entry = legs[entryIndex]!;
    const kidIdx = children.get(entryIndex)!;
    const members = [entryIndex, ...kidIdx];
    const info = ctx.markets.get(entry.market);
    let reference: Decimal | null = null;
    if (info) reference = (entry.order_type ?? 'MARKET') === 'LIMIT' ? d(entry.limit_price) : currentMark(ctx, info);
    let r: string | null = groupReason(entry, kidIdx.map((k) => legs[k]!), reference);
    if (!r) r = legReason(ctx, wallet, entry, false);
    for (const k of kidIdx) if (!r) r = legReason(ctx, wallet, legs[k]!, true);
    const capAdds = members.filter((m) => legCountsTowardCap(legs[m]!)).length;
    if (!r && capReached(entry.market, capAdds)) r = 'max_open_orders';
    if (!r) count(entry.market, capAdds);
    for (const m of members) {
      reasons[m] = r;
      decided.add(m);
    }
  }

  const now = ctx.clock.now();
  const visibleAt = now + ctx.chaos.persist_lag_ms;
  const orders: SimOrder[] = legs.map((leg, i) => {
    const type = leg.order_type ?? 'MARKET';
    const reduceOnly = leg.reduce_only ?? false;
    const order: SimOrder = {
      order_id: ctx.store.nextOrderId(),
      wallet,
      account_id: accountId,
      client_order_id: leg.client_order_id,
      market: leg.market,
      side: leg.side,
      order_type: type,
      size: leg.size,
      whole_position: type === 'TRIGGER' && reduceOnly && leg.size === '0',
      filled_size: '0',
      filled_notional: '0',
      fees: '0',
      limit_price: leg.limit_price,
      time_in_force: type === 'TRIGGER' ? 'IOC' : leg.time_in_force!,
      reduce_only: reduceOnly,
      leverage: leg.leverage ?? 0,
      trigger: leg.trigger ? { ...leg.trigger } : null,
      status: reasons[i] ? 'REJECTED' : groupOf.has(i) && groupOf.get(i) !== i ? 'PENDING_PARENT' : 'SUBMITTED',
      reason: reasons[i] ?? null,
      submitted_at: now,
      status_at: now,
      visible_at: visibleAt,
      avg_fill_price: null,
      parent_order_id: null,
      bracket_entry_id: null,
      bracket_legs: [],
      is_modifying: false,
      replaced_by: null,
      replaces: null,
      fired_at: null,
      mark_at_submit: null,
      forced_failure: false,
    };
    return order;
  });
  // Link bracket legs to their entry's order id.
  for (const [entry, kids] of children) {
    const e = orders[entry]!;
    for (const k of kids) {
      const leg = orders[k]!;
      leg.bracket_entry_id = e.order_id;
      if (leg.status === 'PENDING_PARENT') leg.parent_order_id = e.order_id;
      e.bracket_legs = [...e.bracket_legs, leg.order_id];
    }
  }
  for (const order of orders) {
    const info = ctx.markets.get(order.market);
    if (info && order.order_type === 'MARKET') order.mark_at_submit = ctx.venue.getMark(info.venueSymbol);
    if (order.status === 'SUBMITTED' && order.order_type !== 'TRIGGER' && ctx.store.forcedNext.orderFailed) {
      order.forced_failure = true;
      ctx.store.forcedNext.orderFailed = false;
    }
    ctx.store.addOrder(order);
    recordHistory(ctx, order);
    if (order.status === 'SUBMITTED' && order.order_type !== 'TRIGGER') {
      ctx.jobs.add('order.accept', ctx.timings.order_accept_ms, { order_id: order.order_id });
    }
  }
  const results: LegResult[] = orders.map((o) => ({
    order_id: o.order_id,
    client_order_id: o.client_order_id,
    status: o.status === 'REJECTED' ? 'REJECTED' : 'SUBMITTED',
    ...(o.reason ? { reason: o.reason } : {}),
  }));
  return { results, success: results.every((r) => r.status === 'SUBMITTED') };
}

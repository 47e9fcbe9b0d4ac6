/**
 * Each open position's protection as the service says it (src/shared/orders/stopProtection.ts): its
 * take-profit and stop-loss armed, absent, or failed (fired and cancelled unfilled: the mark gapped past
 * the fire price). Read by `perps positions`, the app's positions rows and every stop-failure watcher.
 *
 * Only the service's reads count: position-triggers for what is armed, order-history for what fired and
 * how it ended, trade-history to tell a failure of this position from one of a position closed since.
 */
import type { ListedOrder, Position } from '../../../shared/protocol/index.js';
import { protectionOf, type KindProtection, type ProtectionKind } from '../../../shared/orders/stopProtection.js';
import { walletIds, type TradingContext } from '../orders/orderContext.js';
import type { PositionView } from '../../../shared/ipc.js';

/** How many of the newest history rows are read: a failure older than that is no longer news. */
const HISTORY_ROWS = 200;

export type PositionProtection = Record<ProtectionKind, KindProtection>;

export interface ProtectionReads {
  positions: Position[];
  triggers: ListedOrder[];
  byMarket: Map<string, PositionProtection>;
}

/**
 * Reads positions (unless given), the armed triggers and, only when some position lacks a TP or SL, the
 * newest history rows and fills, and judges every position.
 */
export async function readProtection(ctx: Pick<TradingContext, 'api'>, wallet: string, given?: { positions?: Position[]; triggers?: ListedOrder[] }): Promise<ProtectionReads> {
  const { wallet: w, accountId } = walletIds(wallet);
  const [positions, triggers] = await Promise.all([
    given?.positions ? Promise.resolve(given.positions) : ctx.api.positions(accountId).then((r) => r.positions),
    given?.triggers ? Promise.resolve(given.triggers) : ctx.api.positionTriggers(w).then((r) => r.orders),
  ]);
  const open = positions.filter((p) => !/^0(\.0*)?$/.test(p.size.replace('-', '')));
  const armedKinds = (p: Position) => new Set(triggers.filter((t) => t.market === p.market && t.order_type === 'TRIGGER' && t.status === 'open').map((t) => t.tpsl));
  const needsHistory = open.some((p) => {
    const kinds = armedKinds(p);
    return !kinds.has('tp') || !kinds.has('sl');
  });
  const history = needsHistory ? (await ctx.api.orderHistory({ wallet: w, limit: HISTORY_ROWS })).orders : [];
  const byMarket = new Map<string, PositionProtection>();
  for (const p of open) {
    let judged = protectionOf(p, triggers, history, []);
    // A failure stands only if the position has not been flat since: the market's fills say (a fill's
    // market is not a listed field, so they are read per market).
    if (judged.tp.state === 'failed' || judged.sl.state === 'failed') {
      const fills = (await ctx.api.tradeHistory({ wallet: w, market: p.market, limit: HISTORY_ROWS })).fills;
      judged = protectionOf(p, triggers, history, fills);
    }
    byMarket.set(p.market, judged);
  }
  return { positions: open, triggers, byMarket };
}

/** The view fields of a position's protection (PositionView's sl_state, tp_state, ...). */
export function protectionFields(p: PositionProtection | undefined): Pick<PositionView, 'sl_state' | 'tp_state' | 'sl_reason' | 'tp_reason' | 'sl_failure' | 'tp_failure'> {
  const failure = (k: KindProtection) =>
    k.failure ? { order_id: k.failure.order_id, trigger_price: k.failure.trigger_price, limit_price: k.failure.limit_price, reason_code: k.failure.reason_code, at: k.failure.at } : null;
  if (!p) return {};
  return {
    sl_state: p.sl.state,
    tp_state: p.tp.state,
    sl_reason: p.sl.failure?.reason ?? null,
    tp_reason: p.tp.failure?.reason ?? null,
    sl_failure: failure(p.sl),
    tp_failure: failure(p.tp),
  };
}

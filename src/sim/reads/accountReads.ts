/**
 * The open reads of 'Account reads'. Newest first everywhere. Orders still inside their persist lag
 * are invisible to every read (GET /orders/{id} answers 404 for them).
 *
 * Sim choices where the spec is silent: order-, trade- and funding-history default to limit 50;
 * from/to filter on submitted_at (open-orders), status_at (order-history), filled_at (trade-history),
 * epoch_time (funding-history), detected_at (deposits) and created_at (withdrawals), inclusive.
 */
import { d, money, str, ZERO } from '../core/numbers.js';
import { notFound } from '../core/response.js';
import type { SimContext } from '../context.js';
import type { ListedOrderRow, SimOrder, SimPosition } from '../state/model.js';
import { listStatusOfOrder } from '../../shared/protocol/index.js';
import { isArmedTrigger, remaining } from '../orders/model.js';
import { entryOf, historyRow, listedRow, orderRecord } from '../orders/views.js';
import type { LogQuery } from '../state/accountLog.js';
import { liquidationPrice } from '../positions/ledger.js';
import { stateOf } from '../positions/positions.js';
import { depositView } from '../money/deposits.js';
import { withdrawalView } from '../money/withdrawals.js';
import { accountIdParam, inRange, loosePage, strictPage, timeRange, walletParam } from './params.js';

export const HISTORY_DEFAULT_LIMIT = 50;
export const OPEN_ORDERS_DEFAULT_LIMIT = 10;

function visible(ctx: SimContext, order: SimOrder | undefined): boolean {
  return order !== undefined && order.visible_at <= ctx.clock.now();
}

function newestFirst<T>(rows: readonly T[]): T[] {
  return [...rows].reverse();
}

/** The page and filters of a wallet-keyed history read, as the account logs take them. */
function logQuery(query: URLSearchParams, page: { limit: number; offset: number }): LogQuery {
  const range = timeRange(query);
  return { market: query.get('market') || null, from: range.from, to: range.to, offset: page.offset, limit: page.limit };
}

export function getOrder(ctx: SimContext, id: string): Record<string, unknown> {
  const order = ctx.store.orders.get(id);
  if (!order || !visible(ctx, order)) throw notFound(`no order ${id} (orders persist asynchronously: retry shortly after a submit)`);
  return orderRecord(order);
}

export function balance(ctx: SimContext, accountIdText: string): { account: string; free_balance: string } {
  const { accountId, wallet } = accountIdParam(accountIdText);
  return { account: accountId, free_balance: money(ctx.store.free(wallet)) };
}

/** Amount reducible now: zero while an armed reduce-only trigger guards the position, else size minus resting reduce-only orders. */
function closeable(ctx: SimContext, wallet: string, p: SimPosition): string {
  let reserved = ZERO;
  for (const o of ctx.store.liveOf(wallet)) {
    if (o.market !== p.market || !o.reduce_only) continue;
    if (isArmedTrigger(o)) return '0';
    if (o.order_type === 'LIMIT' && o.status === 'ACCEPTED') reserved = reserved.plus(remaining(o));
  }
  const left = d(p.size).abs().minus(reserved);
  return left.gt(0) ? str(left) : '0';
}

export function positions(ctx: SimContext, accountIdText: string): { positions: Record<string, unknown>[] } {
  const { wallet } = accountIdParam(accountIdText);
  const published = [...(ctx.store.published.get(wallet)?.values() ?? [])].sort((a, b) => b.opened_at - a.opened_at);
  return {
    positions: published.map((p) => {
      const info = ctx.markets.require(p.market);
      const liq = liquidationPrice(stateOf(p), info.mmr);
      return {
        id: p.id,
        market: p.market,
        size: p.size,
        entry_price: p.entry_price,
        isolated_margin: p.isolated_margin,
        closeable: closeable(ctx, wallet, p),
        status: 'OPEN',
        version: p.version,
        liquidation_price: liq ? str(liq) : null,
        opened_at: p.opened_at,
        updated_at: p.updated_at,
      };
    }),
  };
}

/**
 * open-orders lists live resting orders and every trigger (armed or awaiting its entry). A MARKET or
 * IOC order is `open` in history for the instant between ACCEPTED and its execution, but it never
 * rests, so it is not listed here.
 */
function isListedOpen(o: SimOrder): boolean {
  if (listStatusOfOrder(o.status, o.order_type) !== 'open') return false;
  return o.order_type === 'TRIGGER' || (o.order_type === 'LIMIT' && o.time_in_force !== 'IOC');
}

function sortOrders(rows: SimOrder[]): SimOrder[] {
  return rows.sort((a, b) => b.submitted_at - a.submitted_at || Number(b.order_id) - Number(a.order_id));
}

export function openOrders(ctx: SimContext, query: URLSearchParams): { orders: ListedOrderRow[]; total: number } {
  const wallet = walletParam(query);
  const page = strictPage(query, OPEN_ORDERS_DEFAULT_LIMIT);
  const range = timeRange(query);
  const market = query.get('market');
  const matching = sortOrders(
    [...ctx.store.liveOf(wallet)].filter(
      (o) => visible(ctx, o) && isListedOpen(o) && (!market || o.market === market) && inRange(o.submitted_at, range),
    ),
  );
  return { orders: matching.slice(page.offset, page.offset + page.limit).map((o) => listedRow(o, 'open')), total: matching.length };
}

/** Unpaginated: limit/offset are accepted and ignored. */
export function positionTriggers(ctx: SimContext, query: URLSearchParams): { orders: ListedOrderRow[]; total: number } {
  const wallet = walletParam(query);
  const market = query.get('market');
  const rows = sortOrders([...ctx.store.liveOf(wallet)].filter((o) => visible(ctx, o) && o.reduce_only && isArmedTrigger(o) && (!market || o.market === market))).map(
    (o) => listedRow(o, 'open'),
  );
  return { orders: rows, total: rows.length };
}

/** Newest first by status change; the store's per-account log makes a page cost what it returns. */
export function orderHistory(ctx: SimContext, query: URLSearchParams): { orders: ListedOrderRow[]; limit: number; offset: number; total: number } {
  const wallet = walletParam(query);
  const page = strictPage(query, HISTORY_DEFAULT_LIMIT);
  const found = ctx.store.historyPage(wallet, logQuery(query, page), ctx.clock.now());
  return { orders: found.rows.map((row) => historyRow(entryOf(row))), limit: page.limit, offset: page.offset, total: found.total };
}

export function tradeHistory(ctx: SimContext, query: URLSearchParams): { fills: unknown[]; limit: number; offset: number; total: number } {
  const wallet = walletParam(query);
  const page = strictPage(query, HISTORY_DEFAULT_LIMIT);
  const found = ctx.store.fillsPage(wallet, logQuery(query, page));
  return { fills: found.rows, limit: page.limit, offset: page.offset, total: found.total };
}

export function fundingHistory(ctx: SimContext, query: URLSearchParams): { payments: unknown[]; limit: number; offset: number; total: number } {
  const wallet = walletParam(query);
  const page = strictPage(query, HISTORY_DEFAULT_LIMIT);
  const found = ctx.store.fundingPage(wallet, logQuery(query, page));
  return { payments: found.rows, limit: page.limit, offset: page.offset, total: found.total };
}

function loose<T>(rows: T[], query: URLSearchParams): T[] {
  const page = loosePage(query);
  return page.limit === null ? rows.slice(page.offset) : rows.slice(page.offset, page.offset + page.limit);
}

export function depositHistory(ctx: SimContext, accountIdText: string, query: URLSearchParams): { account: string; deposits: unknown[] } {
  const { accountId, wallet } = accountIdParam(accountIdText);
  const range = timeRange(query);
  const rows = newestFirst(ctx.store.depositsByWallet.get(wallet) ?? []).filter((dep) => inRange(dep.detected_at, range));
  return { account: accountId, deposits: loose(rows, query).map(depositView) };
}

export function withdrawalHistory(ctx: SimContext, accountIdText: string, query: URLSearchParams): { account: string; withdrawals: unknown[] } {
  const { accountId, wallet } = accountIdParam(accountIdText);
  const range = timeRange(query);
  const rows = newestFirst(ctx.store.withdrawalsByWallet.get(wallet) ?? []).filter((w) => inRange(w.created_at, range));
  return { account: accountId, withdrawals: loose(rows, query).map(withdrawalView) };
}

export function withdrawalById(ctx: SimContext, id: string): Record<string, unknown> {
  const w = ctx.store.withdrawals.get(id);
  if (!w) throw notFound(`no withdrawal ${id}`);
  return withdrawalView(w);
}

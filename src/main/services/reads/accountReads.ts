/**
 * The account's open reads (spec, "Account reads"): balance, positions, open orders, armed triggers and
 * the order, trade and funding histories. Paginated reads are walked to the end (200 rows a page, the
 * spec's maximum) so callers and exports always see every row. Reads need no key and no signature.
 *
 * The CSV column sets are here too, so the CLI, the app's export and tests write the same files. Values
 * are the service's own strings.
 */
import type { Balance, Fill, FundingPayment, ListedOrder, Position } from '../../../shared/protocol/index.js';
import { walletIds, type TradingContext } from '../orders/orderContext.js';
import type { CsvColumn } from './csv.js';

type ReadContext = Pick<TradingContext, 'api' | 'config'>;

export interface MarketFilter {
  market?: string;
}

async function checkMarket(ctx: ReadContext, market: string | undefined): Promise<void> {
  // A typo in --market would read as "no rows"; refuse it instead. Inactive markets still have history.
  if (market !== undefined) await ctx.config.market(market, { allowInactive: true });
}

export async function readBalance(ctx: ReadContext, wallet: string): Promise<Balance> {
  return ctx.api.balance(walletIds(wallet).accountId);
}

export async function readPositions(ctx: ReadContext, wallet: string): Promise<Position[]> {
  return (await ctx.api.positions(walletIds(wallet).accountId)).positions;
}

/** Resting orders plus every trigger, armed or awaiting its entry; every page. */
export async function readOpenOrders(ctx: ReadContext, wallet: string, filter: MarketFilter = {}): Promise<ListedOrder[]> {
  await checkMarket(ctx, filter.market);
  return ctx.api.allOpenOrders({ wallet: walletIds(wallet).wallet, ...(filter.market ? { market: filter.market } : {}) });
}

/** Armed reduce-only TP/SL triggers (position-triggers is unpaginated; the market filter is applied here). */
export async function readTriggers(ctx: ReadContext, wallet: string, filter: MarketFilter = {}): Promise<ListedOrder[]> {
  await checkMarket(ctx, filter.market);
  const { orders } = await ctx.api.positionTriggers(walletIds(wallet).wallet);
  return filter.market ? orders.filter((o) => o.market === filter.market) : orders;
}

/** One row per status change, newest first; every page. */
export async function readOrderHistory(ctx: ReadContext, wallet: string, filter: MarketFilter = {}): Promise<ListedOrder[]> {
  await checkMarket(ctx, filter.market);
  return ctx.api.allOrderHistory({ wallet: walletIds(wallet).wallet, ...(filter.market ? { market: filter.market } : {}) });
}

export async function readTradeHistory(ctx: ReadContext, wallet: string, filter: MarketFilter = {}): Promise<Fill[]> {
  await checkMarket(ctx, filter.market);
  return ctx.api.allTradeHistory({ wallet: walletIds(wallet).wallet, ...(filter.market ? { market: filter.market } : {}) });
}

export async function readFundingHistory(ctx: ReadContext, wallet: string, filter: MarketFilter = {}): Promise<FundingPayment[]> {
  await checkMarket(ctx, filter.market);
  return ctx.api.allFundingHistory({ wallet: walletIds(wallet).wallet, ...(filter.market ? { market: filter.market } : {}) });
}

export const ORDER_CSV_COLUMNS: readonly CsvColumn<ListedOrder>[] = [
  { header: 'order_id', value: (o) => o.order_id },
  { header: 'market', value: (o) => o.market },
  { header: 'side', value: (o) => o.side },
  { header: 'order_type', value: (o) => o.order_type },
  { header: 'time_in_force', value: (o) => o.time_in_force },
  { header: 'size', value: (o) => o.size },
  { header: 'filled_size', value: (o) => o.filled_size },
  { header: 'limit_price', value: (o) => o.limit_price },
  { header: 'avg_fill_price', value: (o) => o.avg_fill_price },
  { header: 'reduce_only', value: (o) => o.reduce_only },
  { header: 'trigger_price', value: (o) => o.trigger_price },
  { header: 'tpsl', value: (o) => o.tpsl },
  { header: 'status', value: (o) => o.status },
  { header: 'reason', value: (o) => o.reason },
  { header: 'parent_order_id', value: (o) => o.parent_order_id },
  { header: 'submitted_at', value: (o) => o.submitted_at },
  { header: 'status_at', value: (o) => o.status_at },
];

export const FILL_CSV_COLUMNS: readonly CsvColumn<Fill>[] = [
  { header: 'tid', value: (f) => f.tid },
  { header: 'order_id', value: (f) => f.order_id },
  { header: 'market', value: (f) => f.market },
  { header: 'dir', value: (f) => f.dir },
  { header: 'price', value: (f) => f.price },
  { header: 'size', value: (f) => f.size },
  { header: 'fee', value: (f) => f.fee },
  { header: 'closed_pnl', value: (f) => f.closed_pnl },
  { header: 'is_liquidation', value: (f) => f.is_liquidation },
  { header: 'filled_at', value: (f) => f.filled_at },
];

export const FUNDING_CSV_COLUMNS: readonly CsvColumn<FundingPayment>[] = [
  { header: 'market', value: (p) => p.market },
  { header: 'direction', value: (p) => p.direction },
  { header: 'size', value: (p) => p.size },
  { header: 'payment', value: (p) => p.payment },
  { header: 'funding_rate', value: (p) => p.funding_rate },
  { header: 'epoch_time', value: (p) => p.epoch_time },
  { header: 'settled_at', value: (p) => p.settled_at },
];

export const POSITION_CSV_COLUMNS: readonly CsvColumn<Position>[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'market', value: (p) => p.market },
  { header: 'size', value: (p) => p.size },
  { header: 'entry_price', value: (p) => p.entry_price },
  { header: 'isolated_margin', value: (p) => p.isolated_margin },
  { header: 'closeable', value: (p) => p.closeable },
  { header: 'status', value: (p) => p.status },
  { header: 'version', value: (p) => p.version },
];

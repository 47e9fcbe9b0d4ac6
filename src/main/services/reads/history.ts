/**
 * The account's histories as one use case for both front ends: which kinds there are, reading every row
 * of one (newest first), and writing it as CSV. The app's export and `perps history ... --csv` write the
 * same columns with the same writer (RFC 4180, CRLF), values exactly as the service sent them. Order
 * history is written one row per order, as both front ends show it (`perps history orders --events
 * --csv` writes the raw rows, one per status change).
 */
import { groupOrderHistory, type OrderHistoryEntry } from '../../../shared/orders/orderHistory.js';
import type { Deposit, Fill, FundingPayment, ListedOrder, Withdrawal } from '../../../shared/protocol/index.js';
import { depositHistory, withdrawalHistory } from '../money/funds.js';
import type { ServiceContext } from '../serviceContext.js';
import { FILL_CSV_COLUMNS, FUNDING_CSV_COLUMNS, ORDER_CSV_COLUMNS, readFundingHistory, readOrderHistory, readTradeHistory, type MarketFilter } from './accountReads.js';
import { toCsv, type CsvColumn } from './csv.js';

export const HISTORY_KINDS = ['orders', 'fills', 'funding', 'deposits', 'withdrawals'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export type History =
  | { kind: 'orders'; rows: ListedOrder[] }
  | { kind: 'fills'; rows: Fill[] }
  | { kind: 'funding'; rows: FundingPayment[] }
  | { kind: 'deposits'; rows: Deposit[] }
  | { kind: 'withdrawals'; rows: Withdrawal[] };

export type HistoryRow<K extends HistoryKind> = Extract<History, { kind: K }>['rows'][number];

/** Deposits and withdrawals belong to the account, not to a market. */
export function historyHasMarkets(kind: HistoryKind): boolean {
  return kind === 'orders' || kind === 'fills' || kind === 'funding';
}

/** Every row of one history, newest first (every page is read). */
export async function readHistory(ctx: ServiceContext, wallet: string, kind: HistoryKind, filter: MarketFilter = {}): Promise<History> {
  switch (kind) {
    case 'orders':
      return { kind, rows: await readOrderHistory(ctx, wallet, filter) };
    case 'fills':
      return { kind, rows: await readTradeHistory(ctx, wallet, filter) };
    case 'funding':
      return { kind, rows: await readFundingHistory(ctx, wallet, filter) };
    case 'deposits':
      return { kind, rows: await depositHistory(ctx, wallet) };
    case 'withdrawals':
      return { kind, rows: await withdrawalHistory(ctx, wallet) };
  }
}

/** CSV keeps raw values (Unix ms, empty for null) so spreadsheets and scripts need no parsing of ours. */
export const DEPOSIT_CSV_COLUMNS: readonly CsvColumn<Deposit>[] = [
  { header: 'tx_hash', value: (d) => d.tx_hash },
  { header: 'amount', value: (d) => d.amount },
  { header: 'source', value: (d) => d.source },
  { header: 'status', value: (d) => d.status },
  { header: 'detected_at', value: (d) => d.detected_at },
  { header: 'credited_at', value: (d) => d.credited_at },
];

export const WITHDRAWAL_CSV_COLUMNS: readonly CsvColumn<Withdrawal>[] = [
  { header: 'withdrawal_id', value: (w) => w.withdrawal_id },
  { header: 'amount', value: (w) => w.amount },
  { header: 'l1_send_amount', value: (w) => w.l1_send_amount },
  { header: 'destination', value: (w) => w.destination },
  { header: 'status', value: (w) => w.status },
  { header: 'failure_reason', value: (w) => w.failure_reason },
  { header: 'l1_tx_hash', value: (w) => w.l1_tx_hash },
  { header: 'created_at', value: (w) => w.created_at },
  { header: 'completed_at', value: (w) => w.completed_at },
];

/**
 * Order history one row per order (src/shared/orders/orderHistory.ts): the service's order columns from
 * the order's latest row (so status, reason and status_at are the latest), its average fill price, then
 * `price` (a market order's average fill price, any other order's limit price) and `statuses`, every status
 * it went through, oldest first ("open>filled").
 */
export const ORDER_GROUP_CSV_COLUMNS: readonly CsvColumn<OrderHistoryEntry<ListedOrder>>[] = [
  ...ORDER_CSV_COLUMNS.map((c) => (c.header === 'avg_fill_price' ? { header: c.header, value: (g: OrderHistoryEntry<ListedOrder>) => g.avg_fill_price } : { header: c.header, value: (g: OrderHistoryEntry<ListedOrder>) => c.value(g.latest) })),
  { header: 'price', value: (g) => g.price },
  { header: 'statuses', value: (g) => g.changes.map((c) => c.status).join('>') },
];

export interface HistoryCsvOptions {
  /** Order history as the service logs it, one row per status change, instead of one row per order. */
  orderEvents?: boolean;
}

/** A history as CSV. Order history is one row per order unless `orderEvents` asks for the raw rows. */
export function historyCsv(history: History, options: HistoryCsvOptions = {}): string {
  switch (history.kind) {
    case 'orders':
      return options.orderEvents === true ? toCsv(history.rows, ORDER_CSV_COLUMNS) : toCsv(groupOrderHistory(history.rows), ORDER_GROUP_CSV_COLUMNS);
    case 'fills':
      return toCsv(history.rows, FILL_CSV_COLUMNS);
    case 'funding':
      return toCsv(history.rows, FUNDING_CSV_COLUMNS);
    case 'deposits':
      return toCsv(history.rows, DEPOSIT_CSV_COLUMNS);
    case 'withdrawals':
      return toCsv(history.rows, WITHDRAWAL_CSV_COLUMNS);
  }
}

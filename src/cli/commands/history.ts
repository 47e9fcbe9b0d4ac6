/**
 * `perps history orders|trades|funding|deposits|withdrawals --wallet ADDR [--market SYM] [--csv]`: the
 * account's histories, newest first, every page. --csv writes the same file the app's export writes (one
 * writer: RFC 4180 with CRLF, the service's values as they are); --json the rows.
 *
 * Order history is one row per order (its latest status, every status it went through, a market order at
 * its average fill price), as the app's History › Orders shows it; `--events` prints the service's rows
 * as they are, one per status change (table, CSV and JSON alike).
 */
import type { Command } from 'commander';
import type { Deposit, Fill, FundingPayment, ListedOrder, Withdrawal } from '../../shared/protocol/index.js';
import { historyCsv, historyHasMarkets, readHistory, type History, type HistoryKind } from '../../main/services/reads/history.js';
import { groupOrderHistory, type OrderHistoryEntry } from '../../shared/orders/orderHistory.js';
import { contextOf, globalsOf } from '../globals.js';
import { LISTED_ORDER_COLUMNS, sizeText } from '../orders/reports.js';
import { formatTable, formatTime, runAction, type Column } from '../output.js';
import { checkFormats } from '../parse.js';

/** One row per order: what it was, where it ended, and the way there. */
const ORDER_GROUP_COLUMNS: Column<OrderHistoryEntry<ListedOrder>>[] = [
  { header: 'PLACED', value: (g) => formatTime(g.submitted_at) },
  { header: 'ORDER', value: (g) => g.order_id },
  { header: 'MARKET', value: (g) => g.latest.market },
  { header: 'SIDE', value: (g) => g.latest.side },
  { header: 'TYPE', value: (g) => `${g.latest.order_type}${g.latest.time_in_force && g.latest.order_type === 'LIMIT' ? ' ' + g.latest.time_in_force : ''}${g.latest.reduce_only ? ' RO' : ''}` },
  { header: 'SIZE', value: (g) => sizeText(g.latest.size, g.latest), align: 'right' },
  { header: 'FILLED', value: (g) => g.latest.filled_size, align: 'right' },
  // A market order at what it paid (its limit_price is the slippage bound); others at their limit price.
  { header: 'PRICE', value: (g) => g.price ?? (g.latest.order_type === 'MARKET' ? 'market' : ''), align: 'right' },
  { header: 'AVG FILL', value: (g) => g.avg_fill_price ?? '', align: 'right' },
  { header: 'TRIGGER', value: (g) => (g.latest.trigger_price ? `${(g.latest.tpsl ?? '').toUpperCase()} ${g.latest.trigger_price}` : '') },
  { header: 'STATUS', value: (g) => g.status_label },
  // As a trader reads each change: a bracket leg logged open while it waits reads "awaiting entry", open
  // again once armed "armed"; a repeated label shows once.
  { header: 'HISTORY', value: (g) => g.changes.map((c) => c.label).filter((st, i, all) => i === 0 || all[i - 1] !== st).join(' > ') },
  { header: 'REASON', value: (g) => g.latest.reason ?? '' },
  { header: 'UPDATED', value: (g) => formatTime(g.latest.status_at) },
];

const FILL_COLUMNS: Column<Fill>[] = [
  { header: 'FILLED', value: (f) => formatTime(f.filled_at) },
  { header: 'MARKET', value: (f) => f.market ?? '' },
  { header: 'DIR', value: (f) => f.dir },
  { header: 'SIZE', value: (f) => f.size, align: 'right' },
  { header: 'PRICE', value: (f) => f.price, align: 'right' },
  { header: 'FEE', value: (f) => f.fee, align: 'right' },
  { header: 'PNL', value: (f) => f.closed_pnl ?? '', align: 'right' },
  { header: 'LIQ', value: (f) => (f.is_liquidation ? 'yes' : '') },
  { header: 'ORDER', value: (f) => f.order_id },
  { header: 'TID', value: (f) => f.tid },
];

const FUNDING_COLUMNS: Column<FundingPayment>[] = [
  { header: 'EPOCH', value: (p) => formatTime(p.epoch_time) },
  { header: 'MARKET', value: (p) => p.market ?? '' },
  { header: 'DIRECTION', value: (p) => p.direction },
  { header: 'SIZE', value: (p) => p.size, align: 'right' },
  // A raw fraction (0.000120 is 0.0120%): shown as the service sends it.
  { header: 'RATE', value: (p) => p.funding_rate, align: 'right' },
  { header: 'PAYMENT', value: (p) => p.payment, align: 'right' },
  { header: 'SETTLED', value: (p) => formatTime(p.settled_at) },
];

const DEPOSIT_COLUMNS: Column<Deposit>[] = [
  { header: 'DETECTED', value: (d) => formatTime(d.detected_at) },
  { header: 'AMOUNT', value: (d) => d.amount, align: 'right' },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'SOURCE', value: (d) => d.source },
  { header: 'CREDITED', value: (d) => formatTime(d.credited_at) },
  { header: 'TX', value: (d) => d.tx_hash },
];

const WITHDRAWAL_COLUMNS: Column<Withdrawal>[] = [
  { header: 'CREATED', value: (w) => formatTime(w.created_at) },
  { header: 'ID', value: (w) => w.withdrawal_id },
  { header: 'AMOUNT', value: (w) => w.amount, align: 'right' },
  { header: 'SENT', value: (w) => w.l1_send_amount ?? '', align: 'right' },
  { header: 'STATUS', value: (w) => w.status },
  { header: 'FAILURE', value: (w) => w.failure_reason ?? '' },
  { header: 'DESTINATION', value: (w) => w.destination },
  { header: 'COMPLETED', value: (w) => formatTime(w.completed_at) },
  { header: 'TX', value: (w) => w.l1_tx_hash ?? '' },
];

/**
 * The JSON document of a history (the keys the service itself uses for each list). Grouped order history:
 * each order's latest row with the group's avg_fill_price, its `price` and its `changes`, oldest first.
 */
function document(h: History, events: boolean): Record<string, unknown> {
  switch (h.kind) {
    case 'orders': {
      if (events) return { orders: h.rows, total: h.rows.length };
      const groups = groupOrderHistory(h.rows);
      return { orders: groups.map((g) => ({ ...g.latest, status_label: g.status_label, avg_fill_price: g.avg_fill_price, price: g.price, changes: g.changes })), total: groups.length };
    }
    case 'fills':
      return { fills: h.rows, total: h.rows.length };
    case 'funding':
      return { payments: h.rows, total: h.rows.length };
    case 'deposits':
      return { deposits: h.rows };
    case 'withdrawals':
      return { withdrawals: h.rows };
  }
}

function table(h: History, events: boolean): string {
  switch (h.kind) {
    case 'orders':
      return events ? formatTable<ListedOrder>(h.rows, LISTED_ORDER_COLUMNS, 'no order history') : formatTable(groupOrderHistory(h.rows), ORDER_GROUP_COLUMNS, 'no order history');
    case 'fills':
      return formatTable(h.rows, FILL_COLUMNS, 'no fills');
    case 'funding':
      return formatTable(h.rows, FUNDING_COLUMNS, 'no funding payments');
    case 'deposits':
      return formatTable(h.rows, DEPOSIT_COLUMNS, 'no deposits');
    case 'withdrawals':
      return formatTable(h.rows, WITHDRAWAL_COLUMNS, 'no withdrawals');
  }
}

const SUBCOMMANDS: { name: string; kind: HistoryKind; description: string }[] = [
  { name: 'orders', kind: 'orders', description: 'order history, newest first, one row per order (--events: one row per status change)' },
  { name: 'trades', kind: 'fills', description: 'fills of the wallet, newest first' },
  { name: 'funding', kind: 'funding', description: 'hourly funding payments of the wallet, newest first (negative = paid)' },
  { name: 'deposits', kind: 'deposits', description: 'deposits of the wallet, newest first' },
  { name: 'withdrawals', kind: 'withdrawals', description: 'withdrawals of the wallet, newest first' },
];

export function registerHistoryCommands(program: Command): void {
  const history = program.command('history').description('account history: orders, trades, funding, deposits, withdrawals (--csv like the app\'s export)');
  for (const sub of SUBCOMMANDS) historySubcommand(history, sub.name, sub.kind, sub.description);
  // `perps fills`: the word traders use for their executions; the same command as `history trades`.
  historySubcommand(program, 'fills', 'fills', FILLS_DESCRIPTION);
}

export const FILLS_DESCRIPTION = 'fills of the wallet, newest first, with price, fee and realized PnL (the same as `perps history trades`)';

/**
 * One history read as a subcommand of `parent`. Also mounted as `perps orders history`, where a trader
 * looking at open orders expects the past ones; both spellings are the same command.
 */
export function historySubcommand(parent: Command, name: string, kind: HistoryKind, description: string): void {
  const cmd = parent.command(name).description(description).requiredOption('--wallet <address>', 'main wallet');
  if (historyHasMarkets(kind)) cmd.option('--market <symbol>', 'only this market');
  if (kind === 'orders') cmd.option('--events', 'the service\'s rows as they are: one per status change');
  cmd.option('--csv', 'print CSV instead of a table').action(async (opts: { wallet: string; market?: string; csv?: boolean; events?: boolean }, c: Command) => {
    const g = globalsOf(c);
    await runAction({ json: g.json === true }, async (out) => {
      checkFormats(g.json, opts.csv);
      const events = opts.events === true;
      const h = await readHistory(contextOf(g), opts.wallet, kind, opts.market ? { market: opts.market } : {});
      out.result(document(h, events), () => (opts.csv === true ? historyCsv(h, { orderEvents: events }) : table(h, events)));
    });
  });
}

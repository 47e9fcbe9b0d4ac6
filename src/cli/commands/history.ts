/**
 * `perps history orders|trades|funding|deposits|withdrawals --wallet ADDR [--market SYM] [--csv]`: the
 * account's histories, newest first, every page. --csv writes the same file the app's export writes (one
 * writer: RFC 4180 with CRLF, the service's values as they are); --json the rows.
 */
import type { Command } from 'commander';
import type { Deposit, Fill, FundingPayment, ListedOrder, Withdrawal } from '../../shared/protocol/index.js';
import { historyCsv, historyHasMarkets, readHistory, type History, type HistoryKind } from '../../main/services/reads/history.js';
import { contextOf, globalsOf } from '../globals.js';
import { LISTED_ORDER_COLUMNS } from '../orders/reports.js';
import { formatTable, formatTime, runAction, type Column } from '../output.js';
import { checkFormats } from '../parse.js';

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

/** The JSON document of a history (the keys the service itself uses for each list). */
function document(h: History): Record<string, unknown> {
  switch (h.kind) {
    case 'orders':
      return { orders: h.rows, total: h.rows.length };
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

function table(h: History): string {
  switch (h.kind) {
    case 'orders':
      return formatTable<ListedOrder>(h.rows, LISTED_ORDER_COLUMNS, 'no order history');
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
  { name: 'orders', kind: 'orders', description: 'order history, newest first (one row per status change)' },
  { name: 'trades', kind: 'fills', description: 'fills of the wallet, newest first' },
  { name: 'funding', kind: 'funding', description: 'hourly funding payments of the wallet, newest first (negative = paid)' },
  { name: 'deposits', kind: 'deposits', description: 'deposits of the wallet, newest first' },
  { name: 'withdrawals', kind: 'withdrawals', description: 'withdrawals of the wallet, newest first' },
];

export function registerHistoryCommands(program: Command): void {
  const history = program.command('history').description('account history: orders, trades, funding, deposits, withdrawals (--csv like the app\'s export)');
  for (const sub of SUBCOMMANDS) {
    const cmd = history.command(sub.name).description(sub.description).requiredOption('--wallet <address>', 'main wallet');
    if (historyHasMarkets(sub.kind)) cmd.option('--market <symbol>', 'only this market');
    cmd.option('--csv', 'print CSV instead of a table').action(async (opts: { wallet: string; market?: string; csv?: boolean }, c: Command) => {
      const g = globalsOf(c);
      await runAction({ json: g.json === true }, async (out) => {
        checkFormats(g.json, opts.csv);
        const h = await readHistory(contextOf(g), opts.wallet, sub.kind, opts.market ? { market: opts.market } : {});
        out.result(document(h), () => (opts.csv === true ? historyCsv(h) : table(h)));
      });
    });
  }
}

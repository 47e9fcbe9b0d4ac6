/**
 * `perps history trades|funding --wallet ADDR [--market SYM] [--csv]`: fills and hourly funding payments,
 * every page. Registered on the same `history` group as deposits and withdrawals (historyGroup).
 */
import type { Command } from 'commander';
import type { Fill, FundingPayment } from '../../shared/protocol/index.js';
import { FILL_CSV_COLUMNS, FUNDING_CSV_COLUMNS, readFundingHistory, readTradeHistory, toCsv } from '../../main/services/reads/index.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatTable, formatTime, runAction, type Column } from '../output.js';
import { historyGroup } from './historyMoney.js';
import { checkFormats } from './order.js';

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

export function registerTradeHistoryCommands(program: Command): void {
  const history = historyGroup(program);

  history
    .command('trades')
    .description('fills of the wallet, newest first')
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--market <symbol>', 'only this market')
    .option('--csv', 'print CSV instead of a table')
    .action(async (opts: { wallet: string; market?: string; csv?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        checkFormats(g, opts.csv);
        const rows = await readTradeHistory(contextOf(g), opts.wallet, opts.market ? { market: opts.market } : {});
        out.result({ fills: rows, total: rows.length }, () => (opts.csv === true ? toCsv(rows, FILL_CSV_COLUMNS) : formatTable(rows, FILL_COLUMNS, 'no fills')));
      });
    });

  history
    .command('funding')
    .description('hourly funding payments of the wallet, newest first (negative = paid)')
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--market <symbol>', 'only this market')
    .option('--csv', 'print CSV instead of a table')
    .action(async (opts: { wallet: string; market?: string; csv?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        checkFormats(g, opts.csv);
        const rows = await readFundingHistory(contextOf(g), opts.wallet, opts.market ? { market: opts.market } : {});
        out.result({ payments: rows, total: rows.length }, () => (opts.csv === true ? toCsv(rows, FUNDING_CSV_COLUMNS) : formatTable(rows, FUNDING_COLUMNS, 'no funding payments')));
      });
    });
}

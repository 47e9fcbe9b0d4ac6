/**
 * `perps history deposits|withdrawals --wallet ADDR [--csv]`: the money part of `perps history` (the
 * orders engineer's file adds `history trades|funding` to the same group through historyGroup()).
 */
import type { Command } from 'commander';
import type { Deposit, Withdrawal } from '../../shared/protocol/index.js';
import { ValidationError } from '../../main/services/errors.js';
import { depositHistory, withdrawalHistory } from '../../main/services/money/funds.js';
import { contextOf, globalsOf, type GlobalOptions } from '../globals.js';
import { formatTable, formatTime, runAction } from '../output.js';
import { toCsv } from '../parse.js';

/** The shared `history` command group: created by whichever module registers first, reused by the others. */
export function historyGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === 'history') ?? program.command('history').description('account history: deposits, withdrawals, trades, funding');
}

interface Col<R> {
  header: string;
  value: (row: R) => string;
  align?: 'left' | 'right';
}

const DEPOSIT_COLUMNS: Col<Deposit>[] = [
  { header: 'DETECTED', value: (d) => formatTime(d.detected_at) },
  { header: 'AMOUNT', value: (d) => d.amount, align: 'right' },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'SOURCE', value: (d) => d.source },
  { header: 'CREDITED', value: (d) => formatTime(d.credited_at) },
  { header: 'TX', value: (d) => d.tx_hash },
];

const WITHDRAWAL_COLUMNS: Col<Withdrawal>[] = [
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

/** CSV keeps raw values (Unix ms, empty for null) so spreadsheets and scripts need no parsing of ours. */
const DEPOSIT_CSV = [
  { header: 'tx_hash', value: (d: Deposit) => d.tx_hash },
  { header: 'amount', value: (d: Deposit) => d.amount },
  { header: 'source', value: (d: Deposit) => d.source },
  { header: 'status', value: (d: Deposit) => d.status },
  { header: 'detected_at', value: (d: Deposit) => d.detected_at },
  { header: 'credited_at', value: (d: Deposit) => d.credited_at },
];

const WITHDRAWAL_CSV = [
  { header: 'withdrawal_id', value: (w: Withdrawal) => w.withdrawal_id },
  { header: 'amount', value: (w: Withdrawal) => w.amount },
  { header: 'l1_send_amount', value: (w: Withdrawal) => w.l1_send_amount },
  { header: 'destination', value: (w: Withdrawal) => w.destination },
  { header: 'status', value: (w: Withdrawal) => w.status },
  { header: 'failure_reason', value: (w: Withdrawal) => w.failure_reason },
  { header: 'l1_tx_hash', value: (w: Withdrawal) => w.l1_tx_hash },
  { header: 'created_at', value: (w: Withdrawal) => w.created_at },
  { header: 'completed_at', value: (w: Withdrawal) => w.completed_at },
];

function checkFormats(g: GlobalOptions, csv: boolean | undefined): void {
  if (g.json === true && csv === true) throw new ValidationError('choose one of --json and --csv', { field: 'csv', code: 'USAGE' });
}

export function registerMoneyHistoryCommands(program: Command): void {
  const history = historyGroup(program);

  history
    .command('deposits')
    .description('deposits of the wallet, newest first')
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--csv', 'print CSV instead of a table')
    .action(async (opts: { wallet: string; csv?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        checkFormats(g, opts.csv);
        const rows = await depositHistory(contextOf(g), opts.wallet);
        out.result({ deposits: rows }, () => (opts.csv === true ? toCsv(rows, DEPOSIT_CSV) : formatTable(rows, DEPOSIT_COLUMNS, 'no deposits')));
      });
    });

  history
    .command('withdrawals')
    .description('withdrawals of the wallet, newest first')
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--csv', 'print CSV instead of a table')
    .action(async (opts: { wallet: string; csv?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        checkFormats(g, opts.csv);
        const rows = await withdrawalHistory(contextOf(g), opts.wallet);
        out.result({ withdrawals: rows }, () => (opts.csv === true ? toCsv(rows, WITHDRAWAL_CSV) : formatTable(rows, WITHDRAWAL_COLUMNS, 'no withdrawals')));
      });
    });
}

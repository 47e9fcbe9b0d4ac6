/** `perps positions --wallet ADDR [--csv]`: every open position of the account. */
import type { Command } from 'commander';
import { POSITION_CSV_COLUMNS, readPositions, toCsv } from '../../main/services/reads/index.js';
import type { Position } from '../../shared/protocol/index.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatTable, runAction, type Column } from '../output.js';
import { checkFormats } from '../parse.js';

const COLUMNS: Column<Position>[] = [
  { header: 'MARKET', value: (p) => p.market },
  { header: 'SIDE', value: (p) => (p.size.startsWith('-') ? 'short' : 'long') },
  { header: 'SIZE', value: (p) => p.size, align: 'right' },
  { header: 'ENTRY', value: (p) => p.entry_price, align: 'right' },
  { header: 'MARGIN', value: (p) => p.isolated_margin, align: 'right' },
  { header: 'CLOSEABLE', value: (p) => p.closeable, align: 'right' },
  { header: 'STATUS', value: (p) => p.status },
  { header: 'VERSION', value: (p) => String(p.version), align: 'right' },
];

export function registerPositionsCommands(program: Command): void {
  program
    .command('positions')
    .description('open positions of the wallet (they appear shortly after a fill: /positions lags)')
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--csv', 'print CSV instead of a table')
    .action(async (opts: { wallet: string; csv?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        checkFormats(g.json, opts.csv);
        const rows = await readPositions(contextOf(g), opts.wallet);
        out.result({ positions: rows }, () => (opts.csv === true ? toCsv(rows, POSITION_CSV_COLUMNS) : formatTable(rows, COLUMNS, 'no open positions')));
      });
    });
}

/**
 * `perps portfolio --wallet ADDR [--range 1d|1w|1m|all] [--csv points|days|markets]`: how the account is
 * doing, rebuilt from the service's own records (services/portfolio): equity, cash, unrealized and
 * realized PnL, fees (maker and taker), funding paid and received, volume, win rate, largest win and
 * loss, maximum drawdown, the equity curve, PnL per day and per market, and the ledger check against the
 * service now. --json prints the whole report; --csv one of its tables with the app's export writer.
 */
import type { Command } from 'commander';
import { ValidationError } from '../../main/services/errors.js';
import { portfolioCsv, readPortfolio } from '../../main/services/portfolio/index.js';
import { createProgress } from '../progress.js';
import { PORTFOLIO_RANGES, PORTFOLIO_TABLES, isPortfolioRange, type DayRow, type MarketRow, type PortfolioReport, type PortfolioTable } from '../../shared/portfolio/index.js';
import { contextOf, globalsOf } from '../globals.js';
import { cents, percent } from '../numbers.js';
import { formatFields, formatTable, formatTime, runAction, type Column } from '../output.js';
import { checkFormats } from '../parse.js';

const DAY_COLUMNS: Column<DayRow>[] = [
  { header: 'DAY', value: (d) => d.day },
  { header: 'REALIZED', value: (d) => cents(d.realized_pnl), align: 'right' },
  { header: 'FEES', value: (d) => cents(d.fees), align: 'right' },
  { header: 'FUNDING', value: (d) => cents(d.funding), align: 'right' },
  { header: 'NET', value: (d) => cents(d.net), align: 'right' },
];

const MARKET_COLUMNS: Column<MarketRow>[] = [
  { header: 'MARKET', value: (m) => m.market },
  { header: 'REALIZED', value: (m) => cents(m.realized_pnl), align: 'right' },
  { header: 'FEES', value: (m) => cents(m.fees), align: 'right' },
  { header: 'FUNDING', value: (m) => cents(m.funding), align: 'right' },
  { header: 'VOLUME', value: (m) => cents(m.volume), align: 'right' },
  { header: 'TRADES', value: (m) => String(m.trades), align: 'right' },
  { header: 'WON', value: (m) => String(m.wins), align: 'right' },
  { header: 'LOST', value: (m) => String(m.losses), align: 'right' },
];

function report(r: PortfolioReport): string {
  const usd = (v: string) => `${cents(v)} USDC`;
  const l = r.ledger;
  return [
    formatFields([
      ['range', `${r.range} (${r.interval} bars, ${formatTime(r.start)} to ${formatTime(r.now)})`],
      ['equity', usd(r.equity)],
      ['cash', `${usd(r.cash)} (deposits - withdrawals + realized PnL - fees + funding)`],
      ['unrealized PnL', usd(r.unrealized_pnl)],
      ['PnL over the range', `${usd(r.pnl)} (equity change net of deposits and withdrawals)`],
      ['realized PnL', usd(r.realized_pnl)],
      ['fees paid', `${usd(r.fees_paid)} (maker ${cents(r.maker_fees)}, taker ${cents(r.taker_fees)})`],
      ['funding', `${usd(r.funding)} (paid ${cents(r.funding_paid)}, received ${cents(r.funding_received)})`],
      ['volume', usd(r.volume)],
      ['trades', `${r.trades} closing orders: ${r.wins} won, ${r.losses} lost, win rate ${percent(r.win_rate)}`],
      ['largest win / loss', `${usd(r.largest_win)} / ${usd(r.largest_loss)}`],
      ['max drawdown', usd(r.max_drawdown)],
    ]),
    '',
    'PnL per day',
    formatTable(r.per_day, DAY_COLUMNS, 'no fills or funding in the range'),
    '',
    'Per market',
    formatTable(r.per_market, MARKET_COLUMNS, 'no fills or funding in the range'),
    '',
    l.balanced
      ? `Ledger balanced: reconstructed cash ${l.reconstructed_cash} = free balance + posted margin ${l.service_cash}; equity ${l.reconstructed_equity} = live equity ${l.service_equity}.`
      : [`LEDGER MISMATCH: reconstructed cash ${l.reconstructed_cash}, service cash ${l.service_cash} (difference ${l.difference}); equity ${l.reconstructed_equity ?? '-'} vs live ${l.service_equity ?? '-'}.`, ...l.issues.map((i) => `  - ${i}`)].join('\n'),
  ].join('\n');
}

export function registerPortfolioCommands(program: Command): void {
  program
    .command('portfolio')
    .description("how the account is doing, rebuilt from the service's records: equity and PnL curves, fees, funding, volume, win rate, drawdown, and the ledger check")
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--range <range>', `${PORTFOLIO_RANGES.join('|')}`, '1w')
    .option('--csv <table>', `print one table as CSV: ${PORTFOLIO_TABLES.join('|')}`)
    .action(async (opts: { wallet: string; range: string; csv?: string }, c: Command) => {
      const g = globalsOf(c);
      await runAction({ json: g.json === true }, async (out) => {
        if (!isPortfolioRange(opts.range)) throw new ValidationError(`must be one of ${PORTFOLIO_RANGES.join(', ')}`, { field: '--range' });
        const table = opts.csv;
        if (table !== undefined && !(PORTFOLIO_TABLES as readonly string[]).includes(table)) throw new ValidationError(`must be one of ${PORTFOLIO_TABLES.join(', ')}`, { field: '--csv' });
        checkFormats(g.json, table !== undefined);
        // A long history takes a while: a person sees how far the read is (never with --json or a pipe).
        const progress = createProgress({ json: g.json === true });
        let r;
        try {
          r = await readPortfolio(contextOf(g), opts.wallet, opts.range, {
            onProgress: (p) => progress.update(`reading the records: ${p.markets_read} of ${p.markets} markets, ${p.pages} pages, ${p.rows} rows, ${Math.round(p.elapsed_ms / 1000)} s`),
          });
        } finally {
          progress.done();
        }
        out.result(r, () => (table !== undefined ? portfolioCsv(r, table as PortfolioTable) : report(r)));
      });
    });
}

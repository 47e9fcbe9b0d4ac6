/**
 * The portfolio's tables as CSV, through the one writer the histories use (reads/csv.ts: RFC 4180, CRLF,
 * decimal strings as they are): the equity curve, realized PnL per day, and the per-market figures. The
 * app's Portfolio export and `perps portfolio --csv` write the same files.
 */
import type { DayRow, MarketRow, PortfolioPoint, PortfolioReport, PortfolioTable } from '../../../shared/portfolio/index.js';
import { toCsv, type CsvColumn } from '../reads/csv.js';

export const POINT_CSV_COLUMNS: readonly CsvColumn<PortfolioPoint>[] = [
  { header: 'time', value: (p) => p.time },
  { header: 'equity', value: (p) => p.equity },
  { header: 'pnl', value: (p) => p.pnl },
];

export const DAY_CSV_COLUMNS: readonly CsvColumn<DayRow>[] = [
  { header: 'day', value: (d) => d.day },
  { header: 'realized_pnl', value: (d) => d.realized_pnl },
  { header: 'fees', value: (d) => d.fees },
  { header: 'funding', value: (d) => d.funding },
  { header: 'net', value: (d) => d.net },
];

export const MARKET_CSV_COLUMNS: readonly CsvColumn<MarketRow>[] = [
  { header: 'market', value: (m) => m.market },
  { header: 'realized_pnl', value: (m) => m.realized_pnl },
  { header: 'fees', value: (m) => m.fees },
  { header: 'funding', value: (m) => m.funding },
  { header: 'volume', value: (m) => m.volume },
  { header: 'trades', value: (m) => m.trades },
  { header: 'wins', value: (m) => m.wins },
  { header: 'losses', value: (m) => m.losses },
];

export function portfolioCsv(report: PortfolioReport, table: PortfolioTable): string {
  switch (table) {
    case 'points':
      return toCsv(report.points, POINT_CSV_COLUMNS);
    case 'days':
      return toCsv(report.per_day, DAY_CSV_COLUMNS);
    case 'markets':
      return toCsv(report.per_market, MARKET_CSV_COLUMNS);
  }
}

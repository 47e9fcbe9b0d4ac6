/**
 * The IPC shapes of the Portfolio view (issue 27, item 1): portfolio:get answers the report the command
 * line prints (src/shared/portfolio/portfolio.ts PortfolioReport, every amount a decimal string), and
 * portfolio:exportCsv writes one of its tables through the history export's CSV writer.
 */
import { z } from 'zod';
import { decimalOut } from '../fieldSchemas.js';
import { PORTFOLIO_RANGES, PORTFOLIO_TABLES } from '../portfolio/ranges.js';

const unixMs = z.number().int().nonnegative();
const count = z.number().int().nonnegative();

export const PortfolioRequestSchema = z.strictObject({ range: z.enum(PORTFOLIO_RANGES) });
/** Cancels every portfolio read in flight (the view's Cancel); the reads fail with PORTFOLIO_CANCELLED. */
export const PortfolioCancelRequestSchema = z.strictObject({});
export const PortfolioCancelResultSchema = z.object({ cancelled: count });

/**
 * How far a portfolio read is, while it pages (issue 36: a long read showed nothing): markets, pages and
 * records read so far, the time spent and the read's deadline, then how it ended. `read` numbers the
 * reads of this session, so a late event of an earlier read is told apart.
 */
export const PortfolioProgressEventSchema = z.object({
  read: count,
  range: z.enum(PORTFOLIO_RANGES),
  state: z.enum(['reading', 'done', 'failed', 'cancelled']),
  markets_read: count,
  markets: count,
  pages: count,
  rows: count,
  elapsed_ms: count,
  deadline_ms: count,
});
export type PortfolioProgressEvent = z.infer<typeof PortfolioProgressEventSchema>;
export const PortfolioExportRequestSchema = z.strictObject({ range: z.enum(PORTFOLIO_RANGES), table: z.enum(PORTFOLIO_TABLES) });

export const PortfolioReportSchema = z.object({
  range: z.enum(PORTFOLIO_RANGES),
  interval: z.enum(['5m', '1h', '4h', '1d']),
  start: unixMs,
  now: unixMs,
  equity: decimalOut,
  cash: decimalOut,
  unrealized_pnl: decimalOut,
  pnl: decimalOut,
  realized_pnl: decimalOut,
  fees_paid: decimalOut,
  maker_fees: decimalOut,
  taker_fees: decimalOut,
  funding: decimalOut,
  funding_paid: decimalOut,
  funding_received: decimalOut,
  volume: decimalOut,
  net_deposits: decimalOut,
  trades: count,
  wins: count,
  losses: count,
  win_rate: decimalOut.nullable(),
  largest_win: decimalOut,
  largest_loss: decimalOut,
  max_drawdown: decimalOut,
  points: z.array(z.object({ time: unixMs, equity: decimalOut, pnl: decimalOut })),
  per_day: z.array(z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), realized_pnl: decimalOut, fees: decimalOut, funding: decimalOut, net: decimalOut })),
  per_market: z.array(z.object({ market: z.string(), realized_pnl: decimalOut, fees: decimalOut, funding: decimalOut, volume: decimalOut, trades: count, wins: count, losses: count })),
  ledger: z.object({
    reconstructed_cash: decimalOut,
    service_cash: decimalOut,
    difference: decimalOut,
    reconstructed_equity: decimalOut.nullable(),
    service_equity: decimalOut.nullable(),
    equity_difference: decimalOut.nullable(),
    balanced: z.boolean(),
    issues: z.array(z.string()),
  }),
});
export type PortfolioReportView = z.infer<typeof PortfolioReportSchema>;

/**
 * portfolio:* — the Portfolio view's report (services/portfolio: every figure rebuilt from the service's
 * records and the venue's candles, the ledger checked against the service now) and CSV export of its
 * tables through the history export's writer. A report is kept a few seconds per range, so switching
 * ranges back and forth or exporting what is on screen does not walk every page again; new activity
 * (a 'history.changed' event) and a wallet or profile change drop it.
 */
import path from 'node:path';
import type { IpcResponse } from '../../../shared/ipc.js';
import type { PortfolioRange, PortfolioReport, PortfolioTable } from '../../../shared/portfolio/index.js';
import { writeFileAtomic } from '../../files/atomicWrite.js';
import { portfolioCsv, readPortfolio } from '../../services/portfolio/index.js';
import type { DeskContext } from '../deskContext.js';

const REPORT_TTL_MS = 5_000;

export class PortfolioDesk {
  private readonly cache = new Map<string, { at: number; report: PortfolioReport }>();

  constructor(private readonly session: DeskContext) {
    session.events.on('history.changed', () => this.cache.clear());
    session.onReset(() => this.cache.clear());
  }

  private async report(range: PortfolioRange): Promise<PortfolioReport> {
    const key = `${this.session.scope()}|${range}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < REPORT_TTL_MS) return hit.report;
    const report = await readPortfolio(this.session.ctx(), this.session.wallet.requireAddress(), range);
    this.cache.set(key, { at: Date.now(), report });
    return report;
  }

  get(req: { range: PortfolioRange }): Promise<IpcResponse<'portfolio:get'>> {
    return this.report(req.range);
  }

  async exportCsv(req: { range: PortfolioRange; table: PortfolioTable }): Promise<IpcResponse<'portfolio:exportCsv'>> {
    // Read before asking for a file: a failing read should not leave the user with an empty file.
    const report = await this.report(req.range);
    const csv = portfolioCsv(report, req.table);
    const rows = req.table === 'points' ? report.points.length : req.table === 'days' ? report.per_day.length : report.per_market.length;
    const day = new Date().toISOString().slice(0, 10);
    const file = await this.session.dialogs.chooseSaveFile({
      title: `Export portfolio ${req.table}`,
      defaultName: `perps-portfolio-${req.table}-${req.range}-${day}.csv`,
      filters: [{ name: 'CSV', extensions: ['csv'] }],
    });
    if (file === null) return { saved: false, file_name: null, rows };
    await writeFileAtomic(file, csv);
    return { saved: true, file_name: path.basename(file), rows };
  }
}

/**
 * portfolio:* — the Portfolio view's report (services/portfolio: every figure rebuilt from the service's
 * records and the venue's candles, the ledger checked against the service now) and CSV export of its
 * tables through the history export's writer. A report is kept a few seconds per range, so switching
 * ranges back and forth or exporting what is on screen does not walk every page again; new activity
 * (a 'history.changed' event) and a wallet or profile change drop it.
 *
 * A read walks every page of every market and may take long on a busy account or a slow service (issue
 * 36): while it runs, the `portfolioProgress` stream says how far it is (markets, pages and records read,
 * the time spent against the 120 s deadline, at most five times a second), then how it ended;
 * portfolio:cancel ends every read in flight (PORTFOLIO_CANCELLED). Two asks for the same range while one
 * read runs share it, so the view's refresh never starts a second walk.
 */
import path from 'node:path';
import type { IpcResponse } from '../../../shared/ipc.js';
import type { PortfolioRange, PortfolioReport, PortfolioTable } from '../../../shared/portfolio/index.js';
import { writeFileAtomic } from '../../files/atomicWrite.js';
import { portfolioCsv, readPortfolio } from '../../services/portfolio/index.js';
import { PORTFOLIO_DEADLINE_MS, type PortfolioProgress } from '../../services/portfolio/readPortfolio.js';
import type { DeskContext } from '../deskContext.js';

const REPORT_TTL_MS = 5_000;
/** Progress events of one read at most this often (the last one is always sent). */
const PROGRESS_EVERY_MS = 200;

interface Inflight {
  read: number;
  promise: Promise<PortfolioReport>;
  controller: AbortController;
}

export class PortfolioDesk {
  private readonly cache = new Map<string, { at: number; report: PortfolioReport }>();
  private readonly inflight = new Map<string, Inflight>();
  private reads = 0;

  constructor(private readonly session: DeskContext) {
    session.events.on('history.changed', () => this.cache.clear());
    session.onReset(() => this.cache.clear());
  }

  private async report(range: PortfolioRange): Promise<PortfolioReport> {
    const key = `${this.session.scope()}|${range}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < REPORT_TTL_MS) return hit.report;
    const running = this.inflight.get(key);
    if (running) return running.promise;
    const read = ++this.reads;
    const controller = new AbortController();
    const deadlineMs = this.session.portfolioDeadlineMs ?? PORTFOLIO_DEADLINE_MS;
    let last: PortfolioProgress = { markets_read: 0, markets: 0, pages: 0, rows: 0, elapsed_ms: 0 };
    let sentAt = 0;
    const send = (state: 'reading' | 'done' | 'failed' | 'cancelled'): void => this.session.send('portfolioProgress', { read, range, state, ...last, deadline_ms: deadlineMs });
    const promise = readPortfolio(this.session.ctx(), this.session.wallet.requireAddress(), range, {
      deadlineMs,
      signal: controller.signal,
      onProgress: (p) => {
        last = p;
        const now = Date.now();
        if (now - sentAt < PROGRESS_EVERY_MS) return;
        sentAt = now;
        send('reading');
      },
    });
    const entry: Inflight = { read, promise, controller };
    this.inflight.set(key, entry);
    send('reading');
    try {
      const report = await promise;
      this.cache.set(key, { at: Date.now(), report });
      send('done');
      return report;
    } catch (err) {
      send(controller.signal.aborted ? 'cancelled' : 'failed');
      throw err;
    } finally {
      if (this.inflight.get(key) === entry) this.inflight.delete(key);
    }
  }

  /** Ends every portfolio read in flight: each fails with PORTFOLIO_CANCELLED; nothing more is asked of the service. */
  cancel(): IpcResponse<'portfolio:cancel'> {
    const running = [...this.inflight.values()];
    for (const r of running) r.controller.abort();
    return { cancelled: running.length };
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

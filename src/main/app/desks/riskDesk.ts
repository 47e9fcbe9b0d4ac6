/**
 * risk:* — the wallet's own risk limits and the panic action in the app (issue 39). The limits are the
 * command line's (src/main/services/risk): the same file, the same cool-down rule, the same check in the
 * prepare step every order goes through, so nothing here decides whether an order may go.
 *
 * The desk keeps the page's header and banner current: on every re-pricing of the wallet's positions (at
 * most once per REFRESH_MS) it re-reads the day's figures (which also moves the day's peak and starts a
 * lockout the moment a limit breaks, even with no order in sight) and pushes the `riskLimits` event; a
 * lockout that begins raises a native notification and fills the tray's status line.
 *
 * Panic runs in main on the session's wallet; a panic cut short (the app killed) is finished as soon as
 * the wallet opens again.
 */
import type { LimitsSetRequest, LimitsView, PanicReport } from '../../../shared/ipc/limits.js';
import { toAppError } from '../../services/errors.js';
import { setLimits, showLimits, type LimitsShow } from '../../services/risk/limitsOps.js';
import { panic, panicReport, unfinishedPanics, type PanicRecord } from '../../services/risk/panic.js';
import type { DeskContext } from '../deskContext.js';

/** Figures are re-read at most this often while positions re-price. */
const REFRESH_MS = 5_000;

export class RiskDesk {
  private lastRefresh = 0;
  private refreshing: Promise<void> | null = null;
  private locked = false;
  private panicking: Promise<PanicReport> | null = null;
  /** The tray's status line (null: nothing to say); the shell reads it. */
  trayLine: string | null = null;

  constructor(private readonly session: DeskContext) {
    session.onPositions(() => void this.refresh(false));
    session.onReset(() => {
      this.locked = false;
      this.trayLine = null;
      void this.finishCutShortPanics();
      void this.refresh(true);
    });
  }

  async getLimits(): Promise<LimitsView> {
    return this.view(await showLimits(this.session.ctx(), this.session.wallet.requireAddress()));
  }

  async setLimits(req: LimitsSetRequest): Promise<LimitsView> {
    const { show } = await setLimits(this.session.ctx(), { ...req, wallet: this.session.wallet.requireAddress() });
    const v = this.view(show);
    this.publish(v);
    return v;
  }

  /** Runs the panic once: a second press while one runs gets the same report. */
  panic(): Promise<PanicReport> {
    this.panicking ??= (async () => {
      try {
        const record = await panic(this.session.ctx(), this.session.wallet.requireAddress(), { onProgress: (t) => this.session.logger.info(`[panic] ${t}`) });
        this.session.raise({ type: 'positions.changed' });
        this.session.raise({ type: 'history.changed', kinds: ['orders', 'fills'] });
        return reportOf(record);
      } finally {
        this.panicking = null;
      }
    })();
    return this.panicking;
  }

  /** The tray's Panic item: the page opens its confirmation (main never panics unconfirmed). */
  requestPanic(): void {
    this.session.send('panicRequest', {});
  }

  private async finishCutShortPanics(): Promise<void> {
    if (this.session.wallet.address() === null || this.session.profile === null) return;
    try {
      const wallet = this.session.wallet.address()!.toLowerCase();
      if (unfinishedPanics(this.session.ctx()).some((r) => r.wallet.toLowerCase() === wallet)) {
        this.session.logger.warn('[panic] a panic was cut short; finishing it now');
        const report = await this.panic();
        this.session.notify('alerts', 'Panic finished after a restart', report.lines.join('\n'));
      }
    } catch (err) {
      this.session.logger.error(`[panic] could not finish the panic that was cut short: ${toAppError(err).message}`);
    }
  }

  /** Re-reads the figures and pushes them (throttled unless forced); a failure is pushed as the view's problem. */
  refresh(force: boolean): Promise<void> {
    if (this.refreshing) return this.refreshing;
    if (!force && Date.now() - this.lastRefresh < REFRESH_MS) return Promise.resolve();
    const wallet = this.session.wallet.address();
    if (wallet === null || this.session.profile === null) return Promise.resolve();
    this.lastRefresh = Date.now();
    this.refreshing = (async () => {
      try {
        this.publish(this.view(await showLimits(this.session.ctx(), wallet)));
      } catch (err) {
        const e = toAppError(err);
        this.session.logger.warn(`[risk] the limits' figures could not be read: ${e.code}: ${e.message}`);
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private view(s: LimitsShow, problem: string | null = null): LimitsView {
    return { wallet: s.wallet, limits: s.limits, reset_time: s.reset_time, cooldown_ms: s.cooldown_ms, pending: s.pending, lockout: s.lockout, room: s.room, problem, at: s.at };
  }

  private publish(v: LimitsView): void {
    const nowLocked = v.lockout !== null;
    if (nowLocked && !this.locked) this.session.notify('alerts', 'Opening orders locked', `${v.lockout!.reason}. Until ${new Date(v.lockout!.until).toISOString()}; closes still pass.`);
    this.locked = nowLocked;
    this.trayLine = v.lockout ? `Locked until ${new Date(v.lockout.until).toISOString().slice(11, 16)} UTC (risk limit)` : null;
    this.session.send('riskLimits', v);
  }
}

function reportOf(r: PanicRecord): PanicReport {
  return {
    wallet: r.wallet,
    started_at: r.started_at,
    finished_at: r.finished_at,
    resumed: r.resumed,
    stopped_algos: r.stopped_algos,
    cancelled_orders: r.cancelled_orders,
    closed: r.closed,
    failures: r.failures,
    remaining_orders: r.remaining_orders,
    remaining_positions: r.remaining_positions,
    lines: panicReport(r),
  };
}

/**
 * alerts:* — the user's alerts, evaluated in main (never by the page) while the app runs: on the venue's
 * stream for marks and funding (the session's shared socket), and on every re-pricing of the wallet's
 * positions for PnL and the distance to the liquidation estimate. The evaluator and the store are the
 * command line's (src/main/services/alerts), so an alert added with `perps alert add` is evaluated here,
 * and this app and a `perps alert watch` beside it fire a one-shot alert once between them.
 *
 * A firing raises the native notification ('alerts' in the notification preferences, through the shell's
 * notification adapter), is pushed to the page as an `alertFired` event (toast, optional sound, live
 * region), and is one line of the alerts log (written by the evaluator inside the store's lock). The
 * `alerts` stream carries the profile's alerts whole whenever they change, and apart from them the
 * damaged ones (stored alerts that fail the rules of a new one, the service's markets included): listed
 * with why, never evaluated, removable, as `perps alert list` shows them.
 */
import type { AlertView } from '../../../shared/alerts/alertRule.js';
import type { AlertAddRequest, AlertList } from '../../../shared/ipc/alerts.js';
import type { PositionView } from '../../../shared/ipc.js';
import { AlertEvaluator, addAlert, alertStoreOf, moveAlertLevel, readAlertLog, removeAlert, startAlertFeed, type AlertFeed } from '../../services/alerts/index.js';
import { POSITION_ALERT_KINDS } from '../../../shared/alerts/alertRule.js';
import { describeRule } from '../../../shared/alerts/alertEvaluation.js';
import type { WorkRegistration } from '../backgroundWork.js';
import type { DeskContext } from '../deskContext.js';

/** Firings shown in the panel's recent list. */
const RECENT_FIRINGS = 20;

interface Running {
  profile: string;
  evaluator: AlertEvaluator;
  feed: Promise<AlertFeed | null>;
}

export class AlertsDesk {
  private running: Running | null = null;
  /** The last evaluation failure logged (a damaged store is logged once, not on every mark). */
  private lastProblem = '';
  /** Active alerts are background work: closing the window keeps the app (and their evaluation) in the tray. */
  private readonly work: WorkRegistration;
  /** The service's active markets as last read (null: not yet): an alert on another market is damaged. */
  private symbols: { profile: string; list: string[] } | null = null;

  constructor(private readonly session: DeskContext) {
    this.work = session.backgroundWork.register({
      kind: 'alert',
      list: () => (this.running?.evaluator.active() ?? []).filter((a) => a.status === 'active').map((a) => ({ id: a.id, label: describeRule(a.market, a.rule) })),
    });
    session.onReset(() => this.follow());
    session.onPositions((wallet, views, at) => this.observePositions(wallet, views, at));
    this.follow();
  }

  /** Evaluates the open profile's alerts; a profile change restarts, a wallet change keeps the market feed. */
  private follow(): void {
    const profile = this.session.profile?.name ?? null;
    if (this.running?.profile === profile) return;
    const previous = this.running;
    this.running = null;
    if (previous) void this.stopFeed(previous);
    if (profile === null) return;
    const ctx = this.session.ctx();
    const evaluator = new AlertEvaluator({
      store: alertStoreOf(ctx),
      profile,
      marketSymbols: () => (this.symbols?.profile === profile ? this.symbols.list : null),
      onFire: (firing) => {
        this.session.notify('alerts', firing.title, firing.note ? `${firing.message}\n${firing.note}` : firing.message);
        this.session.send('alertFired', { firings: [firing] });
      },
      onChange: (alerts, damaged) => {
        this.session.send('alerts', { alerts, damaged });
        this.work.changed();
      },
    });
    const url = ctx.profile.venueWsUrl;
    const feed = startAlertFeed({
      ctx,
      socket: url ? this.session.venueSockets().lease(url) : null,
      pollMs: this.session.timings.marksPollMs,
      // Without a venue socket the info API is polled: only while a market alert exists (another process may add one).
      wanted: () => {
        this.guard(() => evaluator.reloadIfChanged());
        return evaluator.active().some((a) => a.wallet === null);
      },
      observe: (obs) => this.guard(() => evaluator.observeMarket(obs)),
      onError: (err) => this.session.logger.warn(`[alerts] reading the venue failed: ${err.message}`),
    }).catch((err: unknown) => {
      this.session.logger.warn(`[alerts] the venue feed could not start: ${(err as Error).message}`);
      return null;
    });
    this.running = { profile, evaluator, feed };
    this.guard(() => evaluator.reload());
    // The service's markets, read once the profile opens: from then on an alert on a market it does not
    // list is damaged here too (as in `perps alert list`), not evaluated, and the page is told.
    void this.readSymbols(profile).then((read) => {
      if (read && this.running?.evaluator === evaluator) this.guard(() => evaluator.reload());
    });
  }

  /** Reads the service's active markets for `profile`; false (logged) when they cannot be read now. */
  private async readSymbols(profile: string): Promise<boolean> {
    try {
      const list = (await this.session.ctx().config.markets()).filter((m) => m.is_active).map((m) => m.symbol);
      if (this.session.profile?.name !== profile) return false;
      this.symbols = { profile, list };
      return true;
    } catch (err) {
      this.session.logger.warn(`[alerts] the service's markets could not be read to check stored alerts: ${(err as Error).message}`);
      return false;
    }
  }

  private async stopFeed(r: Running): Promise<void> {
    try {
      await (await r.feed)?.stop();
    } catch (err) {
      this.session.logger.warn(`[alerts] stopping the venue feed failed: ${(err as Error).message}`);
    }
  }

  /** Runs an evaluation; a failure (a damaged store, a busy lock) is logged once per distinct message. */
  private guard(work: () => void): void {
    try {
      work();
      this.lastProblem = '';
    } catch (err) {
      const message = (err as Error).message;
      if (message !== this.lastProblem) this.session.logger.error(`[alerts] evaluating alerts failed: ${message}`);
      this.lastProblem = message;
    }
  }

  private observePositions(wallet: string, views: readonly PositionView[], at: number): void {
    const r = this.running;
    if (!r || !r.evaluator.active().some((a) => a.wallet !== null)) return;
    this.guard(() => {
      for (const v of views) r.evaluator.observePosition({ market: v.market, wallet, at, unrealizedPnl: v.unrealized_pnl, liquidationDistance: v.liquidation_distance });
    });
  }

  /** Re-reads the store after a change made here, which publishes the alerts. */
  private changed(): void {
    this.guard(() => this.running?.evaluator.reload());
  }

  async list(): Promise<AlertList> {
    const ctx = this.session.ctx();
    const profile = ctx.profile.name;
    // Held to every rule of a new alert, the service's markets included: the damaged ones are listed apart.
    // The markets are read again (a new listing shows at once); when the service cannot be reached, the
    // last list read stands in, and without one the market check waits: the alerts still show offline.
    const fresh = await this.readSymbols(profile);
    const symbols = fresh || this.symbols?.profile === profile ? this.symbols!.list : null;
    const { alerts, damaged } = alertStoreOf(ctx).checked(profile, symbols);
    return {
      alerts,
      damaged,
      recent: readAlertLog(ctx.profile.dataDir, RECENT_FIRINGS * 5)
        .firings.filter((f) => f.profile === profile)
        .slice(0, RECENT_FIRINGS),
    };
  }

  async add(req: AlertAddRequest): Promise<AlertView> {
    // A position alert watches the connected wallet's position.
    const wallet = POSITION_ALERT_KINDS.includes(req.kind) ? this.session.wallet.requireAddress() : null;
    const view = await addAlert(this.session.ctx(), { ...req, wallet });
    this.changed();
    return view;
  }

  remove(req: { id: string }): AlertView {
    const view = removeAlert(this.session.ctx(), req.id);
    this.changed();
    return view;
  }

  async setLevel(req: { id: string; level: string }): Promise<AlertView> {
    const view = await moveAlertLevel(this.session.ctx(), req.id, req.level);
    this.changed();
    return view;
  }

  async close(): Promise<void> {
    const r = this.running;
    this.running = null;
    this.work.unregister();
    if (r) await this.stopFeed(r);
  }
}

/**
 * Trailing stops in the app: set from the TP/SL dialog (trail:start), stopped (trail:off), and run here in
 * main with the same runner as `perps position trail` (services/algos/trailing). The data folder is
 * shared with the command line, and one process trails a position (its run lock), so the app never trails
 * a position the command line trails.
 *
 * When the app opens a wallet, the trailing stops it left (closed, crashed, offline) are taken up again:
 * the candles missed are read, the stop is moved to where it should be now, and what happened while it
 * was away is said in a notification. Closing the app stops trailing and leaves the last levels armed.
 */
import type { TrailResult } from '../../../shared/ipc/trail.js';
import { liveRunner } from '../../services/algos/runLock.js';
import { openTrailRunner, prepareTrail, startTrail, trailingViews, trailStoreOf, turnOffTrail, type TrailRunner } from '../../services/algos/trailing/index.js';
import { toAppError } from '../../services/errors.js';
import type { WorkRegistration } from '../backgroundWork.js';
import type { DeskContext } from '../deskContext.js';

export class TrailDesk {
  private readonly runners = new Map<string, { runner: TrailRunner; market: string }>();
  /** A stop trailing here is background work: closing the window keeps the app (and the trailing) in the tray. */
  private readonly work: WorkRegistration;

  constructor(private readonly session: DeskContext) {
    this.work = session.backgroundWork.register({
      kind: 'trailing_stop',
      list: () => [...this.runners.entries()].map(([id, r]) => ({ id, label: `Trailing stop on ${r.market}` })),
    });
    session.onReset(() => {
      this.letGo();
      // After the switch: the new wallet's trailing stops are taken up once it is open.
      setTimeout(() => this.resumeAll(), 0);
    });
  }

  private result(market: string): TrailResult {
    return { market, trailing: trailingViews(this.session.ctx(), this.session.wallet.requireAddress()).get(market) ?? null };
  }

  /** Arms (or takes up) the position's trailing stop and keeps it trailing here. */
  async start(req: { market: string; distance: string; activate?: string | undefined }): Promise<TrailResult> {
    const ctx = this.session.ctx();
    const wallet = this.session.wallet.requireAddress();
    const prepared = await prepareTrail(ctx, { wallet, market: req.market, distance: req.distance, ...(req.activate !== undefined ? { activate: req.activate } : {}) });
    const runner = await startTrail(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onEvent: (text) => this.said(req.market, text) });
    this.keep(runner, req.market);
    this.session.raise({ type: 'positions.changed' });
    return this.result(req.market);
  }

  /** Stops trailing; the armed level stays. */
  async off(req: { market: string }): Promise<TrailResult> {
    const r = turnOffTrail(this.session.ctx(), { market: req.market, wallet: this.session.wallet.requireAddress() });
    this.runners.get(r.id)?.runner.requestStop();
    this.session.raise({ type: 'positions.changed' });
    return this.result(req.market);
  }

  /** Takes up this wallet's trailing stops that no process trails now. */
  resumeAll(): void {
    const address = this.session.wallet.address();
    if (!address || !this.session.profile) return;
    let ctx;
    try {
      ctx = this.session.ctx();
    } catch {
      return;
    }
    const store = trailStoreOf(ctx);
    for (const r of store.list(ctx.profile.name).records) {
      if (r.status !== 'trailing' || r.wallet.toLowerCase() !== address.toLowerCase() || this.runners.has(r.id) || liveRunner(store.dir, r.id)) continue;
      this.keep(openTrailRunner(ctx, r.id, { onEvent: (text) => this.said(r.market, text) }), r.market);
    }
  }

  private keep(runner: TrailRunner, market: string): void {
    this.runners.set(runner.id, { runner, market });
    this.work.changed();
    runner
      .run()
      .catch((err: unknown) => {
        const e = toAppError(err);
        this.session.logger.error(`[trail] ${market}: ${e.code}: ${e.message}`);
        this.session.notify('trigger_fires', `${market} trailing stop stopped`, `${e.message} The last level stays armed.`);
      })
      .finally(() => {
        this.runners.delete(runner.id);
        this.work.changed();
        this.session.raise({ type: 'positions.changed' });
      });
  }

  /** What is worth a notification: what happened while away, and trailing ending. */
  private said(market: string, text: string): void {
    if (/^While the desk was away|trailing ended/.test(text)) this.session.notify('trigger_fires', `${market} trailing stop`, text);
    if (/^stop moved|^While the desk was away/.test(text)) this.session.raise({ type: 'positions.changed' });
  }

  /** Stops trailing here (app closing, wallet switch); the last levels stay armed at the service. */
  letGo(): void {
    for (const r of this.runners.values()) r.runner.requestStop();
  }
}

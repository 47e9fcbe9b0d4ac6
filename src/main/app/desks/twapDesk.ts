/**
 * twap:* — TWAPs in the app. The scheduler is the command line's (src/main/services/algos/twap); the app runs
 * it in main, so a TWAP keeps going while the page reloads or moves to another view.
 *
 *  - preview prepares the TWAP (schedule, arrival mark, slice 1's exact order) and keeps it under a
 *    short-lived review id; start takes only that id (and the confirmations its review asked for);
 *  - list shows the wallet's TWAPs; one that was running when its process ended (a crash, a quit) reads
 *    `interrupted` with needs_decision, and is never resumed on its own: the person resumes or stops it;
 *  - pause, resume and cancel act on a TWAP this process runs, or reach the process that runs it (a
 *    terminal's `perps twap`) through its file; stop ends an interrupted or paused one;
 *  - the `twap` stream carries each TWAP's progress (filled of target, average price against the arrival
 *    mark, next slice, per-slice fills with prices for the chart), throttled, latest per TWAP.
 */
import { RISK_PAUSE_NOTE } from '../../services/algos/twap/twapRunner.js';
import type { TwapList, TwapPreview, TwapView } from '../../../shared/ipc/twap.js';
import { toAppError } from '../../services/errors.js';
import {
  cancelTwap,
  damagedTwapView,
  liveRunner,
  openTwapRunner,
  pauseTwap,
  prepareTwap,
  startTwap,
  twapStoreOf,
  twapView,
  type TwapPlan,
  type TwapRecord,
  type TwapRunner,
} from '../../services/algos/twap/index.js';
import { withNote } from '../../services/algos/twap/twapRecord.js';
import { OperationError } from '../../services/errors.js';
import type { DeskContext } from '../deskContext.js';
import { Throttle } from '../throttle.js';
import { requireConfirmations } from './confirmations.js';
import type { WorkRegistration } from '../backgroundWork.js';

/** How long quitting waits for a running slice to finish (a market IOC settles in well under that). */
const CLOSE_WAIT_MS = 10_000;

interface Running {
  runner: TwapRunner;
  profile: string;
  done: Promise<TwapRecord | null>;
}

/** How the tray names a running TWAP: "TWAP buy 2 BTC-PERP, 3 of 10 slices sent". */
export function runningTwapLabel(id: string, r: TwapRecord | null): string {
  if (!r) return `TWAP ${id}`;
  const sent = r.slices.filter((s) => s.order_id !== null).length;
  return `TWAP ${r.side.toLowerCase()} ${r.total_size} ${r.market}, ${sent} of ${r.slices.length} slices sent`;
}

export class TwapDesk {
  private readonly running = new Map<string, Running>();
  private readonly stream: Throttle<TwapView>;
  private readonly work: WorkRegistration;
  /** The latest record of each TWAP this app runs (what the tray lists); a runner may report before launch records it. */
  private readonly latest = new Map<string, TwapRecord>();

  constructor(private readonly session: DeskContext) {
    this.stream = new Throttle({
      intervalMs: session.timings.throttleMs,
      key: (v) => v.id,
      emit: (twaps) => session.send('twap', { twaps }),
      onError: (err) => session.logger.error(`[twap] delivering progress failed: ${(err as Error).message}`),
    });
    // Every TWAP this app runs is background work: closing the window keeps the app (and it) running in the tray.
    this.work = session.backgroundWork.register({
      kind: 'twap',
      list: () => [...this.running.keys()].map((id) => ({ id, label: runningTwapLabel(id, this.latest.get(id) ?? null) })),
    });
    // A TWAP runs on its own profile's services: closing that profile lets go of it (it reads interrupted).
    session.onReset(() => {
      const open = session.profile?.name ?? null;
      for (const r of this.running.values()) if (r.profile !== open) r.runner.requestStop('interrupt');
    });
  }

  private wallet(): string {
    return this.session.wallet.requireAddress();
  }

  private store() {
    return twapStoreOf(this.session.ctx());
  }

  private view(r: TwapRecord): TwapView {
    return twapView(r, liveRunner(this.store().dir, r.id));
  }

  /** Publishes a TWAP's progress (the current wallet's only) and tells the other streams what it did. */
  private publish(before: TwapRecord | null, r: TwapRecord): void {
    const wallet = this.session.wallet.address();
    if (wallet && wallet.toLowerCase() === r.wallet.toLowerCase()) this.stream.push(this.view(r));
    const sent = r.slices.filter((s) => s.order_id !== null && before?.slices[s.index]?.order_id !== s.order_id);
    if (sent.length > 0) {
      this.session.raise({ type: 'orders.submitted', orders: sent.map((s) => ({ order_id: s.order_id!, hint: { market: r.market, order_type: 'MARKET', justSubmitted: true } })) });
    }
    const settled = r.slices.some((s) => s.fills.length > 0 && (before?.slices[s.index]?.fills.length ?? 0) === 0);
    if (settled) {
      this.session.raise({ type: 'positions.changed' });
      this.session.raise({ type: 'history.changed', kinds: ['orders', 'fills'] });
    }
  }

  private onUpdate(): (r: TwapRecord) => void {
    let before: TwapRecord | null = null;
    return (r) => {
      // A risk limit paused it (issue 39): say so where the trader will see it, not only in its notes.
      const note = r.notes.at(-1);
      if (r.status === 'paused' && before !== null && before.status !== 'paused' && note?.includes(RISK_PAUSE_NOTE)) this.session.notify('alerts', `TWAP ${r.market} paused by a risk limit`, note);
      this.publish(before, r);
      before = r;
      this.latest.set(r.id, r);
      if (this.running.has(r.id)) this.work.changed();
    };
  }

  /** Runs a claimed runner in the background; an unexpected failure is logged and noted on the TWAP, which then reads interrupted. */
  private launch(runner: TwapRunner): void {
    const profile = this.session.requireProfile().name;
    const done = runner
      .run()
      .then((r) => r as TwapRecord | null)
      .catch((err: unknown) => {
        const e = toAppError(err);
        this.session.logger.error(`[twap] TWAP ${runner.id} stopped on an error: ${e.code}: ${e.message}`);
        try {
          const r = runner.store.update(runner.id, (x) => ({ ...x, notes: withNote(x, `interrupted by an error (${e.code}): ${e.message}; resume or stop it`) }));
          this.publish(null, r);
        } catch (noteErr) {
          this.session.logger.error(`[twap] noting the error on TWAP ${runner.id} failed: ${(noteErr as Error).message}`);
        }
        return null;
      })
      .finally(() => {
        this.running.delete(runner.id);
        this.latest.delete(runner.id);
        this.work.changed();
      });
    this.running.set(runner.id, { runner, profile, done });
    this.work.changed();
  }

  async preview(req: {
    market: string;
    side: 'BUY' | 'SELL';
    total_size: string;
    duration_s: number;
    slices: number;
    randomize_time_pct?: number | undefined;
    randomize_size_pct?: number | undefined;
    reduce_only?: boolean | undefined;
    slippage_bps?: number | undefined;
    leverage?: number | undefined;
  }): Promise<TwapPreview> {
    const plan = await prepareTwap(this.session.ctx(), {
      wallet: this.wallet(),
      market: req.market,
      side: req.side,
      totalSize: req.total_size,
      durationMs: req.duration_s * 1000,
      slices: req.slices,
      ...(req.randomize_time_pct !== undefined ? { randomizeTimePct: req.randomize_time_pct } : {}),
      ...(req.randomize_size_pct !== undefined ? { randomizeSizePct: req.randomize_size_pct } : {}),
      ...(req.reduce_only !== undefined ? { reduceOnly: req.reduce_only } : {}),
      ...(req.slippage_bps !== undefined ? { slippageBps: req.slippage_bps } : {}),
      ...(req.leverage !== undefined ? { leverage: req.leverage } : {}),
      // Let through so the person sees it; start then requires the confirmation.
      allow: { large: true },
    });
    const entry = this.session.reviews.put('twap', this.session.scope(), this.session.reviewTtl('orders'), plan);
    return { ...plan.view, preview_id: entry.id, valid_until: entry.validUntil };
  }

  async start(req: { preview_id: string; confirm?: readonly string[] | undefined }): Promise<TwapView> {
    const ctx = this.session.ctx();
    requireConfirmations(this.session.reviews.peek<'twap', TwapPlan>(req.preview_id, 'twap', this.session.scope()).payload.view.confirmations, req.confirm);
    const { payload: plan } = this.session.reviews.take<'twap', TwapPlan>(req.preview_id, 'twap', this.session.scope());
    const runner = await startTwap(ctx, plan, { allowLarge: plan.view.confirmations.some((c) => c.code === 'LARGE_ORDER'), onUpdate: this.onUpdate() });
    this.launch(runner);
    return this.view(this.store().require(runner.id, ctx.profile.name));
  }

  /** The wallet's TWAPs, and beside them the damaged ones (those of this wallet, or whose wallet cannot be read). */
  async list(): Promise<TwapList> {
    const ctx = this.session.ctx();
    const wallet = this.wallet().toLowerCase();
    const { twaps, damaged } = this.store().list(ctx.profile.name);
    return {
      twaps: twaps.filter((r) => r.wallet.toLowerCase() === wallet).map((r) => this.view(r)),
      damaged: damaged.filter((d) => d.summary.wallet === null || d.summary.wallet.toLowerCase() === wallet).map(damagedTwapView),
    };
  }

  private mine(id: string): TwapRecord {
    const r = this.store().require(id, this.session.ctx().profile.name);
    if (r.wallet.toLowerCase() !== this.wallet().toLowerCase()) throw new OperationError('TWAP_NOT_FOUND', `no TWAP ${id} for this wallet`);
    return r;
  }

  async pause(req: { id: string }): Promise<TwapView> {
    this.mine(req.id);
    const here = this.running.get(req.id);
    if (here) {
      here.runner.requestStop('pause');
      await here.done;
      return this.view(this.mine(req.id));
    }
    return this.view(pauseTwap(this.session.ctx(), req.id));
  }

  async resume(req: { id: string }): Promise<TwapView> {
    this.mine(req.id);
    if (this.running.has(req.id)) throw new OperationError('TWAP_LOCKED', `TWAP ${req.id} is already running in this app`);
    const runner = openTwapRunner(this.session.ctx(), req.id, { onUpdate: this.onUpdate() });
    // Claimed now, so a TWAP another process runs is refused here (TWAP_LOCKED), not in the background.
    runner.claim();
    this.launch(runner);
    return this.view(this.mine(req.id));
  }

  async cancel(req: { id: string }): Promise<TwapView> {
    this.mine(req.id);
    const here = this.running.get(req.id);
    if (here) {
      here.runner.requestStop('cancel');
      await here.done;
      return this.view(this.mine(req.id));
    }
    const r = await cancelTwap(this.session.ctx(), req.id, { onUpdate: this.onUpdate() });
    this.latest.delete(req.id);
    return this.view(r);
  }

  /** Ends an interrupted (or paused) TWAP instead of resuming it; its in-flight slice is settled first. */
  async stop(req: { id: string }): Promise<TwapView> {
    this.mine(req.id);
    if (this.running.has(req.id)) throw new OperationError('TWAP_RUNNING', `TWAP ${req.id} is running; stop is for an interrupted or paused TWAP`, { hint: 'Cancel it instead.' });
    const r = await cancelTwap(this.session.ctx(), req.id, { as: 'stopped', onUpdate: this.onUpdate() });
    this.latest.delete(req.id);
    return this.view(r);
  }

  /** Quitting: every TWAP this app runs is let go after its current slice (it reads interrupted on the next start). */
  async close(): Promise<void> {
    const all = [...this.running.values()];
    for (const r of all) r.runner.requestStop('interrupt');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(all.map((r) => r.done)), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    this.stream.close();
  }
}

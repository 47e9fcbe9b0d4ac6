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
import type { TwapList, TwapPreview, TwapView } from '../../../shared/ipc/twap.js';
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
import { algoViewStream, type AlgoHost } from '../algos/algoHost.js';
import type { Throttle } from '../throttle.js';
import type { DeskContext } from '../deskContext.js';
import { requireConfirmations } from './confirmations.js';

/** How the tray names a running TWAP: "TWAP buy 2 BTC-PERP, 3 of 10 slices sent". */
export function runningTwapLabel(id: string, r: TwapRecord | null): string {
  if (!r) return `TWAP ${id}`;
  const sent = r.slices.filter((s) => s.order_id !== null).length;
  return `TWAP ${r.side.toLowerCase()} ${r.total_size} ${r.market}, ${sent} of ${r.slices.length} slices sent`;
}

export class TwapDesk {
  private readonly stream: Throttle<TwapView>;
  /** The latest record of each TWAP this app runs (what the tray lists); a runner may report before launch records it. */
  private readonly latest = new Map<string, TwapRecord>();

  constructor(
    private readonly session: DeskContext,
    private readonly host: AlgoHost,
  ) {
    this.stream = algoViewStream<TwapView>(session, '[twap]', 'progress', (twaps) => session.send('twap', { twaps }));
    host.register({
      kind: 'twap',
      work: 'twap',
      tag: '[twap]',
      label: (item) => runningTwapLabel(item.id, this.latest.get(item.id) ?? null),
      // A pause the person did not ask for (a risk limit), a slice that never reached the book, and a failure are news.
      notify: {
        paused: { category: 'alerts', title: (_e, market) => `TWAP ${market} paused`, when: (e) => e.reason !== 'requested' },
        attention: { category: 'alerts', title: (_e, market) => `TWAP ${market} needs a look` },
        failed: { category: 'alerts', title: (_e, market) => `TWAP ${market} stopped` },
      },
      perWallet: false,
      // Never resumed on its own: one that was running when its process ended waits for the person (interrupted).
      onError: (runner, e) => {
        const r = (runner as TwapRunner).store.update(runner.id, (x) => ({ ...x, notes: withNote(x, `interrupted by an error (${e.code}): ${e.message}; resume or stop it`) }));
        this.publish(null, r);
      },
      onEnded: (item) => this.latest.delete(item.id),
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

  /** What a TWAP runner of this app is built with: its progress to the stream, its typed events to the host. */
  private options() {
    let before: TwapRecord | null = null;
    const onUpdate = (r: TwapRecord): void => {
      this.publish(before, r);
      before = r;
      this.latest.set(r.id, r);
      if (this.host.isRunning('twap', r.id)) this.host.changed('twap');
    };
    return { onUpdate, onAlgoEvent: this.host.listener('twap') };
  }

  /** Runs a claimed runner in the background, on the host. */
  private launch(runner: TwapRunner, r: TwapRecord): void {
    this.host.keep('twap', runner, { market: r.market, wallet: r.wallet });
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
    const options = { ...this.options(), allowLarge: plan.view.confirmations.some((c) => c.code === 'LARGE_ORDER') };
    const runner = await startTwap(ctx, plan, options);
    this.launch(runner, this.store().require(runner.id, ctx.profile.name));
    // Read again once it runs: the page merges views by updated_at, and the run's first write is newer.
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
    if (await this.host.stop('twap', req.id, 'pause')) return this.view(this.mine(req.id));
    return this.view(pauseTwap(this.session.ctx(), req.id));
  }

  async resume(req: { id: string }): Promise<TwapView> {
    const r = this.mine(req.id);
    if (this.host.isRunning('twap', req.id)) throw new OperationError('TWAP_LOCKED', `TWAP ${req.id} is already running in this app`);
    const runner = openTwapRunner(this.session.ctx(), req.id, this.options());
    // Claimed now, so a TWAP another process runs is refused here (TWAP_LOCKED), not in the background.
    runner.claim();
    this.launch(runner, r);
    return this.view(this.mine(req.id));
  }

  async cancel(req: { id: string }): Promise<TwapView> {
    this.mine(req.id);
    if (await this.host.stop('twap', req.id, 'cancel')) return this.view(this.mine(req.id));
    const r = await cancelTwap(this.session.ctx(), req.id, this.options());
    this.latest.delete(req.id);
    return this.view(r);
  }

  /** Ends an interrupted (or paused) TWAP instead of resuming it; its in-flight slice is settled first. */
  async stop(req: { id: string }): Promise<TwapView> {
    this.mine(req.id);
    if (this.host.isRunning('twap', req.id)) throw new OperationError('TWAP_RUNNING', `TWAP ${req.id} is running; stop is for an interrupted or paused TWAP`, { hint: 'Cancel it instead.' });
    const r = await cancelTwap(this.session.ctx(), req.id, { ...this.options(), as: 'stopped' });
    this.latest.delete(req.id);
    return this.view(r);
  }

  /** Quitting: the host lets every TWAP go after its current slice (it reads interrupted on the next start); the stream closes after. */
  close(): void {
    this.stream.close();
  }
}

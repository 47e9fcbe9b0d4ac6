/**
 * chase:* — chase orders in the app: one post-only limit that rests at the best bid (buy) or ask (sell),
 * or whole ticks inside it, and follows it by Modify until it fills. The runner is the command line's
 * (services/algos/chase); the app runs it in main on the algorithm host, on the venue's book stream
 * (leased from the session's one venue socket), so it keeps chasing while the window is closed into the
 * tray, and is taken up again when the app starts or the wallet opens.
 *
 *  - preview checks every setting with the shared rules (shared/algos/chase/chaseFlags.ts), reads the live
 *    book and prepares the first order (every order rule, the leverage signed), kept under a short-lived
 *    review id; a refusal names the request's field (size, offset_ticks, max_distance, timeout, ...);
 *  - start takes only that id, places the first order, and chases here;
 *  - list shows the wallet's chases, and beside them the damaged ones (never run, nothing sent);
 *  - stop ends the chase, leaving its live order resting or cancelling it, as the trader chooses;
 *  - quitting: a chase set to cancel at its limit cancels its order and ends; one set to leave keeps its
 *    order resting and is taken up again on the next start (backgroundWork.ts says so in the quit dialog);
 *  - the `chase` stream carries each chase's latest view (every re-price), throttled.
 */
import { canonical } from '../../../shared/decimal/index.js';
import { groupedDecimal } from '../../../shared/decimal/display.js';
import { parseChaseFlags, type ChaseFlagsText } from '../../../shared/algos/chase/chaseFlags.js';
import { distanceMoved, followedBest, maxDistancePrice, type BestPrices } from '../../../shared/algos/chase/chasePrice.js';
import { chaseFilled, type ChaseRecord } from '../../../shared/algos/chase/chaseRecord.js';
import type { ChaseList, ChasePreview, ChasePreviewRequest, ChaseView, DamagedChaseView } from '../../../shared/ipc/chase.js';
import type { DamagedRecord } from '../../services/algos/algoStore.js';
import { chaseStoreOf, listChases, openChaseRunner, prepareChase, startChase, venueChaseBooks, type ChaseBookSource, type ChaseRunnerOptions, type PreparedChase } from '../../services/algos/chase/index.js';
import type { AlgoEventListener } from '../../services/algos/engine/index.js';
import { liveRunner } from '../../services/algos/runLock.js';
import { AppError, OperationError, toAppError } from '../../services/errors.js';
import { algoViewStream, recordsToTakeUp, type AlgoHost } from '../algos/algoHost.js';
import type { Throttle } from '../throttle.js';
import type { DomainEvent } from '../domainEvents.js';
import type { DeskContext } from '../deskContext.js';

/** The order moved, filled or ended: the orders, the position and the history change. */
const BOOK_CHANGED: readonly DomainEvent[] = [{ type: 'orders.changed' }, { type: 'positions.changed' }, { type: 'history.changed', kinds: ['orders', 'fills'] }];

/** How the tray names a chase: "Chase ETH: buy 0.01 at 3,399.9, 0 filled". */
export function chaseLabel(r: Pick<ChaseRecord, 'market' | 'side' | 'size' | 'order' | 'filled_before'>): string {
  const at = r.order ? ` at ${groupedDecimal(r.order.price)}` : '';
  return `Chase ${r.market}: ${r.side === 'BUY' ? 'buy' : 'sell'} ${r.size}${at}, ${canonical(chaseFilled(r))} filled`;
}

export class ChaseDesk {
  private readonly stream: Throttle<ChaseView>;
  /** Each running chase's tray line, from its latest record. */
  private readonly labels = new Map<string, string>();
  /** The latest good book each running chase read: how far the best has gone from its start. */
  private readonly books = new Map<string, BestPrices>();
  /** Each chase's live order id as last published: a new one (placed, moved) makes the open orders look again. */
  private readonly orderIds = new Map<string, string | null>();
  /** Why a run this app hosted ended on an error (a stop asked here reports it). */
  private readonly errors = new Map<string, AppError>();

  constructor(
    private readonly session: DeskContext,
    private readonly host: AlgoHost,
  ) {
    this.stream = algoViewStream<ChaseView>(session, '[chase]', 'a chase', (chases) => session.send('chase', { chases }));
    host.register({
      kind: 'chase',
      work: 'chase',
      tag: '[chase]',
      label: (item) => this.labels.get(item.id) ?? `Chase ${item.market}`,
      // Its end (filled, at a limit, stopped elsewhere), and what the person must know now. A re-price is
      // not news: it happens once a second while the book moves; the panel and the chart show it.
      notify: {
        stopped: { category: 'fills', title: (_e, market) => `Chase ${market} over` },
        attention: { category: 'trigger_fires', title: (_e, market) => `Chase ${market} needs a look` },
        failed: { category: 'trigger_fires', title: (_e, market) => `Chase ${market} stopped`, body: (e) => `${e.text} Its order, if one rests, stays at the service, unfollowed.` },
      },
      raise: { acted: BOOK_CHANGED, stopped: BOOK_CHANGED },
      perWallet: true,
      resume: {
        candidates: (ctx, wallet) => {
          return recordsToTakeUp(chaseStoreOf(ctx), ctx.profile.name, wallet, (r) => r.status === 'working')
            .map((r) => {
              this.labels.set(r.id, chaseLabel(r));
              return { id: r.id, market: r.market };
            });
        },
        open: (ctx, id, onAlgoEvent) => openChaseRunner(ctx, id, this.options(id, onAlgoEvent)),
      },
      // Quitting: the on-limit choice decides whether its order may rest unfollowed until the next start.
      quitStop: (item) => (this.onLimitOf(item.id) === 'cancel' ? 'cancel' : 'interrupt'),
      onError: (runner, e) => {
        this.errors.set(runner.id, e);
      },
      onEnded: (item) => {
        this.labels.delete(item.id);
        this.publishStored(item.id);
        this.books.delete(item.id);
      },
    });
  }

  private wallet(): string {
    return this.session.wallet.requireAddress();
  }

  private onLimitOf(id: string): 'leave' | 'cancel' {
    try {
      const s = chaseStoreOf(this.session.ctx()).inspect(id, this.session.requireProfile().name);
      return s && 'record' in s ? s.record.on_limit : 'leave';
    } catch (err) {
      // Unreadable now: its order is left resting (interrupt), never cancelled on a guess; the record says why on the next start.
      this.session.logger.warn(`[chase] reading chase ${id}'s on-limit choice failed, its order is left resting: ${(err as Error).message}`);
      return 'leave';
    }
  }

  private view(r: ChaseRecord): ChaseView {
    const holder = liveRunner(chaseStoreOf(this.session.ctx()).dir, r.id);
    const book = this.books.get(r.id);
    return {
      id: r.id,
      wallet: r.wallet,
      market: r.market,
      side: r.side,
      size: r.size,
      filled: canonical(chaseFilled(r)),
      leverage: r.leverage,
      order: r.order ? { order_id: r.order.order_id, price: r.order.price, size: r.order.size, kind: r.order.kind } : null,
      start_price: r.start_best,
      distance_used: book && r.status === 'working' ? canonical(distanceMoved(r.side, r.start_best, followedBest(r.side, book))) : null,
      max_distance: r.max_distance === null ? null : r.max_distance.kind === 'percent' ? `${r.max_distance.value}%` : r.max_distance.value,
      max_distance_price: r.max_distance === null ? null : canonical(maxDistancePrice(r.max_distance, r.start_best)),
      moves: r.moves,
      offset_ticks: r.offset_ticks,
      on_limit: r.on_limit,
      timeout_ms: r.timeout_ms,
      taker_after_ms: r.taker_after_ms,
      status: r.status,
      end_reason: r.end_reason,
      runner: holder ? { pid: holder.pid, this_process: holder.pid === process.pid } : null,
      last_note: r.notes.at(-1) ?? null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  /** A chase's change, to the page (the current wallet's only) and the tray. */
  private publish(r: ChaseRecord): void {
    const orderId = r.order?.order_id ?? null;
    if (this.orderIds.get(r.id) !== orderId) {
      this.orderIds.set(r.id, orderId);
      // The order stream follows the new order (its status, a fill), so the page's open orders list it.
      if (orderId !== null) this.session.raise({ type: 'orders.submitted', orders: [{ order_id: orderId, hint: { market: r.market, order_type: 'LIMIT', justSubmitted: true } }] });
      else this.session.raise({ type: 'orders.changed' });
    }
    if (r.status !== 'working') this.orderIds.delete(r.id);
    const wallet = this.session.wallet.address();
    if (wallet && wallet.toLowerCase() === r.wallet.toLowerCase()) this.stream.push(this.view(r));
    if (this.labels.has(r.id)) {
      this.labels.set(r.id, chaseLabel(r));
      this.host.changed('chase');
    }
  }

  private publishStored(id: string): void {
    try {
      const s = chaseStoreOf(this.session.ctx()).inspect(id, this.session.requireProfile().name);
      if (s && 'record' in s) this.publish(s.record);
    } catch (err) {
      this.session.logger.warn(`[chase] reading chase ${id} after its run failed: ${(err as Error).message}`);
    }
  }

  /** The venue's book stream, one lease per chase (released when its run lets go of the book). */
  private bookSource(): ChaseBookSource {
    const url = this.session.ctx().profile.venueWsUrl;
    if (!url) throw new OperationError('CHASE_NO_BOOK_STREAM', `profile '${this.session.requireProfile().name}' has no venue WebSocket URL: a chase follows the venue's book stream`, { hint: 'Set the venue WebSocket URL in Settings.' });
    const sockets = this.session.venueSockets();
    return {
      follow: (coin, listener) => {
        const lease = sockets.lease(url);
        const stop = venueChaseBooks(lease, (err) => this.session.logger.warn(`[chase] the venue's book stream: ${err.message}`)).follow(coin, listener);
        return () => {
          stop();
          void lease.release();
        };
      },
    };
  }

  /** What a runner of this app is built with: the book stream, its record changes to the page, its typed events to the host. */
  private options(id: string | null, onAlgoEvent: AlgoEventListener = this.host.listener('chase')): ChaseRunnerOptions {
    const books = this.bookSource();
    let key = id;
    return {
      books,
      onUpdate: (r: ChaseRecord) => {
        key = r.id;
        this.publish(r);
      },
      onBook: (e) => {
        if (key !== null && 'best' in e) this.books.set(key, e.best);
      },
      onAlgoEvent,
    };
  }

  async preview(req: ChasePreviewRequest): Promise<ChasePreview> {
    const flags: ChaseFlagsText = {
      ...(req.offset_ticks !== undefined ? { offsetTicks: req.offset_ticks.trim() } : {}),
      ...(req.max_distance !== undefined ? { maxDistance: req.max_distance.trim() } : {}),
      ...(req.timeout !== undefined ? { timeout: req.timeout.trim() } : {}),
      ...(req.taker_after !== undefined ? { takerAfter: req.taker_after.trim() } : {}),
      onLimit: req.on_limit,
    };
    const prepared = await Promise.resolve()
      .then(() => parseChaseFlags(flags))
      .then((settings) => prepareChase(this.session.ctx(), { wallet: this.wallet(), market: req.market, side: req.side, size: req.size.trim(), settings, ...(req.leverage !== undefined ? { leverage: req.leverage } : {}) }))
      .catch((err: unknown) => {
        throw atChaseField(err);
      });
    const entry = this.session.reviews.put('chase', this.session.scope(), this.session.reviewTtl('orders'), prepared);
    const v = prepared.view;
    return { ...v, preview_id: entry.id, valid_until: entry.validUntil };
  }

  async start(req: { preview_id: string }): Promise<ChaseView> {
    const ctx = this.session.ctx();
    const { payload: prepared } = this.session.reviews.take<'chase', PreparedChase>(req.preview_id, 'chase', this.session.scope());
    const runner = await startChase(ctx, prepared, await ctx.tradingSigner(prepared.wallet), this.options(prepared.id));
    const r = chaseStoreOf(ctx).require(runner.id, ctx.profile.name);
    this.labels.set(r.id, chaseLabel(r));
    this.books.set(r.id, prepared.best);
    this.host.keep('chase', runner, { market: r.market, wallet: r.wallet });
    this.session.raise({ type: 'orders.changed' });
    return this.view(r);
  }

  /** The wallet's chases, newest first, and the damaged ones (of this wallet, or whose wallet cannot be read). */
  async list(): Promise<ChaseList> {
    const wallet = this.wallet().toLowerCase();
    const { chases, damaged } = listChases(this.session.ctx());
    return {
      chases: chases.filter((r) => r.wallet.toLowerCase() === wallet).map((r) => this.view(r)),
      damaged: damaged.filter((d) => d.summary.wallet === null || d.summary.wallet.toLowerCase() === wallet).map(damagedChaseView),
    };
  }

  /**
   * Ends the chase: its live order left resting (`leave`) or cancelled (`cancel`). The runner does it (the
   * one writer of the record): the one this app runs, or one opened here for a chase nobody runs now (a
   * terminal's `perps order chase` that holds it refuses with CHASE_LOCKED).
   */
  async stop(req: { id: string; order: 'leave' | 'cancel' }): Promise<ChaseView> {
    const ctx = this.session.ctx();
    const store = chaseStoreOf(ctx);
    const r = store.require(req.id, ctx.profile.name);
    if (r.wallet.toLowerCase() !== this.wallet().toLowerCase()) throw new OperationError('CHASE_NOT_FOUND', `no chase ${req.id} for this wallet`);
    if (r.status !== 'working') throw new OperationError('CHASE_FINISHED', `chase ${req.id} is over (${r.end_reason}); there is nothing to stop`);
    if (!this.host.isRunning('chase', r.id)) {
      const runner = openChaseRunner(ctx, r.id, this.options(r.id));
      runner.claim();
      this.labels.set(r.id, chaseLabel(r));
      this.host.keep('chase', runner, { market: r.market, wallet: r.wallet });
    }
    this.errors.delete(r.id);
    await this.host.stop('chase', r.id, req.order === 'cancel' ? 'cancel' : 'pause');
    const after = store.require(r.id, ctx.profile.name);
    const failed = this.errors.get(r.id);
    this.errors.delete(r.id);
    if (failed) throw failed;
    if (after.status === 'working') {
      // Not over: it is chased again here rather than left unfollowed.
      this.host.resumeAll();
      throw new OperationError('CHASE_NOT_STOPPED', `chase ${r.id} did not stop; it is taken up again`, { kind: 'transient', hint: 'Try again in a moment.' });
    }
    this.session.raise({ type: 'orders.changed' });
    return this.view(after);
  }

  close(): void {
    this.stream.close();
  }
}

/** The request's names of the chase's fields, by the names the shared rules and prepareChase give them. */
const FIELD_OF: Record<string, string> = { size: 'size', usd: 'size', 'offset-ticks': 'offset_ticks', 'max-distance': 'max_distance', timeout: 'timeout', 'taker-after': 'taker_after', 'on-limit': 'on_limit', leverage: 'leverage', interval: 'interval', market: 'market' };

/** A refusal at the request's field ("chase.size" -> size, "max-distance" -> max_distance) so the ticket shows it there. */
export function atChaseField(err: unknown): unknown {
  const e = toAppError(err);
  if (e.kind !== 'validation' || !e.field) return err;
  const tail = e.field.slice(e.field.lastIndexOf('.') + 1);
  const field = FIELD_OF[tail];
  if (field === undefined || field === e.field) return err;
  return new AppError(e.code, e.kind, e.message, { field, ...(e.hint !== undefined ? { hint: e.hint } : {}), ...(e.details !== undefined ? { details: e.details } : {}), cause: err });
}

export function damagedChaseView(d: DamagedRecord<{ market: string | null }>): DamagedChaseView {
  return { id: d.id, status: 'damaged', damage: d.reason, market: d.summary.market, updated_at: d.changedAt };
}

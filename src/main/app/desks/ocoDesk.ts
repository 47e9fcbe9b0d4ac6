/**
 * oco:* — OCO pairs in the app: a buy below the mark and a sell above it, the first fill of either
 * cancelling the other. The runner is the command line's (services/algos/oco); the app runs it in main on
 * the algorithm host, so a pair is watched while the window is closed into the tray, and taken up again
 * when the app starts or the wallet opens (a fill meanwhile is found and the other leg cancelled then).
 *
 *  - preview prepares both legs (every order rule, the balance, the leverage signed) and keeps them under a
 *    short-lived review id; a leg past the mark is refused at its field (OCO_LEG_WOULD_FILL);
 *  - start takes only that id, sends the batch, and watches the pair here;
 *  - list shows the wallet's pairs, and beside them the damaged ones (never watched, nothing sent);
 *  - cancel stops watching and cancels the legs that still rest; the pair ends `cancelled`;
 *  - the `oco` stream carries each pair's latest view, throttled.
 */
import type { DamagedOcoView, OcoList, OcoPreview, OcoPreviewRequest, OcoView } from '../../../shared/ipc/oco.js';
import type { OcoRecord } from '../../../shared/algos/ocoRecord.js';
import type { DamagedRecord } from '../../services/algos/algoStore.js';
import { cancelOcoPair, listOcos, ocoStoreOf, openOcoRunner, prepareOco, startOco, type PreparedOco } from '../../services/algos/oco/index.js';
import { liveRunner } from '../../services/algos/runLock.js';
import { AppError, OperationError, toAppError } from '../../services/errors.js';
import { algoViewStream, recordsToTakeUp, type AlgoHost } from '../algos/algoHost.js';
import type { Throttle } from '../throttle.js';
import type { DomainEvent } from '../domainEvents.js';
import type { DeskContext } from '../deskContext.js';

/** A leg filled or was cancelled: the orders, the position and the history change. */
const BOOK_CHANGED: readonly DomainEvent[] = [{ type: 'orders.changed' }, { type: 'positions.changed' }, { type: 'history.changed', kinds: ['orders', 'fills'] }];

/** How the tray names a pair: "OCO ETH: buy 0.1 at 3,300 / sell at 3,500". */
export function ocoLabel(r: Pick<OcoRecord, 'market' | 'legs'>): string {
  const [buy, sell] = r.legs;
  return `OCO ${r.market}: buy ${buy.size} at ${buy.price} / sell at ${sell.price}`;
}

export class OcoDesk {
  private readonly stream: Throttle<OcoView>;
  /** Each watched pair's tray line, from its latest record. */
  private readonly labels = new Map<string, string>();

  constructor(
    private readonly session: DeskContext,
    private readonly host: AlgoHost,
  ) {
    this.stream = algoViewStream<OcoView>(session, '[oco]', 'a pair', (pairs) => session.send('oco', { pairs }));
    host.register({
      kind: 'oco',
      work: 'oco',
      tag: '[oco]',
      label: (item) => this.labels.get(item.id) ?? `OCO ${item.market}`,
      // The pair's outcome (a leg filled and the other cancelled, in one notice: the fill's own `acted` is
      // followed within a poll by it), and anything the person must know now.
      notify: {
        stopped: { category: 'fills', title: (_e, market) => `OCO pair ${market} ended` },
        attention: { category: 'trigger_fires', title: (_e, market) => `OCO ${market} needs a look` },
        failed: { category: 'trigger_fires', title: (_e, market) => `OCO ${market} stopped`, body: (e) => `${e.text} Legs that rest stay at the service, unwatched.` },
      },
      raise: { acted: BOOK_CHANGED, stopped: BOOK_CHANGED },
      perWallet: true,
      resume: {
        candidates: (ctx, wallet) => {
          return recordsToTakeUp(ocoStoreOf(ctx), ctx.profile.name, wallet, (r) => r.status === 'working')
            .map((r) => {
              this.labels.set(r.id, ocoLabel(r));
              return { id: r.id, market: r.market };
            });
        },
        open: (ctx, id, onAlgoEvent) => openOcoRunner(ctx, id, this.options(onAlgoEvent)),
      },
      onEnded: (item) => {
        this.labels.delete(item.id);
        this.publishStored(item.id);
      },
    });
  }

  private wallet(): string {
    return this.session.wallet.requireAddress();
  }

  private view(r: OcoRecord): OcoView {
    const holder = liveRunner(ocoStoreOf(this.session.ctx()).dir, r.id);
    return {
      id: r.id,
      wallet: r.wallet,
      market: r.market,
      leverage: r.leverage,
      status: r.status,
      winner: r.winner,
      legs: r.legs.map((l) => ({ side: l.side, price: l.price, size: l.size, status: l.status, order_id: l.order_id, filled_size: l.filled_size, reason: l.reason })) as OcoView['legs'],
      runner: holder ? { pid: holder.pid, this_process: holder.pid === process.pid } : null,
      last_note: r.notes.at(-1) ?? null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  /** A pair's change, to the page (the current wallet's only) and the tray. */
  private publish(r: OcoRecord): void {
    const wallet = this.session.wallet.address();
    if (wallet && wallet.toLowerCase() === r.wallet.toLowerCase()) this.stream.push(this.view(r));
    if (this.labels.has(r.id)) {
      this.labels.set(r.id, ocoLabel(r));
      this.host.changed('oco');
    }
  }

  private publishStored(id: string): void {
    try {
      const s = ocoStoreOf(this.session.ctx()).inspect(id, this.session.requireProfile().name);
      if (s && 'record' in s) this.publish(s.record);
    } catch (err) {
      this.session.logger.warn(`[oco] reading pair ${id} after its run failed: ${(err as Error).message}`);
    }
  }

  /** What a runner of this app is built with: its record changes to the page, its typed events to the host. */
  private options(onAlgoEvent = this.host.listener('oco')) {
    const options = { onUpdate: (r: OcoRecord) => this.publish(r), onAlgoEvent };
    return options;
  }

  async preview(req: OcoPreviewRequest): Promise<OcoPreview> {
    const prepared = await prepareOco(this.session.ctx(), { wallet: this.wallet(), market: req.market, buy: req.buy, sell: req.sell, size: req.size, ...(req.leverage !== undefined ? { leverage: req.leverage } : {}) }).catch((err: unknown) => {
      throw atRequestField(err);
    });
    const entry = this.session.reviews.put('oco', this.session.scope(), this.session.reviewTtl('orders'), prepared);
    const v = prepared.view;
    return { market: v.market, mark: v.mark, leverage: v.leverage, legs: [v.legs[0]!, v.legs[1]!], summary: v.summary, preview_id: entry.id, valid_until: entry.validUntil };
  }

  async start(req: { preview_id: string }): Promise<OcoView> {
    const ctx = this.session.ctx();
    const { payload: prepared } = this.session.reviews.take<'oco', PreparedOco>(req.preview_id, 'oco', this.session.scope());
    const runner = await startOco(ctx, prepared, await ctx.tradingSigner(prepared.wallet), this.options());
    const r = ocoStoreOf(ctx).require(runner.id, ctx.profile.name);
    this.labels.set(r.id, ocoLabel(r));
    this.host.keep('oco', runner, { market: r.market, wallet: r.wallet });
    this.session.raise({ type: 'orders.changed' });
    // Read again once it runs: the page merges views by updated_at, and the run's first write is newer.
    return this.view(ocoStoreOf(ctx).require(runner.id, ctx.profile.name));
  }

  /** The wallet's pairs, newest first, and the damaged ones (of this wallet, or whose wallet cannot be read). */
  async list(): Promise<OcoList> {
    const wallet = this.wallet().toLowerCase();
    const { pairs, damaged } = listOcos(this.session.ctx());
    return {
      pairs: pairs.filter((r) => r.wallet.toLowerCase() === wallet).map((r) => this.view(r)),
      damaged: damaged.filter((d) => d.summary.wallet === null || d.summary.wallet.toLowerCase() === wallet).map(damagedOcoView),
    };
  }

  /** Stops watching the pair here and cancels the legs that still rest; taken up again if that fails. */
  async cancel(req: { id: string }): Promise<OcoView> {
    const ctx = this.session.ctx();
    const r = ocoStoreOf(ctx).require(req.id, ctx.profile.name);
    if (r.wallet.toLowerCase() !== this.wallet().toLowerCase()) throw new OperationError('OCO_NOT_FOUND', `no OCO pair ${req.id} for this wallet`);
    const watched = await this.host.stop('oco', req.id, 'interrupt');
    try {
      const done = await cancelOcoPair(ctx, req.id);
      this.publish(done);
      this.session.raise({ type: 'orders.changed' });
      return this.view(done);
    } catch (err) {
      // Whatever still rests stays protected by its pair: watched again here.
      if (watched) this.host.resumeAll();
      throw err;
    }
  }

  close(): void {
    this.stream.close();
  }
}

/**
 * A refusal names its field as the layer that refused it does ("oco.buy", "sell leg.limit_price",
 * "buy leg.size"); the page shows it at the field of the request it sent (buy, sell, size, leverage).
 */
export function atRequestField(err: unknown): unknown {
  const e = toAppError(err);
  if (e.kind !== 'validation' || !e.field) return err;
  const [head, tail] = e.field.includes('.') ? [e.field.slice(0, e.field.lastIndexOf('.')), e.field.slice(e.field.lastIndexOf('.') + 1)] : ['', e.field];
  const leg = /^(buy|sell) leg$/.exec(head)?.[1];
  const field = tail === 'limit_price' && leg ? leg : ['buy', 'sell', 'size', 'leverage'].includes(tail) ? tail : null;
  if (field === null || field === e.field) return err;
  return new AppError(e.code, e.kind, e.message, { field, ...(e.hint !== undefined ? { hint: e.hint } : {}), ...(e.details !== undefined ? { details: e.details } : {}), cause: err });
}

export function damagedOcoView(d: DamagedRecord<{ market: string | null }>): DamagedOcoView {
  return { id: d.id, status: 'damaged', damage: d.reason, market: d.summary.market, updated_at: d.changedAt };
}

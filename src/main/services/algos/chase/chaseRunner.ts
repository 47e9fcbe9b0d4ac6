/**
 * The chase runner: one post-only LIMIT that rides the best bid (buy) or ask (sell), re-priced by Modify
 * when the venue's book moves away, on the one engine every long-running algorithm runs on
 * (algos/engine/algoRunner.ts: the lock, run-once, stops, the service clock, notes and typed events).
 *
 * It reacts to the venue's book stream (chaseBookFeed.ts), not a poll: a book message wakes it, and the
 * re-price goes out from that wake-up. The order's own state (fills, an end at the service) is read on a
 * slower beat and before every Modify, because a Modify sets the size outright: it is sized from the
 * order's fill as the service lists it just then, never from what the runner last believed.
 *
 * Exactly one live order, exactly once (src/shared/algos/chase/chaseRecord.ts):
 *  - a new order is written (no order id yet) before it is sent; a Modify is written as `moving` (its new
 *    client order id) before it is sent. A re-price's intent is the one write on its path (book message
 *    to Modify), so it is one append to the chase's intent log (chaseIntentLog.ts) instead of a record
 *    rewrite: a kill -9 or a crash of this process after it finds it (the page cache outlives the
 *    process) and a resume takes it up. The record gets the intent, atomic and fsynced, on the thread pool
 *    while the Modify is in flight, and the answer is acted on only once it is there. What that leaves to a
 *    power loss (or a kernel crash) in the milliseconds between the append and that fsync: the log line
 *    and the record as they were before. The live order then reads as ended at the service, and the
 *    runner looks for this chase's later client order id in order-history (lostMove) and settles what it
 *    finds: a stored record never outranks what the service says. The runner holds its record in memory
 *    under its run lock (no other process writes a chase), so a step reads no file.
 *    A lost answer or a crash is settled from the service before anything else is sent: the Modify's new order is read (applied, dropped, rejected), or looked up in
 *    order-history by its client order id (or what was sent) until the grace period ends
 *    (AlgoRunner.settleLostAnswer + sentOrderLookup); not there by then, it never reached the service;
 *  - whether a failed write may have landed is decided by the error's kind (engine/mayHaveLanded.ts);
 *  - before crossing (--taker-after) the resting order is cancelled and confirmed gone first.
 *
 * A post-only order the venue rejects (post_only_would_take: the book moved through its price) is
 * re-priced at once from the latest book. A partial fill keeps chasing what is left. A book message that
 * fails its check freezes the chase: nothing is sent until a good book comes, and it says so.
 */
import { Decimal, canonical } from '../../../../shared/decimal/index.js';
import { groupedDecimal } from '../../../../shared/decimal/display.js';
import type { BestPrices } from '../../../../shared/algos/chase/chasePrice.js';
import { chasePhase, chaseTarget, followedBest, maxDistanceReached, nextDeadlineIn, remainingSize, repriceDecision, wouldTake } from '../../../../shared/algos/chase/chasePrice.js';
import { chaseClientOrderId, chaseFilled, type ChaseEndReason, type ChaseOrder, type ChaseRecord } from '../../../../shared/algos/chase/chaseRecord.js';
import { modifyTypedData } from '../../../../shared/eip712/index.js';
import type { ListedOrder, Market } from '../../../../shared/protocol/index.js';
import type { Signer } from '../../../signers/signer.js';
import { OperationError, ValidationError, toAppError } from '../../errors.js';
import { explainingForbidden } from '../../keys/explainForbidden.js';
import { prepareCancelOrders, submitCancel } from '../../orders/cancelOrders.js';
import { readMark, walletIds, type TradingContext } from '../../orders/orderContext.js';
import { checkPriceAndSize } from '../../orders/orderValidation.js';
import { prepareLegs, type PreparedOrder } from '../../orders/prepareOrder.js';
import { slippageBound } from '../../orders/slippage.js';
import { submitOrder } from '../../orders/submitOrder.js';
import { assertPreparedFor } from '../../signing/prepared.js';
import { serviceAlgoClock } from '../algoClock.js';
import { AlgoRunner, type AlgoRunnerOptions, type AlgoStep, type StopKind } from '../engine/algoRunner.js';
import type { AlgoEventType } from '../engine/algoEvents.js';
import { withAlgoNote } from '../engine/algoNotes.js';
import { writeOutcome } from '../engine/mayHaveLanded.js';
import { acquireRunLock, type RunLock } from '../runLock.js';
import { findSentOrder, historyRowsSince, latestHistoryRow, SENT_SLACK_MS } from '../sentOrderLookup.js';
import type { ChaseBookEvent, ChaseBookSource } from './chaseBookFeed.js';
import { ChaseIntentLog, chaseIntentLogFile } from './chaseIntentLog.js';
import { CHASE_NAMING, chaseStoreOf, type ChaseStore } from './chaseStore.js';
import type { PreparedChase } from './prepareChase.js';

/** What the reaction of one re-price took (the bench reads it): book received, Modify handed to the network, answered (performance.now()). */
export interface ChaseReaction {
  bookReceivedAt: number;
  sentAt: number;
  answeredAt: number;
  price: string;
}

export interface ChaseRunnerOptions extends AlgoRunnerOptions<ChaseRecord> {
  books: ChaseBookSource;
  store?: ChaseStore;
  /** Every re-price sent, with its timing. */
  onReaction?: (r: ChaseReaction) => void;
  /** Every book message the chase received, after its check (tests wait on it). */
  onBook?: (e: ChaseBookEvent) => void;
}

/** A read of the order: the chase goes on with `record`, or it is over. */
type ReadResult = { record: ChaseRecord } | { done: ChaseRecord };

function stepOf(read: ReadResult): AlgoStep<ChaseRecord> {
  return 'done' in read ? read : { wait: 0 };
}

const DROPPED = new Set(['modify_dropped', 'max_open_orders']);
const OVER = new Set<ListedOrder['status']>(['filled', 'partially_filled_cancelled', 'cancelled', 'rejected']);
/** A nonce taken ahead (reserveNonce) is used within this long, else a fresh one is taken. */
const SPARE_NONCE_MS = 2_000;
/** A new order of a Modify is held this long at most before the service applies it; read again meanwhile. */
const PENDING_LOOK_MS = 100;

/** A re-price or a placement sent and not yet settled from the service. */
function inFlight(r: ChaseRecord): boolean {
  return r.moving !== null || (r.order !== null && r.order.order_id === null);
}

function px(v: string): string {
  return groupedDecimal(canonical(new Decimal(v)));
}

/** Writes the chase (its first order not yet sent) and returns its runner, lock held; `run()` sends the first order. */
export async function startChase(ctx: TradingContext, prepared: PreparedChase, signer: Signer, options: ChaseRunnerOptions): Promise<ChaseRunner> {
  assertPreparedFor(prepared, ctx.profile.name);
  const store = options.store ?? chaseStoreOf(ctx);
  const clock = options.clock ?? serviceAlgoClock(ctx);
  const lock = acquireRunLock(store.dir, prepared.id, CHASE_NAMING);
  try {
    const now = await clock.now();
    const s = prepared.settings;
    store.create({
      version: 1,
      id: prepared.id,
      profile: ctx.profile.name,
      wallet: prepared.wallet,
      market: prepared.market.symbol,
      coin: prepared.market.venue_symbol,
      side: prepared.side,
      size: prepared.size,
      leverage: prepared.leverage,
      offset_ticks: s.offset_ticks,
      max_distance: s.max_distance,
      timeout_ms: s.timeout_ms,
      interval_ms: s.interval_ms,
      taker_after_ms: s.taker_after_ms,
      on_limit: s.on_limit,
      status: 'working',
      end_reason: null,
      start_best: followedBest(prepared.side, prepared.best),
      started_at: now,
      order: null,
      moving: null,
      filled_before: '0',
      sends: 0,
      moves: 0,
      last_move_at: null,
      cancel_sent_at: null,
      notes: [],
      created_at: now,
      updated_at: now,
    });
    return new ChaseRunner(ctx, store, prepared.id, { ...options, clock }, lock, { order: prepared.order, signer });
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** A runner for a chase already stored (a resume after a stop or a crash). */
export function openChaseRunner(ctx: TradingContext, id: string, options: ChaseRunnerOptions): ChaseRunner {
  const store = options.store ?? chaseStoreOf(ctx);
  const r = store.require(id, ctx.profile.name);
  if (r.status !== 'working') throw new OperationError('CHASE_FINISHED', `chase ${id} is over (${r.end_reason}); there is nothing left to chase`);
  return new ChaseRunner(ctx, store, id, options, null, null);
}

export class ChaseRunner extends AlgoRunner<ChaseRecord> {
  private market!: Market;
  private signer!: Signer;
  private accountId!: string;
  private wallet!: string;
  private book: { best: BestPrices; time: number; receivedAt: number } | null = null;
  /** Why the latest book message failed its check (null: the latest was good). */
  private frozen: string | null = null;
  private frozenSaid: string | null = null;
  private seq = 0;
  private seenSeq = 0;
  private wakers: (() => void)[] = [];
  private release: (() => void) | null = null;
  /** When (service clock) the order's state was last read. */
  private lastRead = -Infinity;
  /** The price a post-only rejection refused, and when: not sent again on the same book. */
  private rejected: { price: string; at: number } | null = null;
  /** A nonce taken while waiting (reserveNonce), and when (this machine's clock). */
  private spareNonce: { value: number; at: number } | null = null;
  /** Each re-price's intent, appended before its Modify is sent (chaseIntentLog.ts). */
  private readonly intents: ChaseIntentLog;

  constructor(
    ctx: TradingContext,
    store: ChaseStore,
    id: string,
    private readonly chaseOptions: ChaseRunnerOptions,
    lock: RunLock | null,
    private first: { order: PreparedOrder; signer: Signer } | null,
  ) {
    super(ctx, store, id, 'chase', CHASE_NAMING, chaseOptions, lock);
    this.intents = new ChaseIntentLog(chaseIntentLogFile(store.dir, id));
  }

  override requestStop(kind: StopKind = 'interrupt'): void {
    super.requestStop(kind);
    this.wake();
  }

  override run(): Promise<ChaseRecord> {
    return super.run().finally(() => {
      this.release?.();
      this.release = null;
      this.intents.close();
    });
  }

  /** Only this runner writes a chase while it holds the run lock (a stop from the app or Ctrl-C comes through requestStop). */
  protected override get holdsRecord(): boolean {
    return true;
  }

  protected isActive(r: ChaseRecord): boolean {
    return r.status === 'working';
  }

  protected override async begin(r: ChaseRecord): Promise<{ record: ChaseRecord }> {
    this.eventMarket = r.market;
    this.market = await this.ctx.config.market(r.market);
    this.signer = this.first?.signer ?? (await this.ctx.tradingSigner(r.wallet));
    this.accountId = walletIds(r.wallet).accountId;
    this.wallet = r.wallet;
    this.release = this.chaseOptions.books.follow(r.coin, (e) => this.onBook(e));
    return { record: this.takeUpLoggedIntent(r) };
  }

  /**
   * A re-price the intent log holds and the record does not (the process died between the append and the
   * record's write): taken up as the move in flight, settled from the service on the first step. A log
   * that cannot be read, or that names another order than the live one, refuses the run: nothing is sent.
   */
  private takeUpLoggedIntent(r: ChaseRecord): ChaseRecord {
    const latest = ChaseIntentLog.latest(this.intents.file);
    if (latest === null) return r;
    const refuse = (why: string) =>
      new ValidationError(`chase ${r.id}'s intent log ${why}; nothing was sent`, {
        code: 'CHASE_RECORD_DAMAGED',
        hint: `It is ${this.intents.file}. Check the account's order history (\`perps orders history\`) for what the chase sent; then move the file out of the way to resume it.`,
      });
    if ('bad' in latest) throw refuse(latest.bad);
    const { send, moving } = latest.line;
    if (send <= r.sends) {
      // The record holds it already (it was written before the log was emptied).
      this.intents.clear();
      return r;
    }
    if (r.status !== 'working' || r.moving !== null || r.order?.order_id !== moving.from_order_id || r.order.kind !== 'post' || moving.client_order_id !== chaseClientOrderId(r.id, send)) {
      throw refuse(`holds send ${send} (a re-price of order ${moving.from_order_id} to ${moving.to_price}) that the record (send ${r.sends}, order ${r.order?.order_id ?? 'none'}) cannot have sent`);
    }
    const at = Math.max(moving.sent_at, r.updated_at);
    const next = this.noteAt(at, `the re-price to ${px(moving.to_price)} (order ${moving.from_order_id}) was sent before the chase's record was written (the process stopped in between): settled from the service, never sent again`, (x) => ({ ...x, sends: send, moving }), 'attention');
    this.intents.clear();
    return next;
  }

  private onBook(e: ChaseBookEvent): void {
    if ('bad' in e) this.frozen = e.bad;
    else {
      this.frozen = null;
      this.book = e;
    }
    this.seq++;
    this.chaseOptions.onBook?.(e);
    this.wake();
  }

  private wake(): void {
    for (const w of this.wakers.splice(0)) w();
  }

  /** Waits `ms` on the service clock, cut short by a book message (or a stop). */
  private async sleepOrBook(ms: number): Promise<void> {
    await this.reserveNonce();
    if (this.seq !== this.seenSeq || this.stopRequested) return;
    const ac = new AbortController();
    await Promise.race([this.clock.sleep(Math.max(0, ms), ac.signal).catch(() => undefined), new Promise<void>((resolve) => this.wakers.push(resolve))]);
    ac.abort();
  }

  /**
   * A stop asked in this process: `cancel` ends the chase and cancels its order; `pause` (a chase has no
   * paused state: the app's "Stop, leave the order") ends it and leaves the order resting; `interrupt`
   * (Ctrl-C, the app letting go) stops chasing and keeps the chase to be resumed.
   */
  protected override async onStop(kind: StopKind, start: ChaseRecord): Promise<ChaseRecord> {
    const r = await this.settleInFlight(start);
    if (r.status !== 'working') return r;
    if (inFlight(r)) {
      // Not settled within the grace period: ending it now would act on an order that may have been
      // replaced. The chase is kept, and its resume settles what is in flight first.
      const what = r.moving ? `the re-price to ${px(r.moving.to_price)} (order ${r.moving.from_order_id})` : `the order at ${px(r.order!.price)}`;
      return this.note(`stopped chasing with ${what} not settled at the service ${Math.round(this.graceMs / 1000)} s after it was sent; nothing was cancelled: \`perps order chase --resume ${r.id}\` settles it (then stop it again)`, (x) => x, 'attention');
    }
    if (kind === 'cancel') return this.endAt(r, 'stopped', true);
    if (kind === 'pause') return this.endAt(r, 'stopped', false);
    const where = r.order?.order_id ? `order ${r.order.order_id} rests at ${px(r.order.price)}` : 'no order rests';
    return this.note(`stopped chasing: ${where}; \`perps order chase --resume ${r.id}\` chases again`, (x) => x, 'stopped');
  }

  /**
   * A stop acts on the order that rests now, never on one a re-price or a placement in flight is replacing:
   * what is in flight when the stop comes is settled first (its answer read, or looked up in order history),
   * looking again every PENDING_LOOK_MS on the service clock, which the stop does not cut short, for at most
   * the grace period. A Stop pressed as a Modify left otherwise cancelled the order it replaced and left the
   * new one resting, unfollowed.
   */
  private async settleInFlight(start: ChaseRecord): Promise<ChaseRecord> {
    let r = start;
    const deadline = (await this.now()) + this.graceMs;
    while (r.status === 'working' && inFlight(r)) {
      const step = r.moving ? await this.settleMoving(r) : await this.settlePlacing(r, r.order!);
      if ('done' in step) return step.done;
      r = this.record();
      if (!inFlight(r) || (await this.now()) >= deadline) break;
      await this.clock.sleep(PENDING_LOOK_MS);
    }
    return r;
  }

  // ---- one step -------------------------------------------------------------------------------------

  protected async step(start: ChaseRecord): Promise<AlgoStep<ChaseRecord>> {
    this.seenSeq = this.seq;
    let r = start;
    if (r.moving) return this.settleMoving(r);
    if (r.order && r.order.order_id === null) return this.settlePlacing(r, r.order);
    this.sayFrozen();
    const now = await this.now();
    const phase = chasePhase(r.started_at, now, r.timeout_ms, r.taker_after_ms);
    if (phase === 'timed_out') return { done: await this.endAt(r, 'timeout', r.on_limit === 'cancel') };
    const book = this.frozen === null ? this.book : null;

    // The reaction: a book that moved away re-prices the resting order from this wake-up.
    if (book && r.order?.kind === 'post' && phase === 'maker') {
      if (maxDistanceReached(r.side, r.max_distance, r.start_best, followedBest(r.side, book.best))) return { done: await this.endAt(r, 'max_distance', r.on_limit === 'cancel') };
      const target = chaseTarget(r.side, book.best, r.offset_ticks, this.market.tick_size);
      const oversized = new Decimal(r.order.size).gt(new Decimal(r.size).minus(r.filled_before));
      if (target !== null) {
        const d = repriceDecision(r.side, r.order.price, target, this.market.tick_size, now, r.last_move_at, r.interval_ms);
        if (d.move || oversized) return this.move(r, r.order, d.move ? d.to : r.order.price, book.receivedAt);
        if (d.why === 'too_soon') {
          await this.sleepOrBook(d.waitMs);
          return { wait: 0 };
        }
      }
    }

    if (r.order && now - this.lastRead >= this.pollMs) {
      const read = await this.readOrder(r, r.order);
      if ('done' in read) return read;
      r = read.record;
      // Over (placed again next), or a move found in flight (lostMove): the next step takes it up at once.
      if (!r.order || r.moving) return { wait: 0 };
    }

    if (!r.order) {
      if (chaseFilled(r).gte(r.size)) return { done: await this.finish('filled', `filled ${r.size} ${r.market}; the chase is done`) };
      // The first order was prepared (and reviewed) from the book the info API gave: it goes out at once.
      if (this.first !== null && r.sends === 0) return this.place(r, 'post', null);
      if (!book) {
        await this.sleepOrBook(this.pollMs);
        return { wait: 0 };
      }
      if (maxDistanceReached(r.side, r.max_distance, r.start_best, followedBest(r.side, book.best))) return { done: await this.endAt(r, 'max_distance', false) };
      return phase === 'taker' ? this.place(r, 'taker', book) : this.place(r, 'post', book);
    }
    if (phase === 'taker' && r.order.kind === 'post') return this.cancelToCross(r, r.order);
    const next = nextDeadlineIn(r.started_at, now, r.timeout_ms, r.taker_after_ms);
    await this.sleepOrBook(Math.min(this.pollMs, next ?? Infinity));
    return { wait: 0 };
  }

  /** Says once that the book froze the chase, and once that it thawed. */
  private sayFrozen(): void {
    if (this.frozen !== null && this.frozenSaid === null) {
      this.frozenSaid = this.frozen;
      void this.note(`the venue's book failed its check (${this.frozen}): frozen, nothing is sent until a good book comes`, (x) => x, 'attention');
    } else if (this.frozen === null && this.frozenSaid !== null && this.book) {
      this.frozenSaid = null;
      void this.note(`a good book again (best bid ${px(this.book.best.bid)}, ask ${px(this.book.best.ask)}): chasing`, (x) => x, 'attention');
    }
  }

  // ---- the re-price ---------------------------------------------------------------------------------

  /**
   * Re-prices the live order to `to` by one Modify, sized from the fill the service lists now. Its intent
   * is appended to the intent log just before it is sent (chaseIntentLog.ts) and written to the record,
   * fsynced, while it is in flight; the answer is acted on only once the record holds it.
   */
  private async move(r: ChaseRecord, o: ChaseOrder, to: string, bookReceivedAt: number): Promise<AlgoStep<ChaseRecord>> {
    const orderId = o.order_id!;
    const n = r.sends + 1;
    const clientOrderId = chaseClientOrderId(r.id, n);
    const believed = remainingSize(r.size, new Decimal(r.filled_before).plus(o.filled_size).toFixed());
    const sentAt = await this.now();
    const intent = (size: string): NonNullable<ChaseRecord['moving']> => ({ client_order_id: clientOrderId, from_order_id: orderId, to_price: to, size, sent_at: sentAt, new_order_id: null });
    // The fill as listed now is read while the Modify for what the runner believes is left is signed:
    // the read's round trip runs beside the signature.
    const reading = this.openRow(r, orderId);
    reading.catch(() => undefined);
    // One turn of the event loop: the read's request reaches the wire before the signature takes the
    // thread, so the service answers it while the Modify is signed.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const signed = await this.signModify(orderId, clientOrderId, to, believed);
    const row = await reading;
    if (!row) {
      // Not open (yet, or any more): how it stands is read, and the next look waits a moment.
      const read = await this.readOrder(r, o);
      if ('done' in read) return read;
      if (read.record.order) await this.sleepOrBook(PENDING_LOOK_MS);
      return { wait: 0 };
    }
    if (row.is_modifying) {
      await this.sleepOrBook(PENDING_LOOK_MS);
      return { wait: 0 };
    }
    const size = remainingSize(r.size, new Decimal(r.filled_before).plus(row.filled_size).toFixed());
    if (new Decimal(size).lte(0)) return stepOf(await this.readOrder(r, o));
    try {
      checkPriceAndSize(this.market, { size, limit_price: to, reduce_only: false, wholePosition: false }, 'chase');
    } catch (err) {
      const found = row;
      return { done: await this.finish('refused', `the remainder ${size} at ${px(to)} cannot be re-priced (${toAppError(err).message}); order ${orderId} rests at ${px(o.price)} and is no longer followed`, 'attention', (x) => this.withFill(x, found)) };
    }
    const body = size === believed ? signed : await this.signModify(orderId, clientOrderId, to, size);
    const filledNow = canonical(new Decimal(row.filled_size));
    const fillNote = filledNow === o.filled_size ? null : `order ${orderId} filled ${filledNow} of ${o.size}; chasing the remainder ${size}`;
    // The intent, in one append to a file already open, before the Modify goes out: a kill -9 from here
    // on finds it (in the page cache) and the move is settled from the service, never sent again.
    this.intents.append({ send: n, moving: intent(size) });
    const sending = explainingForbidden(this.ctx, { wallet: r.wallet, agent: this.signer.address }, () => this.ctx.api.modify(orderId, body));
    const handedAt = performance.now();
    // The record with the intent (and the fill the read found), atomic and fsynced on the thread pool
    // while the Modify is in flight; awaited before its answer, or its failure, is acted on.
    // After a turn of the event loop, so the Modify reaches the wire before the record's check and text.
    const found = row;
    const recorded = new Promise<void>((resolve) => setImmediate(resolve)).then(
      () => this.updateBeside((x) => ({ ...this.withFill(x, found), sends: n, moving: intent(size), notes: fillNote ? withAlgoNote(x.notes, sentAt, fillNote) : x.notes })).written,
    );
    recorded.catch(() => undefined); // awaited below, on every path
    if (fillNote) this.emit('acted', fillNote, sentAt);
    this.emit('acted', `re-pricing ${px(o.price)} -> ${px(to)}: Modify of order ${orderId} sent (${size} ${r.market})`, sentAt);
    let res;
    try {
      res = await sending;
    } catch (err) {
      await this.recorded(recorded);
      const outcome = writeOutcome(err);
      if (outcome === 'bug') throw err;
      if (outcome === 'may_have_landed') return { wait: 0 }; // settled from the service on the next step
      await this.note(`the re-price to ${px(to)} was refused: ${toAppError(err).message}`, (x) => ({ ...x, moving: null }), 'attention');
      return { wait: 0 };
    }
    const answeredAt = performance.now();
    await this.recorded(recorded);
    this.chaseOptions.onReaction?.({ bookReceivedAt, sentAt: handedAt, answeredAt, price: to });
    if (res.status === 'REJECTED') {
      // Refused outright (the order filled or ended meanwhile, a rule): nothing changed; its state is read next.
      this.lastRead = -Infinity;
      await this.note(`the re-price to ${px(to)} was refused (${res.reason ?? 'no reason given'}); order ${orderId} stays as it is`, (x) => ({ ...x, moving: null }), 'attention');
      return { wait: 0 };
    }
    this.update((x) => (x.moving?.client_order_id === clientOrderId ? { ...x, moving: { ...x.moving, new_order_id: res.order_id } } : x));
    return { wait: 0 };
  }

  /** Awaits the record's write of a sent intent; once it is on disk (fsynced) the intent log is emptied. */
  private async recorded(written: Promise<void>): Promise<void> {
    await written;
    this.intents.clear();
  }

  /** The signed Modify body of `orderId` to `price` and `size`. */
  private async signModify(orderId: string, clientOrderId: string, price: string, size: string) {
    const spare = this.spareNonce;
    this.spareNonce = null;
    const nonce = String(spare !== null && Date.now() - spare.at < SPARE_NONCE_MS ? spare.value : await this.ctx.nonces.next(this.wallet));
    const fields = { account_id: this.accountId, client_order_id: clientOrderId, limit_price: price, size, trigger_price: '0', nonce };
    const signature = await this.signer.signTypedData(modifyTypedData(orderId, fields, this.ctx.profile.network));
    return { ...fields, signature };
  }

  /**
   * Takes the next Modify's nonce while the chase waits for a book message, so the re-price does not
   * wait for one: the nonce source now and then takes a new lease of nonces under a file lock, with an
   * fsync (1 s of nonces a lease), which would otherwise land on a re-price's path. A nonce is only a
   * single-use, increasing Unix-ms stamp (the spec: "Signing rules"), so one taken a moment early is as
   * good; one older than SPARE_NONCE_MS is not used (a fresh one is taken at the send).
   */
  private async reserveNonce(): Promise<void> {
    if (this.spareNonce !== null && Date.now() - this.spareNonce.at < SPARE_NONCE_MS / 2) return;
    this.spareNonce = { value: await this.ctx.nonces.next(this.wallet), at: Date.now() };
  }

  /** The live order's open-orders row (null: it is not open any more). */
  private async openRow(r: ChaseRecord, orderId: string): Promise<ListedOrder | null> {
    const page = await this.ctx.api.openOrders({ wallet: r.wallet, market: r.market, limit: 200 });
    return page.orders.find((o) => o.order_id === orderId) ?? null;
  }

  /** The record with the live order's fill as `row` lists it. */
  private withFill(r: ChaseRecord, row: ListedOrder): ChaseRecord {
    if (!r.order || r.order.order_id !== row.order_id) return r;
    return { ...r, order: { ...r.order, filled_size: canonical(new Decimal(row.filled_size)) } };
  }

  /** A Modify written as `moving`: its new order read (applied, dropped, rejected), or looked up after a lost answer. */
  private async settleMoving(r: ChaseRecord): Promise<AlgoStep<ChaseRecord>> {
    const m = r.moving!;
    let newId = m.new_order_id;
    if (newId === null) {
      const hit = await this.settleLostAnswer(m.sent_at + this.graceMs, () =>
        findSentOrder(this.ctx, {
          wallet: r.wallet,
          market: r.market,
          clientOrderId: m.client_order_id,
          sentAt: m.sent_at,
          claimed: new Set([m.from_order_id]),
          matches: (row) => row.order_type === 'LIMIT' && row.side === r.side.toLowerCase() && new Decimal(row.limit_price).eq(m.to_price) && new Decimal(row.size).eq(m.size),
        }),
      );
      if (hit === null) {
        this.lastRead = -Infinity;
        await this.note(`the re-price to ${px(m.to_price)} is not in order-history ${Math.round(this.graceMs / 1000)} s after it was sent: it never reached the service; order ${m.from_order_id} stays`, (x) => ({ ...x, moving: null }), 'attention');
        return { wait: 0 };
      }
      if ('ambiguous' in hit) throw new OperationError('CHASE_AMBIGUOUS', `the re-price to ${m.to_price} cannot be told from ${hit.ambiguous.length} identical orders in order-history; nothing more is sent for chase ${r.id}`, { hint: "Check the account's open orders, cancel what should not rest, then resume it." });
      newId = hit.order_id;
      await this.note(`the re-price to ${px(m.to_price)} is order ${hit.order_id}, found in order-history (its answer was lost)`, (x) => ({ ...x, moving: x.moving ? { ...x.moving, new_order_id: hit.order_id } : null }), 'attention');
    }
    const rec = await this.ctx.api.order(newId);
    if (rec.status === 'PENDING_MODIFY' || rec.status === 'SUBMITTED') {
      await this.sleepOrBook(PENDING_LOOK_MS);
      return { wait: 0 };
    }
    this.lastRead = -Infinity;
    if (rec.status === 'CANCELLED' && rec.reason !== null && rec.reason !== undefined && DROPPED.has(rec.reason)) {
      await this.note(`the re-price to ${px(m.to_price)} was dropped by the service (${rec.reason}); order ${m.from_order_id} stays`, (x) => ({ ...x, moving: null }), 'attention');
      return { wait: 0 };
    }
    // The order it replaced: its fill is this chase's, whatever became of the new one.
    const old = await latestHistoryRow(this.ctx, r.wallet, r.market, m.from_order_id, r.created_at);
    if (old && !OVER.has(old.status)) {
      // Not applied and the original still rests (a rejection the service gave without ending it).
      await this.note(`the re-price to ${px(m.to_price)} did not apply (${rec.status}${rec.reason ? `, ${rec.reason}` : ''}); order ${m.from_order_id} stays`, (x) => ({ ...x, moving: null }), 'attention');
      return { wait: 0 };
    }
    const oldFilled = old ? canonical(new Decimal(old.filled_size)) : (r.order?.filled_size ?? '0');
    const settled = (x: ChaseRecord): ChaseRecord => ({ ...x, filled_before: canonical(new Decimal(x.filled_before).plus(oldFilled)), moving: null, moves: x.moves + 1, last_move_at: m.sent_at });
    if (rec.status === 'REJECTED' || rec.status === 'CANCELLED' || rec.status === 'FAILED') {
      if (rec.reason === 'post_only_would_take') this.rejected = { price: m.to_price, at: performance.now() };
      const text = rec.reason === 'post_only_would_take' ? `the re-price to ${px(m.to_price)} was rejected post-only (the book moved through it): re-pricing at once` : `the re-price to ${px(m.to_price)} ended ${rec.status}${rec.reason ? ` (${rec.reason})` : ''}: placing the remainder again`;
      await this.note(text, (x) => ({ ...settled(x), order: null }), 'acted');
      return { wait: 0 };
    }
    // The new order was just read (live, nothing filled yet) and the old one's fill from history: that is
    // this step's read of the order, so the next book is answered at once instead of after another read.
    this.lastRead = await this.now();
    await this.note(`moved ${px(r.order?.price ?? m.to_price)} -> ${px(m.to_price)} as order ${newId}`, (x) => ({ ...settled(x), order: { order_id: newId, client_order_id: m.client_order_id, price: m.to_price, size: m.size, kind: 'post', filled_size: '0', sent_at: m.sent_at } }), 'acted');
    return { wait: 0 };
  }

  // ---- placing an order -----------------------------------------------------------------------------

  /** Places the next order: post-only at the target, or (crossing) an IOC within the market's slippage bound. Written before it is sent. */
  private async place(r: ChaseRecord, kind: 'post' | 'taker', book: { best: BestPrices; receivedAt: number } | null): Promise<AlgoStep<ChaseRecord>> {
    const size = remainingSize(r.size, r.filled_before);
    let price: string;
    if (book === null) {
      if (this.first === null) throw new OperationError('CHASE_NO_BOOK', 'no book to price the order on', { kind: 'internal' });
      price = this.first.order.legs[0]!.limit_price;
    } else if (kind === 'post') {
      const target = chaseTarget(r.side, book.best, r.offset_ticks, this.market.tick_size);
      // The same price on the book the venue just refused it on would be refused again: wait for the next book.
      if (target === null || (this.rejected && this.rejected.price === target && book.receivedAt <= this.rejected.at) || wouldTake(r.side, target, book.best)) {
        await this.sleepOrBook(this.pollMs);
        return { wait: 0 };
      }
      price = target;
    } else {
      // The market order's bound, as the service measures it: the mark and the market's slippage_bps.
      price = canonical(slippageBound(r.side, await readMark(this.ctx, this.market), this.market.slippage_bps, this.market));
    }
    const n = r.sends + 1;
    const clientOrderId = chaseClientOrderId(r.id, n);
    const first = this.first !== null && r.sends === 0 ? this.first.order : null;
    this.first = null;
    let prepared: PreparedOrder;
    try {
      prepared =
        first ??
        (await prepareLegs(this.ctx, {
          wallet: r.wallet,
          legs: [{ market: r.market, side: r.side, size, order_type: 'LIMIT', limit_price: price, time_in_force: kind === 'post' ? 'ALO' : 'IOC', client_order_id: clientOrderId, leverage: r.leverage }],
          labels: ['chase'],
          kind: 'chase',
        }));
    } catch (err) {
      if (toAppError(err).kind !== 'validation') throw err;
      return { done: await this.finish('refused', `the ${kind === 'post' ? 'order' : 'crossing order'} for the remainder ${size} at ${px(price)} is refused: ${toAppError(err).message}`, 'failed') };
    }
    const leg = prepared.legs[0]!;
    const sentAt = await this.now();
    const order: ChaseOrder = { order_id: null, client_order_id: leg.client_order_id, price: leg.limit_price, size: leg.size, kind, filled_size: '0', sent_at: sentAt };
    this.update((x) => ({ ...x, sends: n, order }));
    let placed;
    try {
      placed = await submitOrder(this.ctx, prepared, this.signer, { wait: false });
    } catch (err) {
      const outcome = writeOutcome(err);
      if (outcome === 'bug') throw err;
      if (outcome === 'may_have_landed') return { wait: 0 };
      return { done: await this.finish('refused', `the order at ${px(order.price)} was refused: ${toAppError(err).message}`, 'failed', (x) => ({ ...x, order: null })) };
    }
    const p = placed.legs[0]!;
    if (p.status === 'UNKNOWN' || p.order_id === null) return { wait: 0 };
    if (p.status === 'REJECTED') {
      if (p.reason === 'post_only_would_take') {
        this.rejected = { price: order.price, at: performance.now() };
        await this.note(`the order at ${px(order.price)} was rejected post-only: re-pricing at once`, (x) => ({ ...x, order: null }), 'acted');
        return { wait: 0 };
      }
      return { done: await this.finish('refused', `the order at ${px(order.price)} was rejected (${p.reason ?? 'no reason given'})`, 'failed', (x) => ({ ...x, order: null })) };
    }
    this.lastRead = -Infinity;
    const what = kind === 'post' ? `post-only ${r.side.toLowerCase()} ${leg.size} at ${px(order.price)}` : `crossing: IOC ${r.side.toLowerCase()} ${leg.size} within ${px(order.price)}`;
    await this.note(`${what} as order ${p.order_id}`, (x) => ({ ...x, order: { ...order, order_id: p.order_id } }), 'acted');
    return { wait: 0 };
  }

  /** An order written before it was sent, whose answer was lost: looked up in order-history, or never sent. */
  private async settlePlacing(r: ChaseRecord, o: ChaseOrder): Promise<AlgoStep<ChaseRecord>> {
    const hit = await this.settleLostAnswer(o.sent_at + this.graceMs, () =>
      findSentOrder(this.ctx, {
        wallet: r.wallet,
        market: r.market,
        clientOrderId: o.client_order_id,
        sentAt: o.sent_at,
        claimed: new Set(),
        matches: (row) => row.order_type === 'LIMIT' && row.side === r.side.toLowerCase() && new Decimal(row.limit_price).eq(o.price) && new Decimal(row.size).eq(o.size),
      }),
    );
    if (hit === null) {
      await this.note(`the order at ${px(o.price)} is not in order-history ${Math.round(this.graceMs / 1000)} s after it was sent: it never reached the service`, (x) => ({ ...x, order: null }), 'attention');
      return { wait: 0 };
    }
    if ('ambiguous' in hit) throw new OperationError('CHASE_AMBIGUOUS', `the order at ${o.price} cannot be told from ${hit.ambiguous.length} identical orders in order-history; nothing more is sent for chase ${r.id}`, { hint: "Check the account's open orders, cancel what should not rest, then resume it." });
    this.lastRead = -Infinity;
    await this.note(`the order at ${px(o.price)} is order ${hit.order_id}, found in order-history`, (x) => ({ ...x, order: x.order ? { ...x.order, order_id: hit.order_id } : null }), 'attention');
    return { wait: 0 };
  }

  // ---- the order's state ----------------------------------------------------------------------------

  /** Reads the live order as the service lists it: its fill, or how it ended (and then what the chase does next). */
  private async readOrder(r: ChaseRecord, o: ChaseOrder): Promise<ReadResult> {
    const orderId = o.order_id!;
    this.lastRead = await this.now();
    const row = await this.openRow(r, orderId);
    if (row) {
      const filled = canonical(new Decimal(row.filled_size));
      if (filled === o.filled_size) return { record: r };
      const next = await this.note(`order ${orderId} filled ${filled} of ${o.size}; chasing the remainder ${remainingSize(r.size, new Decimal(r.filled_before).plus(filled).toFixed())}`, (x) => this.withFill(x, row), 'acted');
      return { record: next };
    }
    const last = await latestHistoryRow(this.ctx, r.wallet, r.market, orderId, o.sent_at);
    const now = await this.now();
    if (!last || !OVER.has(last.status)) {
      // Orders persist asynchronously: not listed yet is not gone.
      if (now - o.sent_at < this.graceMs) return { record: r };
      return { done: await this.finish('order_gone', `order ${orderId} is neither open nor over at the service ${Math.round(this.graceMs / 1000)} s after it was sent; nothing more is sent`, 'failed') };
    }
    const filled = canonical(new Decimal(last.filled_size));
    const over = (x: ChaseRecord): ChaseRecord => ({ ...x, filled_before: canonical(new Decimal(x.filled_before).plus(filled)), order: null, cancel_sent_at: null });
    const total = new Decimal(r.filled_before).plus(filled);
    if (total.gte(r.size)) return { done: await this.finish('filled', `filled ${r.size} ${r.market} (order ${orderId}${last.avg_fill_price ? ` at ${px(last.avg_fill_price)}` : ''}); the chase is done`, 'stopped', over) };
    if (o.kind === 'taker') {
      if (new Decimal(filled).isZero()) return { done: await this.finish('taker_unfilled', `the crossing order ${orderId} found nothing to take within ${px(o.price)} (${last.reason ?? last.status}); ${canonical(total)} of ${r.size} filled`, 'attention', over) };
      return { record: await this.note(`the crossing order ${orderId} filled ${filled}; crossing again for the remainder ${remainingSize(r.size, total.toFixed())}`, over, 'acted') };
    }
    if (last.status === 'rejected' && last.reason === 'post_only_would_take') {
      this.rejected = { price: o.price, at: performance.now() };
      return { record: await this.note(`order ${orderId} at ${px(o.price)} was rejected post-only (the book moved through it): re-pricing at once`, over, 'acted') };
    }
    if (r.cancel_sent_at !== null && last.status !== 'rejected') return { record: this.update(over) };
    if (o.kind === 'post' && (last.status === 'cancelled' || last.status === 'partially_filled_cancelled')) {
      const lost = await this.lostMove(r, o, last);
      if (lost) return { record: lost };
    }
    // A post order that ended unexplained may have been the Modify of a re-price lost to a power loss on a
    // service whose history names no client order id (lostMove): the person is told where to look.
    const look = o.kind === 'post' ? `; if this machine lost power during a re-price, its new order may rest unfollowed: see ${r.market}'s open orders` : '';
    return { done: await this.finish('order_gone', `order ${orderId} ended at the service without this chase (${last.status}${last.reason ? `, ${last.reason}` : ''}); ${canonical(total)} of ${r.size} filled; nothing more is sent${look}`, 'attention', over) };
  }

  /**
   * The live order ended without this chase, and order-history holds a later send of this chase (its
   * client order id, chase-<id>-<n>, with n past the live order's): the Modify of the live order that
   * went out while its intent, appended to the log but not yet fsynced, was lost to a power loss (see the
   * module comment). It is taken up as the move in flight and settled like any other (its new order read,
   * the replaced order's fill counted); never sent again. Found by client order id only: without one on
   * the rows (the spec lists none) its price and size are unknown and a look-alike placed by hand is never
   * claimed, so the chase then stops as "ended without this chase" and says so.
   */
  private async lostMove(r: ChaseRecord, o: ChaseOrder, ended: ListedOrder): Promise<ChaseRecord | null> {
    const ours = (cloid: string | undefined): number | null => {
      const m = cloid === undefined ? null : /^chase-([0-9a-f]{12})-([1-9]\d{0,8})$/.exec(cloid);
      return m && m[1] === r.id ? Number(m[2]) : null;
    };
    const from = ours(o.client_order_id) ?? 0;
    const since = o.sent_at - SENT_SLACK_MS;
    let row: ListedOrder | undefined;
    for await (const x of historyRowsSince(this.ctx, r.wallet, r.market, since)) {
      // Newest first: the first row of a later send is its latest state.
      if (x.order_id !== o.order_id && (ours(x.client_order_id) ?? 0) > from && x.submitted_at >= since) {
        row = x;
        break;
      }
    }
    if (row === undefined) return null;
    const found = row;
    const n = ours(found.client_order_id)!;
    return this.note(
      `order ${o.order_id} ended (${ended.status}) and order ${found.order_id} in order-history carries this chase's client order id ${found.client_order_id}: a re-price to ${px(found.limit_price)} whose record did not reach the disk (a power loss); settled from the service, never sent again`,
      (x) => ({
        ...x,
        sends: Math.max(x.sends, n),
        moving: { client_order_id: found.client_order_id!, from_order_id: o.order_id!, to_price: canonical(new Decimal(found.limit_price)), size: canonical(new Decimal(found.size)), sent_at: Math.max(o.sent_at, found.submitted_at), new_order_id: found.order_id },
      }),
      'attention',
    );
  }

  // ---- cancels and the end --------------------------------------------------------------------------

  /** Cancels the live order (written before it is sent) and reads how it ended. */
  private async cancelLive(r: ChaseRecord, o: ChaseOrder): Promise<ChaseRecord> {
    const now = await this.now();
    const x = this.update((y) => ({ ...y, cancel_sent_at: now }));
    try {
      const prepared = await prepareCancelOrders(this.ctx, { wallet: r.wallet, targets: [{ order_id: o.order_id!, order_type: 'LIMIT' }] });
      await submitCancel(this.ctx, prepared, this.signer, { confirm: true });
    } catch (err) {
      // Not open any more (it filled or ended): how it ended is read below.
      if (toAppError(err).kind !== 'validation') throw err;
    }
    const read = await this.readOrder(x, o);
    return 'done' in read ? read.done : read.record;
  }

  /** Before crossing: the resting order is cancelled and confirmed gone, so two orders never work at once. */
  private async cancelToCross(r: ChaseRecord, o: ChaseOrder): Promise<AlgoStep<ChaseRecord>> {
    await this.note(`crossing after ${Math.round(r.taker_after_ms! / 1000)} s: cancelling order ${o.order_id} at ${px(o.price)} first`, (x) => x, 'acted');
    const x = await this.cancelLive(r, o);
    if (x.status !== 'working') return { done: x };
    if (x.order) {
      await this.sleepOrBook(this.pollMs);
    }
    return { wait: 0 };
  }

  /** The end at a limit (max distance, timeout) or a stop: the order is left or cancelled, as chosen. */
  private async endAt(r: ChaseRecord, reason: 'max_distance' | 'timeout' | 'stopped', cancel: boolean): Promise<ChaseRecord> {
    const why = reason === 'max_distance' ? `the best price is ${r.max_distance!.kind === 'percent' ? `${r.max_distance!.value}%` : r.max_distance!.value} or more from where it started (${px(r.start_best)})` : reason === 'timeout' ? `the timeout (${Math.round(r.timeout_ms! / 1000)} s) passed` : 'stopped';
    let x = r;
    if (cancel && x.order?.order_id) {
      x = await this.cancelLive(x, x.order);
      if (x.status !== 'working') return x;
    }
    const filled = canonical(chaseFilled(x));
    const left = x.order?.order_id ? `order ${x.order.order_id} rests at ${px(x.order.price)} (left, as --on-limit leave asks)` : cancel && r.order ? `order ${r.order.order_id} cancelled` : 'no order rests';
    return await this.finish(reason, `${why}: the chase is over; ${left}; ${filled} of ${x.size} filled`, 'stopped');
  }

  /** Ends the chase (on the service clock), with `change` in the same write. */
  private async finish(reason: ChaseEndReason, text: string, type: AlgoEventType = 'stopped', change: (x: ChaseRecord) => ChaseRecord = (x) => x): Promise<ChaseRecord> {
    const at = await this.now();
    const next = this.update((x) => ({ ...change(x), status: 'done', end_reason: reason, moving: null, cancel_sent_at: null, notes: withAlgoNote(x.notes, at, text) }));
    this.emit(type, text, at);
    return next;
  }
}

/**
 * The TWAP scheduler: one per running TWAP, the same for the app (src/main/app/desks/twapDesk.ts runs it
 * in main) and the command line (`perps twap start|resume` runs it in the foreground).
 *
 * Each slice is a MARKET IOC order bounded by the mark at its own time (prepared then, through the same
 * prepare step as every order: rules, balance, nonce, exact typed data), optionally reduce-only. What
 * makes a crash or a restart safe is the order of writes:
 *
 *  1. before a slice's order is sent, the slice is written as `sending` (client order id, size, bound,
 *     nonce) to the TWAP's file in the data folder (atomic, 0600);
 *  2. the order is sent once (the API client resends only the identical bytes, which the nonce makes
 *     land at most once); its order id is written as `sent`; it is followed to its outcome, which is
 *     written with its fills;
 *  3. on a resume, a `sending` slice is looked up by its client order id in order-history before
 *     anything else happens: found, it is followed as if the answer had come; not found within the
 *     grace period, it never reached the service (`unsent`). A `pending` slice was never sent. So no
 *     slice is sent twice and none is forgotten.
 *
 * Slices are never sent in a burst: when the runner starts (a start, a resume), slices whose time passed
 * more than half an interval ago become `missed`; while it runs, a slice that comes due together with the
 * next one (the process was suspended, the service was unreachable) is `missed` too and only the latest
 * is sent. Missed slices are listed in the TWAP's notes; their size is not made up later.
 *
 * It stops when the target is filled (for a reduce-only TWAP: also when the position is closed), when
 * every slice is done, on cancel, or when a slice is rejected for a reason that will not change
 * (twapRejections.ts), which the TWAP then names. One process runs a TWAP at a time (twapLock.ts); a
 * pause or cancel asked by another process is written into the file and read before each slice.
 *
 * The lifecycle (claim, run once, stop ranking, waits on the service clock, stamped notes, the lost-answer
 * loop) is the algorithms' engine (../engine): this file is the TWAP's `begin` (settle what was in flight,
 * mark what was missed) and `step` (one slice, or a wait for the next). Its typed events: a slice sent or
 * filled is `acted`; a pause (asked, or by a risk limit: reason `risk_limit`) is `paused`; completed,
 * cancelled and let go (interrupted) are `stopped`; failed and over target are `failed`; missed slices, a
 * slice refused or not found, an order still unfinished are `attention`.
 */
import { randomBytes } from 'node:crypto';
import { Decimal, canonical } from '../../../../shared/decimal/index.js';
import type { TrackedOrder } from '../../orders/orderTracker.js';
import { OrderTracker, untilTerminal } from '../../orders/orderTracker.js';
import type { TradingContext } from '../../orders/orderContext.js';
import { prepareLegs } from '../../orders/prepareOrder.js';
import { submitOrder } from '../../orders/submitOrder.js';
import { OperationError, toAppError } from '../../errors.js';
import { isTransientFailure } from '../../../api/errors.js';
import { serviceAlgoClock, type AlgoClock } from '../algoClock.js';
import { AlgoRunner, writeOutcome, type AlgoEventType, type AlgoRunnerOptions, type AlgoStep, type StopKind } from '../engine/index.js';
import { fillsOfOrder, findSliceOrder, twapSentAtService } from './sliceLookup.js';
import { TWAP_NAMING, acquireRunLock, type RunLock } from './twapLock.js';
import type { TwapPlan } from './twapPlan.js';
import { sliceLeg } from './twapPlan.js';
import { isTerminalTwap, pendingSliceRecord, sliceInFlight, type TwapRecord, type TwapSliceRecord, type TwapStopReason } from './twapRecord.js';
import { explainStop, isMomentaryRejection } from './twapRejections.js';
import { TwapStore, type TwapSummary } from './twapStore.js';
import { twapTotals } from './twapView.js';

export type { StopKind } from '../engine/index.js';

/** The TWAP's time: the service's clock (slice times are judged by it), and a wait on it. */
export type TwapClock = AlgoClock;

/** The service clock of a context, never running backwards (algos/algoClock.ts). */
export const serviceTwapClock = serviceAlgoClock;

export interface TwapRunnerOptions extends AlgoRunnerOptions<TwapRecord> {
  /** How a slice's order is followed to its outcome at a time. Default 60 s. */
  followTimeoutMs?: number;
}

export function newTwapId(): string {
  return randomBytes(6).toString('hex');
}

export function twapStoreOf(ctx: Pick<TradingContext, 'profile'>): TwapStore {
  return new TwapStore(ctx.profile.dataDir);
}

/** Creates the TWAP (its lock first, so it is never seen running without a process) and returns its runner. */
export async function startTwap(ctx: TradingContext, plan: TwapPlan, options: TwapRunnerOptions & { allowLarge?: boolean; store?: TwapStore } = {}): Promise<TwapRunner> {
  const store = options.store ?? twapStoreOf(ctx);
  const clock = options.clock ?? serviceTwapClock(ctx);
  const id = newTwapId();
  const lock = acquireRunLock(store.dir, id);
  try {
    const start = await clock.now();
    const record: TwapRecord = {
      version: 1,
      id,
      profile: ctx.profile.name,
      wallet: plan.wallet,
      market: plan.market.symbol,
      side: plan.side,
      total_size: plan.totalSize,
      reduce_only: plan.reduceOnly,
      slippage_bps: plan.slippageBps,
      leverage: plan.leverage,
      duration_ms: plan.durationMs,
      interval_ms: plan.intervalMs,
      randomize_time_pct: plan.randomizeTimePct,
      randomize_size_pct: plan.randomizeSizePct,
      seed: plan.seed,
      arrival_mark: canonical(plan.arrivalMark),
      allow_large: options.allowLarge === true,
      created_at: start,
      status: 'running',
      requested: null,
      stop_reason: null,
      stop_detail: null,
      slices: plan.schedule.map((s) => pendingSliceRecord(id, s.index, start + s.offset_ms, s.size)),
      notes: [],
      updated_at: start,
    };
    store.create(record);
    return new TwapRunner(ctx, store, id, { ...options, clock }, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** A runner for a TWAP already stored (resume after a pause or an interruption). */
export function openTwapRunner(ctx: TradingContext, id: string, options: TwapRunnerOptions & { store?: TwapStore } = {}): TwapRunner {
  const store = options.store ?? twapStoreOf(ctx);
  const r = store.require(id, ctx.profile.name);
  if (isTerminalTwap(r.status)) {
    throw new OperationError('TWAP_FINISHED', `TWAP ${id} is ${r.status}${r.stop_detail ? `: ${r.stop_detail}` : ''}; it cannot be resumed`, { hint: 'Start a new TWAP for what is left.' });
  }
  return new TwapRunner(ctx, store, id, options, null);
}

/**
 * How a TWAP's note starts when a risk limit paused it. Front ends decide from the typed event
 * (`paused` with reason RISK_PAUSE_REASON), never from this text.
 */
export const RISK_PAUSE_NOTE = 'paused by a risk limit';

/** The reason of the `paused` event a risk limit raises (a pause that was asked has reason `requested`). */
export const RISK_PAUSE_REASON = 'risk_limit';

/** A slice's reason when its order cannot be told from look-alikes in history (rows without client order ids). */
export const SLICE_ORDER_AMBIGUOUS = 'order_ambiguous';

/** A slice resolveSending settled as failed because its order could not be told from look-alikes. */
function settledAmbiguous(s: TwapSliceRecord): boolean {
  return s.status === 'failed' && s.reason === SLICE_ORDER_AMBIGUOUS;
}

function ambiguityDetail(slice: number, total: number): string {
  return `slice ${slice}/${total}: its order cannot be told from another identical order in order-history (the service lists no client order ids); the TWAP stopped so nothing is sent twice or counted wrong. Check the account's order history.`;
}

/** The record with slice `index` patched. */
function withSlice(index: number, patch: Partial<TwapSliceRecord>): (r: TwapRecord) => TwapRecord {
  return (r) => ({ ...r, slices: r.slices.map((s) => (s.index === index ? { ...s, ...patch } : s)) });
}

type SliceOutcome = { stop: null } | { stop: 'risk_paused'; detail: string } | { stop: 'completed'; reason: TwapStopReason; detail: string } | { stop: 'failed' | 'over_target'; detail: string } | { stop: 'retry' };

export class TwapRunner extends AlgoRunner<TwapRecord, TwapSummary> {
  declare readonly store: TwapStore;
  private readonly followTimeoutMs: number;
  private readonly tracker: OrderTracker;

  constructor(ctx: TradingContext, store: TwapStore, id: string, options: TwapRunnerOptions, lock: RunLock | null) {
    super(ctx, store, id, 'twap', TWAP_NAMING, options, lock);
    this.followTimeoutMs = options.followTimeoutMs ?? 60_000;
    const r = store.require(id, ctx.profile.name);
    this.eventMarket = r.market;
    this.tracker = new OrderTracker({ api: ctx.api, wallet: r.wallet, sleep: (ms, signal) => this.clock.sleep(ms, signal) });
  }

  // ---- what the engine asks of a TWAP ----------------------------------------------------------------

  protected isActive(r: TwapRecord): boolean {
    return r.status === 'running';
  }

  /** A pause or cancel asked by another process (or the app) is written into the record. */
  protected override requestedInRecord(r: TwapRecord): StopKind | null {
    return r.requested;
  }

  /** Running again: what was in flight is settled (never resent), and slices whose time passed are missed. */
  protected override async begin(): Promise<{ record: TwapRecord } | { done: TwapRecord }> {
    let r = this.update((x) => ({ ...x, status: 'running', requested: null }));
    r = await this.reconcileInFlight(r);
    const stopped = await this.stoppedOnAmbiguity(r);
    if (stopped) return { done: stopped };
    return { record: this.markOverdue(r, await this.clock.now(), true) };
  }

  /** One turn: settle what is in flight, or end, or wait for the next slice, or send it. */
  protected async step(r: TwapRecord): Promise<AlgoStep<TwapRecord>> {
    if (r.slices.some(sliceInFlight)) {
      const settled = await this.reconcileInFlight(r);
      const stopped = await this.stoppedOnAmbiguity(settled);
      return stopped ? { done: stopped } : { wait: 0 };
    }
    const { filled } = twapTotals(r);
    if (filled.gte(r.total_size)) return { done: await this.complete('target_reached', `filled ${canonical(filled)} of ${r.total_size}`) };
    const next = r.slices.find((s) => s.status === 'pending');
    if (!next) return { done: await this.complete('schedule_done', `every slice is done; filled ${canonical(filled)} of ${r.total_size}`) };
    const now = await this.clock.now();
    if (now < next.due_at) return { wait: Math.min(next.due_at - now, this.pollMs) };
    const after = this.markOverdue(r, now, false);
    if (after !== r) return { wait: 0 };
    const outcome = await this.executeSlice(r, next);
    if (outcome.stop === 'retry') return { wait: this.pollMs };
    if (outcome.stop === 'completed') return { done: await this.complete(outcome.reason, outcome.detail) };
    if (outcome.stop === 'failed') return { done: await this.end('failed', 'rejected', outcome.detail) };
    if (outcome.stop === 'over_target') return { done: await this.end('failed', 'over_target', outcome.detail) };
    if (outcome.stop === 'risk_paused') return { done: await this.note(outcome.detail, (x) => ({ ...x, status: 'paused', requested: null }), 'paused', RISK_PAUSE_REASON) };
    return { wait: 0 };
  }

  /** A stop asked here or through the record: cancel ends it, pause pauses it, letting go leaves it to be resumed. */
  protected override async onStop(kind: StopKind): Promise<TwapRecord> {
    if (kind === 'cancel') return this.end('cancelled', 'cancelled', 'cancelled before its next slice');
    if (kind === 'pause') return this.note('paused', (x) => ({ ...x, status: 'paused', requested: null }), 'paused', 'requested');
    // Let go: the record stays `running` and, with its lock released, reads as interrupted (a decision is needed).
    return this.note('interrupted: its process stopped running it', (x) => ({ ...x, requested: null }), 'stopped', 'interrupted');
  }

  // ---- the TWAP's own rules --------------------------------------------------------------------------

  /** Writes a slice's change with a note (stamped) and says it as an event of `type`. */
  private noteSlice(index: number, patch: Partial<TwapSliceRecord>, text: string, type: AlgoEventType, reason?: string): Promise<TwapRecord> {
    return this.note(text, withSlice(index, patch), type, reason);
  }

  private label(r: TwapRecord, s: TwapSliceRecord): string {
    return `slice ${s.index + 1}/${r.slices.length}`;
  }

  /**
   * Pending slices that can no longer go on time become missed: at a (re)start, those due more than half
   * an interval ago; while running, every due slice but the latest (no bursts).
   */
  private markOverdue(r: TwapRecord, now: number, starting: boolean): TwapRecord {
    const due = r.slices.filter((s) => s.status === 'pending' && s.due_at <= now);
    const grace = Math.floor(r.interval_ms / 2);
    const missed = starting ? due.filter((s) => s.due_at < now - grace) : due.slice(0, -1);
    if (missed.length === 0) return r;
    const ids = new Set(missed.map((s) => s.index));
    const why = starting ? 'the TWAP was not running when they were due' : 'they came due together with a later slice';
    const note = `missed ${missed.map((s) => `slice ${s.index + 1}`).join(', ')} (${missed.length === 1 ? 'due' : 'due from'} ${new Date(missed[0]!.due_at).toISOString()}): ${why}; not sent late, not made up`;
    return this.noteAt(now, note, (x) => ({ ...x, slices: x.slices.map((s) => (ids.has(s.index) && s.status === 'pending' ? { ...s, status: 'missed', reason: starting ? 'not_running' : 'overdue' } : s)) }), 'attention', 'slices_missed');
  }

  private complete(reason: TwapStopReason, detail: string): Promise<TwapRecord> {
    return this.end('completed', reason, detail);
  }

  /** Ends the TWAP: completed and cancelled are `stopped` events, failed is `failed`; the stop reason goes with it. */
  private end(status: 'completed' | 'cancelled' | 'failed', reason: TwapStopReason, detail: string): Promise<TwapRecord> {
    return this.note(
      `${status}: ${detail}`,
      (x) => ({ ...x, status, requested: null, stop_reason: reason, stop_detail: detail, slices: x.slices.map((s) => (s.status === 'pending' ? { ...s, status: 'skipped' } : s)) }),
      status === 'failed' ? 'failed' : 'stopped',
      reason,
    );
  }

  // ---- one slice -------------------------------------------------------------------------------------

  /** How much a slice may still send: what is left of the target (and, reduce-only, of the position). */
  private async sizeFor(r: TwapRecord, s: TwapSliceRecord): Promise<{ size: Decimal; closed: boolean }> {
    const { filled } = twapTotals(r);
    let size = Decimal.min(new Decimal(s.size), new Decimal(r.total_size).minus(filled));
    if (!r.reduce_only) return { size, closed: false };
    const accountId = r.wallet.toLowerCase() + '0'.repeat(24);
    const held = new Decimal((await this.ctx.api.positions(accountId)).positions.find((p) => p.market === r.market)?.size ?? '0');
    const reducible = r.side === 'SELL' ? Decimal.max(held, 0) : Decimal.max(held.neg(), 0);
    size = Decimal.min(size, reducible);
    return { size, closed: reducible.isZero() };
  }

  private async executeSlice(r: TwapRecord, s: TwapSliceRecord): Promise<SliceOutcome> {
    const label = this.label(r, s);
    let size: Decimal;
    let closed: boolean;
    try {
      ({ size, closed } = await this.sizeFor(r, s));
    } catch (err) {
      if (isTransientFailure(err)) return { stop: 'retry' };
      throw err;
    }
    if (closed) return { stop: 'completed', reason: 'target_reached', detail: `the ${r.market} position is closed: nothing is left to reduce` };
    if (size.lte(0)) return { stop: 'completed', reason: 'target_reached', detail: `filled ${canonical(twapTotals(r).filled)} of ${r.total_size}` };
    const over = await this.overTarget(r, s, size, label);
    if (over) return over;

    // Prepared now: the bound comes from the mark at this moment, and every order rule is checked again.
    let prepared;
    try {
      prepared = await prepareLegs(this.ctx, {
        wallet: r.wallet,
        legs: [sliceLeg({ market: r.market, side: r.side, reduceOnly: r.reduce_only, leverage: r.leverage, slippageBps: r.slippage_bps }, canonical(size), s.client_order_id)],
        labels: [label],
        kind: 'twap',
        allow: { large: r.allow_large },
      });
    } catch (err) {
      const e = toAppError(err);
      if (e.kind === 'transient') return { stop: 'retry' };
      if (e.kind === 'internal') throw err;
      // A risk limit (issue 39) pauses the TWAP with its reason; the slice stays pending, so a resume
      // once there is room (or after the reset) sends it, or counts it missed if its time has passed.
      if (e.code === 'RISK_LIMIT' || e.code === 'RISK_LOCKOUT') return { stop: 'risk_paused', detail: `${RISK_PAUSE_NOTE} before ${label}: ${e.message}` };
      // Refused before anything was signed or sent: nothing of this slice reached the service.
      await this.noteSlice(s.index, { status: 'rejected', reason: e.code }, `${label} not sent: ${e.message}`, 'attention', 'slice_refused');
      return { stop: 'failed', detail: explainStop(e.code, s.index + 1, r.slices.length, e.message) };
    }
    const leg = prepared.legs[0]!;
    let signer;
    try {
      signer = await this.ctx.tradingSigner(r.wallet);
    } catch (err) {
      if (toAppError(err).kind === 'transient') return { stop: 'retry' };
      throw err;
    }
    const now = await this.clock.now();
    // Written (and fsynced) before the order goes out: a crash from here on is reconciled, never resent.
    this.update(withSlice(s.index, { status: 'sending', sent_size: leg.size, limit_price: leg.limit_price, nonce: prepared.nonces[0]!, sent_at: now }));

    let placed;
    try {
      placed = await submitOrder(this.ctx, prepared, signer, { wait: false });
    } catch (err) {
      const outcome = writeOutcome(err);
      if (outcome === 'refused') {
        // The whole request was refused (a 403, a 400, a replayed nonce): the slice did not reach the book.
        const e = toAppError(err);
        await this.noteSlice(s.index, { status: 'rejected', reason: e.code }, `${label} refused: ${e.message}`, 'attention', 'slice_refused');
        return { stop: 'failed', detail: explainStop(e.code, s.index + 1, r.slices.length, e.message) };
      }
      if (outcome === 'bug') throw err;
      // No usable answer: it may have landed. Find it by its client order id before anything else.
      return this.afterResolving(await this.resolveSending(this.record(), s.index), s.index);
    }
    const p = placed.legs[0]!;
    if (p.status === 'REJECTED') {
      await this.noteSlice(s.index, { status: 'rejected', order_id: p.order_id, reason: p.reason }, `${label} rejected: ${p.reason ?? 'no reason given'}`, 'attention', 'slice_rejected');
      if (isMomentaryRejection(p.reason)) return { stop: null };
      return { stop: 'failed', detail: explainStop(p.reason ?? 'REJECTED', s.index + 1, r.slices.length) };
    }
    if (p.status === 'UNKNOWN' || p.order_id === null) {
      return this.afterResolving(await this.resolveSending(this.record(), s.index), s.index);
    }
    const sent = this.update(withSlice(s.index, { status: 'sent', order_id: p.order_id }));
    this.emit('acted', `${label} sent as order ${p.order_id}`, now, 'slice_sent');
    const done = await this.follow(sent, s.index);
    const after = done.slices[s.index]!;
    if ((after.status === 'rejected' || after.status === 'failed') && !isMomentaryRejection(after.reason)) {
      return { stop: 'failed', detail: explainStop(after.reason ?? after.status.toUpperCase(), s.index + 1, r.slices.length) };
    }
    return { stop: null };
  }

  /**
   * The check before every slice, from the service's own order history rather than the record (which
   * damage or an edit can make under-report): the slice is not sent when its client order id is already
   * at the service, or when it would take what this TWAP has sent past the target.
   */
  private async overTarget(r: TwapRecord, s: TwapSliceRecord, size: Decimal, label: string): Promise<SliceOutcome | null> {
    let seen;
    try {
      seen = await twapSentAtService(this.ctx, r);
    } catch (err) {
      if (isTransientFailure(err)) return { stop: 'retry' };
      throw err;
    }
    const why = "its record disagrees with the service's order history, so nothing more is sent; check the account's order history";
    const again = seen.orders.find((o) => o.client_order_id === s.client_order_id);
    if (again) return { stop: 'over_target', detail: `${label} is already at the service as order ${again.order_id} (${again.status}), though its record says it was never sent: ${why}` };
    if (seen.committed.plus(size).gt(r.total_size)) {
      return {
        stop: 'over_target',
        detail: `${label} (${canonical(size)}) would take what the service lists for this TWAP, ${canonical(seen.committed)} in ${seen.orders.length} order(s), past its target ${r.total_size} (its record counts ${canonical(twapTotals(r).filled)} filled): ${why}`,
      };
    }
    return null;
  }

  /** After a slice was looked up in history: a slice that cannot be told from a look-alike stops the TWAP. */
  private afterResolving(r: TwapRecord, index: number): SliceOutcome {
    const s = r.slices[index]!;
    return settledAmbiguous(s) ? { stop: 'failed', detail: ambiguityDetail(s.index + 1, r.slices.length) } : { stop: null };
  }

  /** Ends the TWAP (failed) when a slice was settled as ambiguous; null otherwise. */
  private async stoppedOnAmbiguity(r: TwapRecord): Promise<TwapRecord | null> {
    const s = r.slices.find(settledAmbiguous);
    return s ? this.end('failed', 'rejected', ambiguityDetail(s.index + 1, r.slices.length)) : null;
  }

  /** A `sending` slice: looked up by its client order id until found or the grace period is over (the engine's one loop). */
  private async resolveSending(r: TwapRecord, index: number): Promise<TwapRecord> {
    const s = r.slices[index]!;
    const claimed = new Set(r.slices.filter((x) => x.order_id !== null && x.index !== index).map((x) => x.order_id!));
    const q = { wallet: r.wallet, market: r.market, side: r.side, reduceOnly: r.reduce_only, claimed };
    // Counted from when it was sent: after a long downtime one look settles it (it has persisted by then).
    const deadline = (s.sent_at ?? (await this.clock.now())) + this.graceMs;
    const hit = await this.settleLostAnswer(deadline, () => findSliceOrder(this.ctx, s, q));
    if (hit === null) {
      // An order that FAILED (could not be routed) writes no history row either: nothing of it executed.
      return this.noteSlice(index, { status: 'unsent', reason: 'not_found' }, `${this.label(r, s)}: not found in order-history ${Math.round(this.graceMs / 1000)} s after it was sent; it never reached the book`, 'attention', 'slice_unsent');
    }
    if ('ambiguous' in hit) {
      // Settled as failed, not guessed: the TWAP stops on it (stoppedOnAmbiguity) and the person decides.
      return this.noteSlice(
        index,
        { status: 'failed', reason: SLICE_ORDER_AMBIGUOUS },
        `${this.label(r, s)}: order-history lists no client order ids, and ${hit.ambiguous.length} orders (${hit.ambiguous.join(', ')}) match what it sent; it cannot be told which is this slice's`,
        'attention',
        SLICE_ORDER_AMBIGUOUS,
      );
    }
    const how = hit.by === 'client_order_id' ? 'by its client order id' : 'by the fields it sent (the rows list no client order ids)';
    const sent = await this.noteSlice(index, { status: 'sent', order_id: hit.order_id }, `${this.label(r, s)}: its order ${hit.order_id} was found in order-history ${how}`, 'acted', 'slice_sent');
    return this.follow(sent, index);
  }

  /** Settles the in-flight slices without sending anything (a cancel or stop of a TWAP nobody runs; the caller holds its lock). */
  settleInFlight(): Promise<TwapRecord> {
    return this.reconcileInFlight(this.record());
  }

  /** Settles every slice that has, or may have, an order at the service (a resume, a lost answer). */
  private async reconcileInFlight(start: TwapRecord): Promise<TwapRecord> {
    let r = start;
    for (const s of start.slices.filter(sliceInFlight)) {
      r = s.status === 'sending' ? await this.resolveSending(r, s.index) : await this.follow(r, s.index);
    }
    return r;
  }

  /** Follows a `sent` slice's order to its outcome and writes it with its fills. */
  private async follow(r: TwapRecord, index: number): Promise<TwapRecord> {
    const s = r.slices[index]!;
    const orderId = s.order_id!;
    this.tracker.track(orderId, { market: r.market, order_type: 'MARKET', justSubmitted: true });
    let o: TrackedOrder;
    try {
      [o] = (await this.tracker.waitFor([orderId], { until: untilTerminal, timeoutMs: this.followTimeoutMs })) as [TrackedOrder];
    } catch (err) {
      if (toAppError(err).kind !== 'transient') throw err;
      return this.note(`${this.label(r, s)}: order ${orderId} not finished yet (${(err as Error).message}); following it again`, (x) => x, 'attention', 'slice_unfinished');
    }
    const fills = await fillsOfOrder(this.ctx, r.wallet, r.market, orderId, s.sent_at ?? 0);
    const fromFills = fills.reduce((a, f) => a.plus(f.size), new Decimal(0));
    const filled = o.filled_size !== null ? new Decimal(o.filled_size) : !fromFills.isZero() ? fromFills : o.status === 'FILLED' ? new Decimal(s.sent_size ?? s.size) : new Decimal(0);
    const vwap = fromFills.isZero() ? null : fills.reduce((a, f) => a.plus(new Decimal(f.price).mul(f.size)), new Decimal(0)).div(fromFills);
    const avg = o.avg_fill_price ?? (vwap ? canonical(vwap) : null);
    const status = o.status === 'FILLED' ? 'filled' : o.status === 'PARTIALLY_FILLED_CANCELLED' ? 'partial' : o.status === 'REJECTED' ? 'rejected' : o.status === 'FAILED' ? 'failed' : 'unfilled';
    const label = this.label(r, s);
    const patch: Partial<TwapSliceRecord> = {
      status,
      filled_size: canonical(filled),
      avg_fill_price: filled.isZero() ? null : avg,
      reason: o.reason,
      fills: fills.map((f) => ({ tid: f.tid, price: f.price, size: f.size, time: f.filled_at })),
    };
    if (status === 'filled' || status === 'partial') {
      // A fill is said, not noted: the slice's own row shows it.
      const next = this.update(withSlice(index, patch));
      this.emit('acted', `${label}: ${status} ${canonical(filled)}${avg ? ` at ${avg}` : ''}`, await this.clock.now(), `slice_${status}`);
      return next;
    }
    return this.noteSlice(index, patch, `${label}: ${status}${o.reason ? ` (${o.reason})` : ''}`, status === 'unfilled' ? 'acted' : 'attention', `slice_${status}`);
  }
}

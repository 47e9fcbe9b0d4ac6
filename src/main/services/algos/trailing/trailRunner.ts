/**
 * The trailing stop runner: one per trailed position, the same for the app (its desk runs it in main)
 * and the command line (`perps position trail` runs it in the foreground).
 *
 * The stop is the position's whole-position SL trigger at the service, so it protects the position
 * whether or not anything runs here: when the desk is closed, killed or offline, the last level stays
 * armed. While it runs, it looks at the mark about once a second and moves the stop by a Modify of that
 * trigger (never cancel + place: a modify leaves it armed throughout, and a modify that races the trigger
 * firing is dropped by the service while the original stays), following the pure rules of
 * src/shared/algos/trailing.ts (only in the trader's favour, whole ticks, at most once a second, after
 * the activation price).
 *
 * Exactly once, like a TWAP slice: a move is written as `moving` (its client order id, the order it
 * modifies, the new levels) before the Modify is sent; after a crash it is looked up in order-history
 * (algos/sentOrderLookup.ts) before anything else: found and armed, it is the stop; dropped, the original
 * stays; not found within the grace period, it never reached the service. Whatever the record says, the
 * armed SL the service lists is the truth: a stop moved or replaced elsewhere (`position tpsl`) is adopted,
 * the stop is ratcheted from the level the service lists as armed (never from the record's copy, so an
 * edited record cannot lower it), a stored stop whose order the service lists at another level marks the
 * record damaged (listed, refused, nothing sent), and a stored high-water mark beyond any price the venue
 * shows since the stop was armed is brought back to what the venue shows before anything moves.
 *
 * A stop that fired but could not fill (order history lists it `triggered`, then cancelled or rejected,
 * and the position is still open) ends trailing as a failed stop (`stop_failed`), with the service's
 * reason, said as an event: the position is no longer protected.
 *
 * On a start after time away, the candles since the runner last looked give the best price the desk
 * missed; the stop is moved to where it should be now (never to or past the mark), and what happened is
 * written to the record's `away` for the app and the command line to say.
 *
 * The lifecycle (claim, run once, stop, waits on the service clock, notes, the lost-answer loop) is the
 * algorithms' engine (../engine): this file is the trailing stop's `begin` and `step`. Its events: a move
 * is `acted`; what happened while away, an adopted or corrected stop, a move that did not go through and a
 * failed stop are `attention` (the trader should know now; the runner did its part); trailing that ends
 * because the position closed or its stop was removed is `stopped`. A record that disagrees with the
 * service ends the run with an error, which the engine raises as `failed`.
 */
import { Decimal, canonical } from '../../../../shared/decimal/index.js';
import { groupedDecimal } from '../../../../shared/decimal/display.js';
import { bestSeenInCandles, better, formatTrailDistance, nextHighWater, ratchet, type RatchetDecision } from '../../../../shared/algos/trailing.js';
import { moveClientOrderId, type TrailRecord } from '../../../../shared/algos/trailRecord.js';
import type { ListedOrder, Market } from '../../../../shared/protocol/index.js';
import type { CandleInterval } from '../../../venue/schemas.js';
import { ValidationError, toAppError } from '../../errors.js';
import { prepareModify, submitModify } from '../../orders/modifyOrder.js';
import { readMark, walletIds, type TradingContext } from '../../orders/orderContext.js';
import { slippageBound, slippageBpsFor } from '../../orders/slippage.js';
import { readPosition } from '../../positions/positionWaits.js';
import { stopToleranceFor } from '../../settings/preferences.js';
import { AlgoRunner, MAX_ALGO_NOTES, withAlgoNote, writeOutcome, type AlgoRunnerOptions, type AlgoStep } from '../engine/index.js';
import type { AlgoStore } from '../algoStore.js';
import type { RunLock } from '../runLock.js';
import { findSentOrder, historyRowsOf } from '../sentOrderLookup.js';
import { TRAIL_NAMING, type TrailStore, type TrailSummary } from './trailStore.js';

export interface TrailRunnerOptions extends AlgoRunnerOptions<TrailRecord> {
  /** How long a modify is followed to its outcome. Default 20 s. */
  modifyTimeoutMs?: number;
}

export const MAX_TRAIL_NOTES = MAX_ALGO_NOTES;

/** The notes of `r` with `note` added at `at` (the engine's one stamped, capped format). */
export function withTrailNote(r: TrailRecord, at: number, note: string): string[] {
  return withAlgoNote(r.notes, at, note);
}

/** The position's armed whole-position stop-losses on `market` (reduce-only TRIGGER, size 0, armed). */
export function armedStops(rows: readonly ListedOrder[], market: string): ListedOrder[] {
  return rows.filter((o) => o.market === market && o.order_type === 'TRIGGER' && o.reduce_only && !o.parent_order_id && o.status === 'open' && o.tpsl === 'sl' && new Decimal(o.size).isZero());
}

const px = (v: string): string => groupedDecimal(v);

/** How a stored stop disagrees with the order the service lists under its id (null: it agrees). */
export function stopDisagreement(stop: NonNullable<TrailRecord['stop']>, row: ListedOrder): string | null {
  if (row.trigger_price === undefined || row.trigger_price === null || !new Decimal(row.trigger_price).eq(stop.trigger_price)) {
    return `the record's stop ${stop.order_id} is at ${stop.trigger_price}, and the service lists that order at ${row.trigger_price ?? 'no trigger price'}`;
  }
  if (!new Decimal(row.limit_price).eq(stop.fire_price)) return `the record's stop ${stop.order_id} fires at ${stop.fire_price}, and the service lists that order firing at ${row.limit_price}`;
  return null;
}

/**
 * Marks the record damaged because it disagrees with the service, and returns the error that refuses it
 * (TRAIL_RECORD_DAMAGED, validation): nothing is sent for it from here on.
 */
export function refuseDisagreeing(store: AlgoStore<TrailRecord, TrailSummary>, id: string, profile: string, reason: string): ValidationError {
  store.markDamaged(id, reason);
  const s = store.inspect(id, profile);
  if (s && 'damaged' in s) return store.damagedError(s.damaged);
  return new ValidationError(`trailing stop ${id} disagrees with the service: ${reason}; nothing was sent`, { code: 'TRAIL_RECORD_DAMAGED' });
}

/** Candles fine enough to find the best price, few enough for one read. */
function candleInterval(spanMs: number): CandleInterval {
  if (spanMs <= 2 * 86_400_000) return '1m';
  if (spanMs <= 30 * 86_400_000) return '15m';
  return '1h';
}

function awayFor(ms: number): string {
  const min = Math.round(ms / 60_000);
  if (min < 1) return `${Math.max(1, Math.round(ms / 1000))} s`;
  if (min < 120) return `${min} min`;
  return `${Math.round(min / 60)} h`;
}

type Away = { best: string; since: number };

export class TrailRunner extends AlgoRunner<TrailRecord, TrailSummary> {
  private readonly modifyTimeoutMs: number;
  private market: Market | null = null;
  /** The best price missed while nothing ran, until the first look has caught up on it. */
  private away: Away | null = null;

  constructor(ctx: TradingContext, store: TrailStore, id: string, options: TrailRunnerOptions = {}, lock: RunLock | null = null) {
    super(ctx, store, id, 'trailing', TRAIL_NAMING, options, lock);
    this.modifyTimeoutMs = options.modifyTimeoutMs ?? 20_000;
  }

  protected isActive(r: TrailRecord): boolean {
    return r.status === 'trailing';
  }

  /** Settles a move in flight, holds the high-water mark to what the venue shows, and reads what was missed. */
  protected override async begin(start: TrailRecord): Promise<{ record: TrailRecord } | { done: TrailRecord }> {
    if (start.status !== 'trailing') return { done: start };
    this.eventMarket = start.market;
    this.market = await this.ctx.config.market(start.market);
    let r = start;
    if (r.moving) r = await this.reconcileMoving(r);
    r = await this.boundHighWater(r);
    this.away = await this.missed(r);
    return { record: r };
  }

  /** One look; a look that got no answer is tried again by the engine, catching up on time away included. */
  protected async step(r: TrailRecord): Promise<AlgoStep<TrailRecord>> {
    const ended = await this.look(r, this.away);
    this.away = null;
    return ended ? { done: ended } : { wait: this.pollMs };
  }

  /**
   * The stored high-water mark, held to what the venue shows: a high (a long's) beyond every candle since
   * the stop was armed and beyond the mark now is a price that never happened (a hand-edited record), so
   * trailing goes on from the best the venue shows, and the record says so. It never moves the stop by itself.
   */
  private async boundHighWater(r: TrailRecord): Promise<TrailRecord> {
    if (r.high_water === null) return r;
    const now = await this.clock.now();
    const since = r.armed_candle?.t ?? r.created_at;
    const candles = await this.ctx.venue.candleSnapshot({ coin: this.market!.venue_symbol, interval: candleInterval(now - since), startTime: since, endTime: now });
    const bound = nextHighWater(r.side, bestSeenInCandles(r.side, candles, since), await readMark(this.ctx, this.market!));
    if (!better(r.side, r.high_water, bound)) return r;
    return this.note(
      `the stored ${r.side === 'LONG' ? 'high' : 'low'} of ${px(r.high_water)} is beyond any price the venue shows since the stop was armed (${r.side === 'LONG' ? 'at most' : 'at least'} ${px(bound)}); trailing goes on from ${px(bound)}`,
      (x) => ({ ...x, high_water: bound }),
      'attention',
    );
  }

  /** The best price since the runner last looked, from the candles (null when they show nothing better). */
  private async missed(r: TrailRecord): Promise<Away | null> {
    const now = await this.clock.now();
    const since = r.last_seen_at;
    // Written at every look: a second ago missed nothing the next look at the mark will not see.
    if (now - since < 1_000) return null;
    const interval = candleInterval(now - since);
    const candles = await this.ctx.venue.candleSnapshot({ coin: this.market!.venue_symbol, interval, startTime: since, endTime: now });
    // A candle that began before the stop was armed holds prices that were never the stop's: the 1m one it
    // was armed in counts beyond what it showed then; a coarser one not at all.
    const usable = interval === '1m' ? candles : candles.filter((c) => c.t >= r.created_at);
    const best = bestSeenInCandles(r.side, usable, since, interval === '1m' ? r.armed_candle : null);
    if (best === null || (r.high_water !== null && !better(r.side, best, r.high_water))) return null;
    return { best, since };
  }

  /** One look: the position, its armed stop, the mark; maybe a move. Returns the record when trailing ends. */
  private async look(start: TrailRecord, away: Away | null): Promise<TrailRecord | null> {
    let r = start;
    const market = this.market!;
    const { accountId } = walletIds(r.wallet);
    const position = await readPosition(this.ctx, accountId, r.market);
    const size = position ? new Decimal(position.size) : new Decimal(0);
    if (size.isZero() || (r.side === 'LONG') !== size.isPos()) {
      return this.end(r, 'position_closed', `the ${r.market} ${r.side.toLowerCase()} is closed${r.stop ? ` (the stop at ${px(r.stop.trigger_price)} fired, or it was closed)` : ''}; trailing ended`);
    }
    const armed = armedStops((await this.ctx.api.positionTriggers(r.wallet)).orders, r.market);
    const ours = r.stop ? armed.find((o) => o.order_id === r.stop!.order_id) : undefined;
    if (ours) {
      // The service lists our order at another level than the record says: the record was changed from
      // outside. It is damaged: nothing is moved from it (the run ends: `failed`).
      const disagreement = stopDisagreement(r.stop!, ours);
      if (disagreement) throw refuseDisagreeing(this.store, this.id, this.ctx.profile.name, disagreement);
    }
    if (!ours) {
      if (armed.length === 1) {
        const o = armed[0]!;
        r = await this.note(
          `${r.stop ? `the stop ${r.stop.order_id} is no longer armed; ` : ''}trailing the armed stop-loss ${o.order_id} at ${px(o.trigger_price ?? '?')}`,
          (x) => ({ ...x, stop: { order_id: o.order_id, trigger_price: canonical(o.trigger_price ?? '0'), fire_price: canonical(o.limit_price) } }),
          'attention',
        );
      } else if (armed.length > 1) {
        return this.end(r, 'stop_removed', `${r.market} has ${armed.length} armed stop-losses (${armed.map((o) => o.order_id).join(', ')}); it is not clear which to trail, so trailing ended (every one stays armed)`);
      } else if (r.stop) {
        const rows = await historyRowsOf(this.ctx, r.wallet, r.market, r.stop.order_id, r.created_at);
        const row = rows[0] ?? null;
        if (row && row.status === 'filled') return this.end(r, 'position_closed', `the stop at ${px(r.stop.trigger_price)} fired; trailing ended`);
        // Fired and still executing (the position is still open): whether it fills is known on a later look.
        if (row && row.status === 'triggered') return null;
        if (row && rows.some((x) => x.status === 'triggered')) {
          // It fired (history lists it triggered) and then did not fill, and the position is still open.
          const how = row.status === 'partially_filled_cancelled' ? `filled only ${row.filled_size} of the position, the rest was cancelled` : `was ${row.status}`;
          return this.end(
            r,
            'stop_failed',
            `FAILED STOP: the stop-loss ${r.stop.order_id} at ${px(r.stop.trigger_price)} fired but ${how} (${row.reason ?? 'no reason given by the service'}); the ${r.market} ${r.side.toLowerCase()} is still open with no stop-loss armed; trailing ended`,
          );
        }
        return this.end(r, 'stop_removed', `the stop-loss ${r.stop.order_id} at ${px(r.stop.trigger_price)} was removed (${row?.status ?? 'no longer listed'}); trailing ended and nothing was armed in its place`);
      } else {
        return this.end(r, 'stop_removed', `no stop-loss is armed on ${r.market}; trailing ended`);
      }
    }
    const mark = await readMark(this.ctx, market);
    const now = await this.clock.now();
    // Ratcheted from the level the service lists as armed, never from the record's copy of it.
    const armedLevel = canonical(ours?.trigger_price ?? r.stop!.trigger_price);
    const decision = ratchet(
      { side: r.side, distance: r.distance, activate: r.activate, tickSize: market.tick_size, stop: armedLevel, highWater: r.high_water, lastMoveAt: r.last_move_at },
      away?.best ?? mark,
      mark,
      now,
    );
    if (away) return this.catchUp(r, away, decision, now, canonical(mark));
    // Every look is written: after a crash, the candles from this moment on are what was missed.
    r = this.update((x) => ({ ...x, high_water: decision.highWater, last_seen_at: now }));
    if (decision.move) await this.move(r, decision.to, `new ${r.side === 'LONG' ? 'high' : 'low'} ${px(decision.highWater)}`);
    return null;
  }

  /** The first look after time away: moves the stop to where it should be now and says what happened. */
  private async catchUp(start: TrailRecord, away: Away, d: RatchetDecision, now: number, mark: string): Promise<null> {
    let r = this.update((x) => ({ ...x, high_water: d.highWater, last_seen_at: now }));
    const extreme = r.side === 'LONG' ? 'high' : 'low';
    const parts = [`While the desk was away (${awayFor(now - away.since)}), ${r.market} made a ${extreme} of ${px(away.best)}; the mark is ${px(mark)} now.`];
    const before = start.stop!.trigger_price;
    if (d.move) {
      const moved = await this.move(r, d.to, `catching up after time away`);
      r = this.record();
      if (moved && d.clamped) parts.push(`The stop should have trailed to ${px(d.wanted)}, and the mark has since passed it: it is now at ${px(d.to)}, one tick before the mark (it was ${px(before)}).`);
      else if (moved) parts.push(`The stop moved from ${px(before)} to ${px(d.to)}.`);
      else parts.push(`Moving the stop from ${px(before)} to ${px(d.to)} did not go through; it stays at ${px(r.stop?.trigger_price ?? before)} and trailing goes on.`);
    } else {
      const why = d.why === 'not_activated' ? `trailing starts once the mark reaches ${px(r.activate ?? '?')}` : d.why === 'too_soon' ? 'it moves on the next look' : 'the stop already protects that';
      parts.push(`The stop stays at ${px(before)}: ${why}.`);
    }
    const text = parts.join(' ');
    await this.note(text, (x) => ({ ...x, away: text }), 'attention', 'away');
    return null;
  }

  /**
   * Trailing ends: `stopped` when the position closed or its stop went (nothing is left to trail), and
   * `attention` for a failed stop: the run did its part, but the position is open with no stop-loss now.
   */
  private async end(r: TrailRecord, reason: 'position_closed' | 'stop_removed' | 'stop_failed', text: string): Promise<TrailRecord> {
    const now = await this.clock.now();
    return this.noteAt(now, text, (x) => ({ ...x, status: 'ended', end_reason: reason, moving: null, last_seen_at: Math.max(x.last_seen_at, now) }), reason === 'stop_failed' ? 'attention' : 'stopped', reason);
  }

  /** A move that did not happen: the stop stays where it is, and the trader should know. */
  private notMoved(text: string, change: (x: TrailRecord) => TrailRecord = (x) => x): Promise<TrailRecord> {
    return this.note(text, change, 'attention', 'not_moved');
  }

  /** Moves the stop to `to` by a Modify of the armed trigger, written as `moving` first. True when it moved. */
  private async move(r: TrailRecord, to: string, why: string): Promise<boolean> {
    const market = this.market!;
    const stop = r.stop!;
    const closing = r.side === 'LONG' ? 'SELL' : 'BUY';
    // A trailing stop is a stop-loss: it fires with the stop tolerance, not a market order's slippage.
    const bps = slippageBpsFor(market, stopToleranceFor(this.ctx.settings, market.symbol));
    const fire = canonical(slippageBound(closing, new Decimal(to), bps, market, 'trail.fire_price'));
    const clientOrderId = moveClientOrderId(r.run_key, r.moves + 1);
    let prepared;
    try {
      prepared = await prepareModify(this.ctx, { wallet: r.wallet, orderId: stop.order_id, price: fire, size: '0', triggerPrice: to, clientOrderId });
    } catch (err) {
      const e = toAppError(err);
      if (e.kind === 'transient' || e.kind === 'internal') throw err;
      // Refused before anything was signed (the mark moved past it, a modify in flight): the next look decides again.
      await this.notMoved(`not moved to ${px(to)}: ${e.message}`);
      return false;
    }
    const signer = await this.ctx.tradingSigner(r.wallet);
    const sentAt = await this.clock.now();
    // Written (and fsynced) before the Modify goes out: a crash from here on is reconciled, never resent.
    r = this.update((x) => ({ ...x, moving: { client_order_id: clientOrderId, from_order_id: stop.order_id, from_trigger: stop.trigger_price, to_trigger: to, fire_price: fire, nonce: prepared.nonce, sent_at: sentAt } }));
    let res;
    try {
      res = await submitModify(this.ctx, prepared, signer, { wait: true, waitTimeoutMs: this.modifyTimeoutMs });
    } catch (err) {
      const outcome = writeOutcome(err);
      if (outcome === 'refused') {
        await this.notMoved(`move to ${px(to)} refused: ${toAppError(err).message}`, (x) => ({ ...x, moving: null, moves: r.moves + 1 }));
        return false;
      }
      if (outcome === 'bug') throw err;
      // No usable answer: it may have landed. Settle it from order history before anything else.
      r = await this.reconcileMoving(this.record());
      return r.stop?.trigger_price === to;
    }
    if (res.outcome === 'applied' && res.new_order_id) {
      const newId = res.new_order_id;
      this.update((x) => ({ ...x, moving: null, moves: x.moves + 1, last_move_at: sentAt, stop: { order_id: newId, trigger_price: to, fire_price: fire }, notes: withAlgoNote(x.notes, sentAt, `moved ${stop.trigger_price} -> ${to} (${why}) as order ${newId}`) }));
      // Said once written: what is said has been persisted.
      this.emit('acted', `stop moved ${px(stop.trigger_price)} -> ${px(to)} (${why})`, sentAt, 'moved');
      return true;
    }
    if (res.outcome === 'pending' || res.status === 'UNKNOWN') {
      r = await this.reconcileMoving(this.record());
      return r.stop?.trigger_price === to;
    }
    const what = res.outcome === 'dropped' ? `dropped by the service (the stop fired meanwhile, or the order cap); ${px(stop.trigger_price)} stays armed` : `rejected (${res.final?.reason ?? res.reason ?? 'no reason given'}); ${px(stop.trigger_price)} stays armed`;
    await this.notMoved(`move to ${px(to)} ${what}`, (x) => ({ ...x, moving: null, moves: r.moves + 1 }));
    return false;
  }

  /** A move written as `moving`: found in order-history (armed: it is the stop; dropped: the original stays) or, after the grace period, never sent. */
  private async reconcileMoving(start: TrailRecord): Promise<TrailRecord> {
    const m = start.moving!;
    const closing = start.side === 'LONG' ? 'sell' : 'buy';
    const claimed = new Set([m.from_order_id, ...(start.stop ? [start.stop.order_id] : [])]);
    const settled = (x: TrailRecord): TrailRecord => ({ ...x, moving: null, moves: start.moves + 1 });
    const hit = await this.settleLostAnswer(m.sent_at + this.graceMs, () =>
      findSentOrder(this.ctx, {
        wallet: start.wallet,
        market: start.market,
        clientOrderId: m.client_order_id,
        sentAt: m.sent_at,
        claimed,
        matches: (row) => row.order_type === 'TRIGGER' && row.side === closing && row.reduce_only && row.trigger_price !== undefined && row.trigger_price !== null && new Decimal(row.trigger_price).eq(m.to_trigger) && new Decimal(row.size).isZero(),
      }),
    );
    if (hit === null) {
      return this.notMoved(`the move to ${px(m.to_trigger)} is not in order-history ${Math.round(this.graceMs / 1000)} s after it was sent: it never reached the service; the stop stays at ${px(m.from_trigger)}`, settled);
    }
    if ('ambiguous' in hit) {
      // Not guessed: the next look trails whatever SL the service lists as armed.
      return this.notMoved(`the move to ${px(m.to_trigger)} cannot be told from ${hit.ambiguous.length} identical orders in order-history; the armed stop-loss the service lists is trailed`, settled);
    }
    if (hit.row.status !== 'open' && hit.row.status !== 'triggered' && hit.row.status !== 'filled') {
      return this.notMoved(`the move to ${px(m.to_trigger)} (order ${hit.order_id}) was ${hit.row.status}${hit.row.reason ? ` (${hit.row.reason})` : ''}; the stop stays at ${px(m.from_trigger)}`, settled);
    }
    return this.note(
      `the move to ${px(m.to_trigger)} sent before the restart landed as order ${hit.order_id} (found in order-history)`,
      (x) => ({ ...settled(x), last_move_at: m.sent_at, stop: { order_id: hit.order_id, trigger_price: m.to_trigger, fire_price: m.fire_price } }),
      'acted',
      'moved',
    );
  }
}

/** "Trailing 1.5% · SL 3,120.5 · high 3,168": the position row's words for a trailing stop. */
export function trailSummary(r: Pick<TrailRecord, 'side' | 'distance' | 'stop' | 'high_water' | 'activate'>): string {
  const parts = [`Trailing ${formatTrailDistance(r.distance)}`];
  if (r.stop) parts.push(`SL ${px(r.stop.trigger_price)}`);
  if (r.high_water) parts.push(`${r.side === 'LONG' ? 'high' : 'low'} ${px(r.high_water)}`);
  if (r.activate && !(r.high_water && (r.side === 'LONG' ? new Decimal(r.high_water).gte(r.activate) : new Decimal(r.high_water).lte(r.activate)))) parts.push(`from ${px(r.activate)}`);
  return parts.join(' · ');
}

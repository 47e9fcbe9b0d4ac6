/**
 * Arming a trailing stop on an open position, and turning trailing off.
 *
 * Arming is prepared first (the position, the mark, the market's tick from /markets, the armed
 * stop-loss; `--dry-run` prints it): an armed whole-position SL is adopted as the trailing stop (trailing
 * moves it only when that is a gain); with none armed, one is set at the trailing level from the current
 * mark (through the TP/SL step, so the position is protected from the first moment). Arming again a
 * position whose trailing stop was interrupted (its process died, the app was closed) takes it up where
 * it was: its high-water mark and the time it last looked are kept, so the candles missed are read.
 *
 * Turning off writes `off` to the record: the process trailing it (if any) stops at its next look, and
 * the armed level stays until removed (`perps position tpsl --sl none`).
 */
import { randomBytes } from 'node:crypto';
import { Decimal, canonical } from '../../../../shared/decimal/index.js';
import { groupedDecimal } from '../../../../shared/decimal/display.js';
import { checkTrailDistance, formatTrailDistance, isActivated, parseTrailDistance, trailLevel, type TrailDistance, type TrailSide } from '../../../../shared/algos/trailing.js';
import type { TrailRecord } from '../../../../shared/algos/trailRecord.js';
import type { Signer } from '../../../signers/signer.js';
import { OperationError, ValidationError } from '../../errors.js';
import { decimalInput } from '../../orders/buildOrder.js';
import { readMark, walletIds, type TradingContext } from '../../orders/orderContext.js';
import { preparePositionTpsl, submitPositionTpsl, type PreparedPositionTpsl } from '../../positions/positionTpsl.js';
import { readPosition } from '../../positions/positionWaits.js';
import { assertPreparedFor, type PreparedBase } from '../../signing/prepared.js';
import { serviceAlgoClock, type AlgoClock } from '../algoClock.js';
import type { DamagedAlgoSummary } from '../../../../shared/algos/damagedSummary.js';
import type { DamagedRecord } from '../algoStore.js';
import { liveRunner } from '../runLock.js';
import { TrailRunner, armedStops, refuseDisagreeing, stopDisagreement, trailSummary, withTrailNote, type TrailRunnerOptions } from './trailRunner.js';
import { acquireTrailLock, trailId, trailStoreOf, type TrailStore } from './trailStore.js';

export interface TrailInput {
  wallet: string;
  market: string;
  /** "1.5%" or a price distance such as "25". */
  distance: string;
  /** Trailing starts once the mark reaches this price (a long's high, a short's low). */
  activate?: string;
}

export interface PreparedTrail extends PreparedBase<'trail'> {
  readonly id: string;
  readonly market: string;
  readonly side: TrailSide;
  readonly distance: TrailDistance;
  readonly activate: string | null;
  /** The stop-loss to adopt (null: one is set by `arm`). */
  readonly adopt: { order_id: string; trigger_price: string; fire_price: string } | null;
  /** Setting the first stop-loss when none is armed. */
  readonly arm: PreparedPositionTpsl | null;
  readonly mark: string;
  /** The trailing stop this resumes (interrupted), or null for a new one. */
  readonly resumes: TrailRecord | null;
  readonly view: {
    wallet: string;
    market: string;
    side: TrailSide;
    size: string;
    mark: string;
    distance: string;
    activate: string | null;
    /** The level the distance gives from the current mark. */
    level_from_mark: string;
    stop_now: string | null;
    summary: string[];
  };
}

function activationInput(value: string | undefined): string | null {
  if (value === undefined) return null;
  const v = decimalInput(value, 'trail', 'activate');
  if (new Decimal(v).lte(0)) throw new ValidationError(`the activation price must be greater than 0, got ${value}`, { field: 'activate' });
  return v;
}

export async function prepareTrail(ctx: TradingContext, input: TrailInput): Promise<PreparedTrail> {
  const { wallet, accountId } = walletIds(input.wallet);
  const distance = parseTrailDistance(input.distance);
  const activate = activationInput(input.activate);
  const market = await ctx.config.market(input.market);
  checkTrailDistance(distance, market.tick_size);
  const store = trailStoreOf(ctx);
  const id = trailId(ctx.profile.name, wallet, market.symbol);
  const holder = liveRunner(store.dir, id);
  if (holder) {
    throw new OperationError('TRAIL_LOCKED', `the ${market.symbol} position of ${wallet} is already trailed by process ${holder.pid}`, {
      hint: 'One process trails a position. Stop it with `perps position trail --market SYM --off` first, or let it trail.',
    });
  }
  const position = await readPosition(ctx, accountId, market.symbol);
  if (!position || new Decimal(position.size).isZero()) {
    throw new ValidationError(`${wallet} has no open ${market.symbol} position`, { field: 'market', code: 'NO_OPEN_POSITION', hint: 'A trailing stop follows an open position.' });
  }
  const side: TrailSide = new Decimal(position.size).isPos() ? 'LONG' : 'SHORT';
  const mark = await readMark(ctx, market);
  const stored = store.get(id);
  const resumes = stored && stored.status === 'trailing' && stored.side === side ? stored : null;
  const armed = armedStops((await ctx.api.positionTriggers(wallet)).orders, market.symbol);
  if (armed.length > 1) {
    throw new ValidationError(`${market.symbol} has ${armed.length} armed stop-losses (${armed.map((o) => o.order_id).join(', ')}); it is not clear which to trail`, {
      field: 'market',
      code: 'AMBIGUOUS_TRIGGERS',
      hint: 'Remove them first (`perps position tpsl --sl none`), then arm the trailing stop.',
    });
  }
  const hw = resumes?.high_water ?? canonical(mark);
  const level = trailLevel(side, hw, distance, market.tick_size);
  const fromMark = canonical(trailLevel(side, mark, distance, market.tick_size));
  const row = armed[0];
  // The stored stop is held to the order the service lists under its id: a record edited to another level
  // is damaged (listed, refused), and nothing is sent.
  const disagreement = resumes?.stop && row && resumes.stop.order_id === row.order_id ? stopDisagreement(resumes.stop, row) : null;
  if (disagreement) throw refuseDisagreeing(store, id, ctx.profile.name, disagreement);
  const adopt = row ? { order_id: row.order_id, trigger_price: canonical(row.trigger_price ?? '0'), fire_price: canonical(row.limit_price) } : null;
  // No stop armed: set one at the level from the mark now (the trailing level if trailing has not started yet too: protected at once).
  const arm = row ? null : await preparePositionTpsl(ctx, { wallet, market: market.symbol, sl: fromMark });
  const signer = arm?.signer ?? { role: 'trading-key' as const, address: (await ctx.tradingSigner(wallet)).address };
  const summary = [
    `${resumes ? 'Resume trailing' : 'Trail'} the ${market.symbol} ${side.toLowerCase()} (${position.size}) by ${formatTrailDistance(distance)}${activate ? `, starting once the mark ${side === 'LONG' ? 'rises' : 'falls'} to ${groupedDecimal(activate)}` : ''}`,
    adopt ? `The armed stop-loss ${adopt.order_id} at ${groupedDecimal(adopt.trigger_price)} becomes the trailing stop` : `Set a stop-loss at ${groupedDecimal(fromMark)} (${formatTrailDistance(distance)} from the mark ${groupedDecimal(canonical(mark))})`,
    `The stop moves only in your favour, by whole ticks of ${market.tick_size}, at most once a second; when this desk stops, the last level stays armed at the service`,
  ];
  if (isActivated(side, activate, hw) && adopt && (side === 'LONG' ? level.gt(adopt.trigger_price) : level.lt(adopt.trigger_price))) summary.push(`It moves to about ${groupedDecimal(canonical(level))} on the first look`);
  return {
    action: 'trail',
    profile: ctx.profile.name,
    wallet,
    signer,
    requests: arm?.requests ?? [],
    id,
    market: market.symbol,
    side,
    distance,
    activate,
    adopt,
    arm,
    mark: canonical(mark),
    resumes,
    view: { wallet, market: market.symbol, side, size: position.size, mark: canonical(mark), distance: formatTrailDistance(distance), activate, level_from_mark: fromMark, stop_now: adopt?.trigger_price ?? null, summary },
  };
}

/** The 1m candle in progress at `now`, as it stands (null when the venue lists none). */
async function candleAt(ctx: TradingContext, symbol: string, now: number): Promise<TrailRecord['armed_candle']> {
  const market = await ctx.config.market(symbol);
  const candles = await ctx.venue.candleSnapshot({ coin: market.venue_symbol, interval: '1m', startTime: now - 60_000, endTime: now });
  const c = candles.find((x) => x.t <= now && now <= x.T);
  return c ? { t: c.t, T: c.T, h: canonical(c.h), l: canonical(c.l) } : null;
}

export interface StartTrailOptions extends TrailRunnerOptions {
  store?: TrailStore;
}

/** Takes the position's run lock, arms the first stop if none is, writes the record, and returns its runner. */
export async function startTrail(ctx: TradingContext, prepared: PreparedTrail, signer: Signer, options: StartTrailOptions = {}): Promise<TrailRunner> {
  assertPreparedFor(prepared, ctx.profile.name);
  const store = options.store ?? trailStoreOf(ctx);
  const clock: AlgoClock = options.clock ?? serviceAlgoClock(ctx);
  const lock = acquireTrailLock(store, prepared.id);
  try {
    let stop = prepared.adopt;
    if (prepared.arm) {
      const res = await submitPositionTpsl(ctx, prepared.arm, signer, { wait: true });
      const c = res.changes[0];
      if (!res.ok || !c?.new_order_id) throw new OperationError('TRAIL_NOT_ARMED', `the first stop-loss was not armed: ${c ? `${c.status}${c.reason ? ` (${c.reason})` : ''}` : 'no answer'}`, { hint: 'Nothing trails the position. Check `perps orders triggers --wallet ADDR` and try again.' });
      stop = { order_id: c.new_order_id, trigger_price: c.to!, fire_price: c.fire_price! };
    }
    const now = await clock.now();
    const r = prepared.resumes;
    const armedCandle = r ? null : await candleAt(ctx, prepared.market, now);
    const settings = `${formatTrailDistance(prepared.distance)}${prepared.activate ? ` from ${prepared.activate}` : ''}`;
    if (r) {
      // The stop is the one the service lists now (just read), not the record's copy; a move in flight at a
      // crash keeps the stop it moves from, and the runner settles it from order history first.
      store.update(prepared.id, (x) => ({ ...x, distance: prepared.distance, activate: prepared.activate, stop: x.moving ? x.stop : (stop ?? x.stop), notes: withTrailNote(x, now, `resumed (${settings})`) }), now);
    } else {
      const record: TrailRecord = {
        version: 1,
        id: prepared.id,
        profile: ctx.profile.name,
        wallet: prepared.wallet,
        market: prepared.market,
        side: prepared.side,
        distance: prepared.distance,
        activate: prepared.activate,
        run_key: randomBytes(4).toString('hex'),
        status: 'trailing',
        end_reason: null,
        high_water: prepared.mark,
        stop,
        last_move_at: null,
        last_seen_at: now,
        moves: 0,
        moving: null,
        armed_candle: armedCandle,
        away: null,
        notes: [`${new Date(now).toISOString()} armed (${settings}) on the stop-loss ${stop!.order_id} at ${stop!.trigger_price}`],
        created_at: now,
        updated_at: now,
      };
      // A finished trailing stop of an earlier position on this market is replaced by the new one.
      if (store.get(prepared.id)) store.update(prepared.id, () => record, now);
      else store.create(record);
    }
    return new TrailRunner(ctx, store, prepared.id, { ...options, clock }, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** A runner for a trailing stop already stored (the app's restart). */
export function openTrailRunner(ctx: TradingContext, id: string, options: StartTrailOptions = {}): TrailRunner {
  const store = options.store ?? trailStoreOf(ctx);
  store.require(id, ctx.profile.name);
  return new TrailRunner(ctx, store, id, options, null);
}

/** This profile's trailing stops (newest first), with whether a live process trails each, and beside them the damaged ones (never hidden). */
export function listTrails(ctx: Pick<TradingContext, 'profile'>, store: TrailStore = trailStoreOf(ctx)): { trails: { record: TrailRecord; summary: string; runner: number | null }[]; damaged: DamagedRecord<DamagedAlgoSummary>[] } {
  const listed = store.list(ctx.profile.name);
  return { trails: listed.records.map((record) => ({ record, summary: trailSummary(record), runner: liveRunner(store.dir, record.id)?.pid ?? null })), damaged: listed.damaged };
}

/**
 * Stops trailing the position (`off`): the process trailing it stops at its next look; the armed level
 * stays at the service. `wallet` may be left out when only one wallet trails the market.
 */
export function turnOffTrail(ctx: Pick<TradingContext, 'profile'>, input: { market: string; wallet?: string }, now: number = Date.now(), store: TrailStore = trailStoreOf(ctx)): TrailRecord {
  const wallet = input.wallet === undefined ? undefined : walletIds(input.wallet).wallet.toLowerCase();
  const live = store.list(ctx.profile.name).records.filter((r) => r.market === input.market && r.status === 'trailing' && (wallet === undefined || r.wallet.toLowerCase() === wallet));
  if (live.length === 0) throw new ValidationError(`no trailing stop on ${input.market}${input.wallet ? ` for ${input.wallet}` : ''} in this data folder`, { field: 'market', code: 'TRAIL_NOT_FOUND', hint: 'Nothing to turn off.' });
  if (live.length > 1) throw new ValidationError(`${live.length} wallets trail ${input.market}; say which with --wallet`, { field: 'wallet', code: 'AMBIGUOUS_TRAIL' });
  const r = live[0]!;
  return store.update(r.id, (x) => ({ ...x, status: 'off', notes: withTrailNote(x, now, `turned off; the stop-loss${x.stop ? ` at ${x.stop.trigger_price}` : ''} stays armed`) }), now);
}

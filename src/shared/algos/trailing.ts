/**
 * Trailing stop rules, pure: the app, the command line and the runner in main use the same ones.
 *
 * A trailing stop is the position's whole-position stop-loss trigger, moved toward the mark as the mark
 * makes new highs (a long) or new lows (a short). The best mark seen since it was armed is its
 * high-water mark (for a short, the low-water mark; "high" below means "best for the position"). Its
 * level is the high-water mark less the distance (a long) or plus it (a short), the distance being a price
 * or a percentage of the high-water mark.
 *
 * The rules a trader relies on:
 *  - it ratchets only in the trader's favour: a long's stop only rises, a short's only falls;
 *  - only by whole ticks: a level is put on the market's tick grid away from the mark (a long's rounded
 *    down, a short's up), and a move is at least one tick;
 *  - at most once per second (MIN_MOVE_INTERVAL_MS): a move asked sooner waits for the next look;
 *  - with an activation price, it does not move until the mark has reached that price;
 *  - a level is never at or past the mark (the service rejects a trigger already past it): when the
 *    high-water mark was made while the desk was away and the mark has since fallen through the level
 *    the stop should have reached, the stop goes to the last tick before the mark and the caller says so.
 *
 * Distances are parsed here and only here (parseTrailDistance), so the shared input grammar can take over
 * in one place.
 */
import { Decimal, canonical, decimalTextProblem, isMultipleOf } from '../decimal/index.js';
import { InputRuleError } from '../errorKinds.js';

/** At most one move of the stop per second. */
export const MIN_MOVE_INTERVAL_MS = 1_000;

export type TrailSide = 'LONG' | 'SHORT';

export type TrailDistance = { kind: 'percent'; value: string } | { kind: 'price'; value: string };

export class TrailRuleError extends InputRuleError {
  declare readonly field: string;
  constructor(errorCode: string, field: string, message: string, errorHint?: string) {
    super(errorCode, field, message, errorHint);
    this.name = 'TrailRuleError';
  }
}

/**
 * `1.5%` (a percentage of the high-water mark, above 0 and below 100) or `25` (a price distance, above
 * 0). Anything else is refused, never rounded: a typo must not arm a stop somewhere else.
 */
export function parseTrailDistance(text: string): TrailDistance {
  // The shared decimal grammar, with an optional '%' right after it: nothing trimmed, nothing rounded.
  const raw = text;
  const percent = raw.endsWith('%');
  const number = percent ? raw.slice(0, -1) : raw;
  const hint = 'Give a percentage such as 1.5% or a price distance such as 25.';
  const problem = decimalTextProblem(number);
  if (problem !== null) throw new TrailRuleError('INVALID_TRAIL_DISTANCE', 'distance', `'${raw.slice(0, 40)}' is not a trailing distance: ${problem}`, hint);
  const d = new Decimal(number);
  // Beyond any price the venue lists, or finer than any tick: a typo, not a distance.
  if (d.gte('1e18') || d.decimalPlaces() > 18) throw new TrailRuleError('INVALID_TRAIL_DISTANCE', 'distance', `'${raw.slice(0, 40)}' is not a trailing distance: at most 18 digits before and after the point`, hint);
  if (d.lte(0)) throw new TrailRuleError('INVALID_TRAIL_DISTANCE', 'distance', `the trailing distance must be greater than 0, got ${raw}`, hint);
  if (percent && d.gte(100)) throw new TrailRuleError('INVALID_TRAIL_DISTANCE', 'distance', `a trailing distance in percent must be below 100%, got ${raw}`, hint);
  return percent ? { kind: 'percent', value: canonical(d) } : { kind: 'price', value: canonical(d) };
}

/** "1.5%" or "25": the distance as the trader wrote it. */
export function formatTrailDistance(d: TrailDistance): string {
  return d.kind === 'percent' ? `${d.value}%` : d.value;
}

/** A price distance must be at least one tick, else the stop could never sit apart from its high-water mark. */
export function checkTrailDistance(d: TrailDistance, tickSize: string): void {
  if (d.kind === 'price' && new Decimal(d.value).lt(tickSize)) {
    throw new TrailRuleError('INVALID_TRAIL_DISTANCE', 'distance', `a trailing distance of ${d.value} is less than the market's tick ${tickSize}`, 'Give at least one tick, or a percentage.');
  }
}

/** True when `a` is better for the position than `b` (higher for a long, lower for a short). */
export function better(side: TrailSide, a: Decimal | string, b: Decimal | string): boolean {
  return side === 'LONG' ? new Decimal(a).gt(b) : new Decimal(a).lt(b);
}

/** The high-water mark after seeing `price` (a long keeps the highest, a short the lowest). */
export function nextHighWater(side: TrailSide, highWater: string | null, price: Decimal | string): string {
  if (highWater === null || better(side, price, highWater)) return canonical(new Decimal(price));
  return highWater;
}

/** The stop level a high-water mark gives, on the tick grid away from the mark (a long's down, a short's up). */
export function trailLevel(side: TrailSide, highWater: Decimal | string, distance: TrailDistance, tickSize: string): Decimal {
  const hw = new Decimal(highWater);
  const gap = distance.kind === 'percent' ? hw.mul(distance.value).div(100) : new Decimal(distance.value);
  const raw = side === 'LONG' ? hw.minus(gap) : hw.plus(gap);
  const tick = new Decimal(tickSize);
  return raw.div(tick).toDecimalPlaces(0, side === 'LONG' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL).mul(tick);
}

/** Whether trailing has started: no activation price, or the high-water mark has reached it. */
export function isActivated(side: TrailSide, activate: string | null, highWater: string | null): boolean {
  if (activate === null) return true;
  if (highWater === null) return false;
  return side === 'LONG' ? new Decimal(highWater).gte(activate) : new Decimal(highWater).lte(activate);
}

/** The last tick strictly before the mark on the stop's side (a long's below it, a short's above it). */
export function lastTickBeforeMark(side: TrailSide, mark: Decimal | string, tickSize: string): Decimal {
  const m = new Decimal(mark);
  const tick = new Decimal(tickSize);
  const onGrid = m.div(tick).toDecimalPlaces(0, side === 'LONG' ? Decimal.ROUND_CEIL : Decimal.ROUND_FLOOR).mul(tick);
  return side === 'LONG' ? onGrid.minus(tick) : onGrid.plus(tick);
}

export interface TrailState {
  side: TrailSide;
  distance: TrailDistance;
  activate: string | null;
  tickSize: string;
  /** The armed stop's trigger price (null: none armed yet). */
  stop: string | null;
  highWater: string | null;
  /** When the stop last moved (ms, null: never). */
  lastMoveAt: number | null;
}

export type RatchetDecision =
  | { move: false; highWater: string; why: 'not_activated' | 'no_gain' | 'too_soon' | 'not_past_mark' }
  /** clamped: the level it should be at is at or past the mark; `to` is the last tick before the mark. */
  | { move: true; highWater: string; to: string; wanted: string; clamped: boolean };

/**
 * One look at the mark: the new high-water mark and whether the stop moves, and where to. `seen` is the
 * best price seen since the last look (the mark, or a candle's high or low while away); `mark` is the
 * mark now, which the level must not reach.
 */
export function ratchet(state: TrailState, seen: Decimal | string, mark: Decimal | string, now: number): RatchetDecision {
  const highWater = nextHighWater(state.side, nextHighWater(state.side, state.highWater, seen), mark);
  if (!isActivated(state.side, state.activate, highWater)) return { move: false, highWater, why: 'not_activated' };
  const wanted = trailLevel(state.side, highWater, state.distance, state.tickSize);
  let to = wanted;
  let clamped = false;
  if (!better(state.side, mark, wanted)) {
    to = lastTickBeforeMark(state.side, mark, state.tickSize);
    clamped = true;
  }
  const tick = new Decimal(state.tickSize);
  if (state.stop !== null) {
    const gain = state.side === 'LONG' ? to.minus(state.stop) : new Decimal(state.stop).minus(to);
    if (gain.lt(tick)) return { move: false, highWater, why: clamped && better(state.side, wanted, state.stop) ? 'not_past_mark' : 'no_gain' };
  }
  if (to.lte(0)) return { move: false, highWater, why: 'no_gain' };
  if (state.lastMoveAt !== null && now - state.lastMoveAt < MIN_MOVE_INTERVAL_MS) return { move: false, highWater, why: 'too_soon' };
  return { move: true, highWater, to: canonical(to), wanted: canonical(wanted), clamped };
}

export interface CandleExtremes {
  /** Start and end of the candle (ms). */
  t: number;
  T: number;
  h: string;
  l: string;
}

/**
 * The best price the candles show since `since` (ms), for the high-water mark after the desk was away:
 * a long's highest high, a short's lowest low, of every candle that ends at or after `since`. Null when no
 * candle covers that time.
 *
 * `armedIn` is the candle the stop was armed in, as it stood then: that candle also holds prices from
 * before the stop existed, so it counts only where it went beyond what it showed at arming (a price made
 * after arming).
 */
export function bestSeenInCandles(side: TrailSide, candles: readonly CandleExtremes[], since: number, armedIn: CandleExtremes | null = null): string | null {
  let best: string | null = null;
  for (const c of candles) {
    if (c.T < since) continue;
    const extreme = side === 'LONG' ? c.h : c.l;
    if (armedIn && c.t === armedIn.t && !better(side, extreme, side === 'LONG' ? armedIn.h : armedIn.l)) continue;
    best = nextHighWater(side, best, extreme);
  }
  return best;
}

/** True when `price` is on the tick grid (a stop a person set by hand may not be). */
export function onTick(price: string, tickSize: string): boolean {
  return isMultipleOf(price, tickSize);
}

/**
 * Where a chase order rests, and when it moves: pure rules on the best bid and ask of the venue's book
 * and the market's tick (from /markets, never assumed).
 *
 *  - A buy rests at the best bid, or `offsetTicks` whole ticks above it (inside the spread); a sell at the
 *    best ask, or that many ticks below it. It is post-only, so it never crosses: a buy is always at least
 *    one tick below the best ask, a sell at least one tick above the best bid, whatever the offset asks.
 *  - Every price is on the tick grid: a best price off the grid (a venue quoting finer than the service)
 *    is taken toward the resting side (a buy down, a sell up), so rounding never makes it cross.
 *  - It moves only when the best price has moved AWAY from it by at least one tick (a buy's target rose,
 *    a sell's fell), and never more than once per interval. A market moving toward the order is what
 *    fills it: the order stays.
 *  - The max distance is how far the best price may go from where the chase started (a percent of that
 *    price, or a price distance) before it stops instead of following.
 */
import { Decimal, canonical } from '../../decimal/index.js';

export type ChaseSide = 'BUY' | 'SELL';

/** The best bid and ask, as decimal strings. */
export interface BestPrices {
  bid: string;
  ask: string;
}

export type MaxDistance = { kind: 'percent'; value: string } | { kind: 'price'; value: string };

function floorToTick(v: Decimal, tick: Decimal): Decimal {
  return v.div(tick).floor().mul(tick);
}

function ceilToTick(v: Decimal, tick: Decimal): Decimal {
  return v.div(tick).ceil().mul(tick);
}

/**
 * The price a chase order of `side` rests at for this book: on the tick grid, inside the spread, never
 * crossing. null when no such price exists (a book without a positive price on the grid below the ask).
 */
export function chaseTarget(side: ChaseSide, best: BestPrices, offsetTicks: number, tickSize: string): string | null {
  const tick = new Decimal(tickSize);
  if (!tick.gt(0) || !Number.isInteger(offsetTicks) || offsetTicks < 0) throw new RangeError('a positive tick and a whole, non-negative offset are required');
  const bid = new Decimal(best.bid);
  const ask = new Decimal(best.ask);
  if (side === 'BUY') {
    // The highest grid price strictly below the ask: a post-only buy there never takes.
    const ceiling = ceilToTick(ask, tick).minus(tick);
    const wanted = floorToTick(bid, tick).plus(tick.mul(offsetTicks));
    const px = Decimal.min(wanted, ceiling);
    return px.gt(0) ? canonical(px) : null;
  }
  // The lowest grid price strictly above the bid.
  const floor = floorToTick(bid, tick).plus(tick);
  const wanted = ceilToTick(ask, tick).minus(tick.mul(offsetTicks));
  const px = Decimal.max(wanted, floor);
  return px.gt(0) ? canonical(px) : null;
}

/** True when a post-only order of `side` at `price` would take against this book (it would be rejected). */
export function wouldTake(side: ChaseSide, price: string, best: BestPrices): boolean {
  return side === 'BUY' ? new Decimal(price).gte(best.ask) : new Decimal(price).lte(best.bid);
}

/** The best price a chase of `side` follows: the bid for a buy, the ask for a sell. */
export function followedBest(side: ChaseSide, best: BestPrices): string {
  return side === 'BUY' ? best.bid : best.ask;
}

/** Whole ticks `target` lies away from `current` in the chase's direction (up for a buy, down for a sell); negative toward it. */
export function ticksAway(side: ChaseSide, current: string, target: string, tickSize: string): number {
  const diff = new Decimal(target).minus(current).div(tickSize);
  const signed = side === 'BUY' ? diff : diff.neg();
  return signed.trunc().toNumber();
}

export type RepriceDecision = { move: false; why: 'in_place' | 'toward' } | { move: false; why: 'too_soon'; waitMs: number } | { move: true; to: string; ticks: number };

/**
 * Whether a chase resting at `current` re-prices to `target` now: only when the target moved away by at
 * least one whole tick, and only when the last move was at least `intervalMs` ago (`lastMoveAt` null:
 * none yet). Too soon: how long until it may.
 */
export function repriceDecision(side: ChaseSide, current: string, target: string, tickSize: string, now: number, lastMoveAt: number | null, intervalMs: number): RepriceDecision {
  const ticks = ticksAway(side, current, target, tickSize);
  if (ticks === 0) return { move: false, why: 'in_place' };
  if (ticks < 0) return { move: false, why: 'toward' };
  if (lastMoveAt !== null && now - lastMoveAt < intervalMs) return { move: false, why: 'too_soon', waitMs: intervalMs - (now - lastMoveAt) };
  return { move: true, to: target, ticks };
}

/** How far the followed best price has gone away from where it started (0 when it came toward the order). */
export function distanceMoved(side: ChaseSide, startBest: string, best: string): Decimal {
  const d = side === 'BUY' ? new Decimal(best).minus(startBest) : new Decimal(startBest).minus(best);
  return Decimal.max(d, 0);
}

/** The max distance as a price distance from `startBest`. */
export function maxDistancePrice(max: MaxDistance, startBest: string): Decimal {
  return max.kind === 'price' ? new Decimal(max.value) : new Decimal(startBest).mul(max.value).div(100);
}

/** True when the best price has gone `max` or more away from where the chase started: it stops. */
export function maxDistanceReached(side: ChaseSide, max: MaxDistance | null, startBest: string, best: string): boolean {
  if (max === null) return false;
  return distanceMoved(side, startBest, best).gte(maxDistancePrice(max, startBest));
}

/** The phase of a chase at `now`: resting post-only, crossing (after --taker-after), or over (--timeout). */
export function chasePhase(startedAt: number, now: number, timeoutMs: number | null, takerAfterMs: number | null): 'maker' | 'taker' | 'timed_out' {
  if (timeoutMs !== null && now - startedAt >= timeoutMs) return 'timed_out';
  if (takerAfterMs !== null && now - startedAt >= takerAfterMs) return 'taker';
  return 'maker';
}

/** Milliseconds until the next time-based change of phase (null: none ahead). */
export function nextDeadlineIn(startedAt: number, now: number, timeoutMs: number | null, takerAfterMs: number | null): number | null {
  const due = [timeoutMs, takerAfterMs].filter((x): x is number => x !== null).map((ms) => startedAt + ms - now).filter((ms) => ms > 0);
  return due.length === 0 ? null : Math.min(...due);
}

/** What is left to fill. */
export function remainingSize(size: string, filled: string): string {
  return canonical(Decimal.max(new Decimal(size).minus(filled), 0));
}

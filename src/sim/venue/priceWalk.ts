/**
 * Decimal price arithmetic for the simulated venue: tick rounding, the per-tick random walk,
 * the synthetic order book and its derived prices (mid, impact prices, premium).
 *
 * Everything here is a pure function of its inputs so the walk, the book and the candles agree
 * on the same rounding rules and stay deterministic for a given seed.
 */
import Decimal from 'decimal.js';
import { SIGNED_DECIMAL_TEXT } from '../../shared/decimal/decimal.js';

/**
 * A decimal string with an optional sign and fraction, no exponent (the venue never sends exponents): the
 * shared grammar of every decimal (src/shared/decimal), so the simulator refuses what the client refuses.
 */
export const DECIMAL_PATTERN = SIGNED_DECIMAL_TEXT;

export interface BookLevel {
  readonly px: string;
  readonly sz: string;
  /** Orders at the level, as an upstream book reports them (the synthetic book has none). */
  readonly n?: number;
}

export interface Book {
  readonly bids: BookLevel[];
  readonly asks: BookLevel[];
}

export interface BookParams {
  readonly tick: Decimal;
  readonly spreadBps: number;
  readonly depthPerLevel: Decimal;
  readonly levels: number;
}

/** Venue strings are plain decimal notation; Decimal#toString would switch to exponents for tiny or huge values. */
export function fmt(value: Decimal): string {
  return value.toFixed();
}

export function roundToTick(value: Decimal, tick: Decimal, rounding: Decimal.Rounding = Decimal.ROUND_HALF_UP): Decimal {
  return value.div(tick).toDecimalPlaces(0, rounding).mul(tick);
}

/** Rounds a price to the tick grid without letting it reach zero: a venue price is always at least one tick. */
export function toMark(value: Decimal, tick: Decimal, rounding: Decimal.Rounding = Decimal.ROUND_HALF_UP): Decimal {
  const rounded = roundToTick(value, tick, rounding);
  return rounded.lt(tick) ? tick : rounded;
}

/** Rounds a size down to szDecimals, since a book cannot show more size than it has. */
export function roundSize(value: Decimal, szDecimals: number): Decimal {
  return value.toDecimalPlaces(szDecimals, Decimal.ROUND_DOWN);
}

/**
 * One step of the live walk on the unrounded fair price: fair * (1 + z * vol).
 * The walk runs on an unrounded value so that a volatility smaller than one tick still drifts the
 * mark over several ticks instead of being rounded back to the same price forever.
 */
export function walkStep(fair: Decimal, z: number, volatilityBps: number, tick: Decimal): Decimal {
  const move = new Decimal(z).mul(volatilityBps).div(10_000);
  const next = fair.mul(move.plus(1));
  // A price can never go to or below zero; floor it at one tick so the next step can still move it.
  return next.lt(tick) ? tick : next;
}

/** Best bid and best ask around the mark, each a tick multiple, never crossed or locked. */
export function bestPrices(mark: Decimal, params: BookParams): { bid: Decimal; ask: Decimal } {
  const half = mark.mul(params.spreadBps).div(20_000);
  const bid = roundToTick(mark.minus(half), params.tick, Decimal.ROUND_FLOOR);
  let ask = roundToTick(mark.plus(half), params.tick, Decimal.ROUND_CEIL);
  // A zero or sub-tick spread would round both sides onto the mark; keep one tick between them.
  if (ask.lte(bid)) ask = bid.plus(params.tick);
  return { bid, ask };
}

/**
 * Distance between book levels: one basis point of the mark rounded down to the tick grid,
 * at least one tick, so books of cheap and expensive assets span a similar relative depth.
 */
export function levelStep(mark: Decimal, tick: Decimal): Decimal {
  const step = roundToTick(mark.div(10_000), tick, Decimal.ROUND_FLOOR);
  return step.lt(tick) ? tick : step;
}

export function buildBook(mark: Decimal, params: BookParams, szDecimals: number): Book {
  const { bid, ask } = bestPrices(mark, params);
  const step = levelStep(mark, params.tick);
  const sz = fmt(roundSize(params.depthPerLevel, szDecimals));
  const bids: BookLevel[] = [];
  const asks: BookLevel[] = [];
  for (let i = 0; i < params.levels; i++) {
    const bidPx = bid.minus(step.mul(i));
    // Deep bids of a very cheap asset would reach zero or below; a venue book has no such levels.
    if (bidPx.gt(0)) bids.push({ px: fmt(bidPx), sz });
    asks.push({ px: fmt(ask.plus(step.mul(i))), sz });
  }
  return { bids, asks };
}

export function midPrice(book: Book): Decimal | null {
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (!bid || !ask) return null;
  return new Decimal(bid.px).plus(ask.px).div(2);
}

/**
 * Average execution price of a market order of `notional` quote units against one side of the book.
 * When the book is thinner than the notional the whole side is used, so the result is always a price.
 */
export function impactPrice(levels: readonly BookLevel[], notional: Decimal): Decimal | null {
  let remaining = notional;
  let filledSize = new Decimal(0);
  let filledNotional = new Decimal(0);
  for (const level of levels) {
    if (remaining.lte(0)) break;
    const px = new Decimal(level.px);
    const levelNotional = px.mul(level.sz);
    const take = Decimal.min(levelNotional, remaining);
    filledNotional = filledNotional.plus(take);
    filledSize = filledSize.plus(take.div(px));
    remaining = remaining.minus(take);
  }
  if (filledSize.isZero()) return null;
  return filledNotional.div(filledSize);
}

/**
 * The venue's instantaneous premium: how far the impact prices sit outside the oracle price,
 * (max(impactBid - oracle, 0) - max(oracle - impactAsk, 0)) / oracle.
 */
export function premium(impactBid: Decimal, impactAsk: Decimal, oracle: Decimal): Decimal {
  const up = Decimal.max(impactBid.minus(oracle), 0);
  const down = Decimal.max(oracle.minus(impactAsk), 0);
  return up.minus(down).div(oracle);
}

/**
 * Groups book levels into buckets of `nSigFigs` significant figures (and optionally a mantissa of
 * 2 or 5 at five figures), the way the venue's l2Book aggregation works: bids round down and asks
 * round up, so aggregation never makes the book look tighter than it is.
 */
export function aggregateLevels(
  levels: readonly BookLevel[],
  side: 'bid' | 'ask',
  nSigFigs: number,
  mantissa: number | null,
  count: (index: number) => number,
): { px: string; sz: string; n: number }[] {
  const out: { px: Decimal; sz: Decimal; n: number }[] = [];
  levels.forEach((level, index) => {
    const px = new Decimal(level.px);
    // px.e is the exponent of the leading digit, so this bucket keeps exactly nSigFigs figures.
    const unit = new Decimal(10).pow(px.e - nSigFigs + 1).mul(mantissa ?? 1);
    const bucket = roundToTick(px, unit, side === 'bid' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL);
    const last = out[out.length - 1];
    if (last && last.px.eq(bucket)) {
      last.sz = last.sz.plus(level.sz);
      last.n += count(index);
    } else {
      out.push({ px: bucket, sz: new Decimal(level.sz), n: count(index) });
    }
  });
  return out.map((level) => ({ px: fmt(level.px), sz: fmt(level.sz), n: level.n }));
}

/**
 * The order book as the app shows it, pure: the venue groups levels to 2..5 significant figures (l2Book's
 * nSigFigs; null is full precision), prices are shown with the market's decimals or fewer when the
 * grouping's step is coarser, and each side carries the running total from the best level out, with the
 * spread as a percentage of the mid. The command line prints its book with these; the renderer's book
 * model (features/orderBook/bookModel.ts) follows the same rules, and a unit test holds the two together.
 */
import { Decimal, parseDecimal } from '../decimal/decimal.js';

/** Significant figures of the venue's grouping; null for full precision. */
export type BookSigFigs = 2 | 3 | 4 | 5 | null;

export const BOOK_SIG_FIGS: readonly Exclude<BookSigFigs, null>[] = [2, 3, 4, 5];

/**
 * The price step a grouping amounts to near `reference` (10^(e - n + 1) for n significant figures of a
 * price whose leading digit has exponent e), never finer than the tick; null without a positive reference.
 */
export function bookGroupStep(grouping: BookSigFigs, reference: string | null, tick: string): Decimal | null {
  const t = parseDecimal(tick, 'tick_size');
  if (grouping === null) return t;
  if (reference === null) return null;
  const p = parseDecimal(reference, 'reference');
  if (p.lte(0)) return null;
  const step = new Decimal(10).pow(p.e - grouping + 1);
  return t.gt(step) ? t : step;
}

/** Decimal places to show prices with: the tick's, or fewer when the grouping's step is coarser. */
export function bookPricePlaces(tick: string, grouping: BookSigFigs, reference: string | null): number {
  const places = Math.max(0, parseDecimal(tick, 'tick_size').decimalPlaces());
  if (grouping === null) return places;
  const step = bookGroupStep(grouping, reference, tick);
  return step ? Math.min(places, Math.max(0, step.decimalPlaces())) : places;
}

export interface BookLevelIn {
  price: string;
  size: string;
  orders: number;
}

export interface BookLevelOut extends BookLevelIn {
  /** Running size from the best level out to this one. */
  total: Decimal;
}

/** The `depth` best levels of a side (best first) with their running totals, summed exactly. */
export function bookSide(levels: readonly BookLevelIn[], depth: number): BookLevelOut[] {
  let sum = new Decimal(0);
  return levels.slice(0, depth).map((l) => {
    sum = sum.plus(parseDecimal(l.size, 'size'));
    return { ...l, total: sum };
  });
}

/** Best ask minus best bid and that over their mid; null when a side is empty or the book is crossed. */
export function bookSpread(bestBid: string | undefined, bestAsk: string | undefined): { abs: Decimal; fraction: Decimal } | null {
  if (bestBid === undefined || bestAsk === undefined) return null;
  const bid = parseDecimal(bestBid, 'bid');
  const ask = parseDecimal(bestAsk, 'ask');
  const abs = ask.minus(bid);
  const mid = ask.plus(bid).div(2);
  if (abs.isNegative() || mid.lte(0)) return null;
  return { abs, fraction: abs.div(mid) };
}

/**
 * The order book as rows to draw: the levels nearest the spread on each side with their cumulative size,
 * depth ratios for the bars, and the spread. Pure functions over the decimal strings main sent: sizes and
 * totals are summed as Decimals and shown as text; only the depth ratio becomes a JS number, for a CSS
 * transform (like the chart's plotNumber: drawn, never sent or compared).
 */
import type { BookView, MarketView } from '../../../../shared/ipc';
import { Decimal, dec, fmt, placesOfStep, type DecimalValue } from '../../lib/decimal';

export type BookSide = 'ask' | 'bid';
/** Significant figures of the book's grouping, null for full precision (kept here so this module stays free of UI state). */
export type BookGrouping = BookView['n_sig_figs'];

export interface BookRow {
  side: BookSide;
  /** The level's price as main sent it (what the ticket receives). */
  price: string;
  priceText: string;
  sizeText: string;
  /** Cumulative size from the best level out to this one. */
  totalText: string;
  /** Cumulative size over the largest cumulative size shown on either side, 0..1 (for the depth bar). */
  depth: number;
}

export interface BookSpread {
  /** Best ask minus best bid. */
  abs: string;
  /** The spread as a percentage of the mid, e.g. "0.012%". */
  pct: string;
}

export interface BookRows {
  /** Best first (the view draws them upward from the spread). */
  asks: BookRow[];
  /** Best first. */
  bids: BookRow[];
  spread: BookSpread | null;
}

/** The grouping choices the venue offers, finest first. */
export const GROUPINGS: readonly BookGrouping[] = [null, 5, 4, 3, 2];

/**
 * The price step a grouping amounts to near `reference` (10^(e - n + 1) for n significant figures of a
 * price whose leading digit has exponent e), never finer than the market's tick; null without a price.
 */
export function groupStep(grouping: BookGrouping, reference: string | null | undefined, tick: string): DecimalValue | null {
  const t = dec(tick);
  if (grouping === null) return t;
  const p = dec(reference);
  if (!p || p.lte(0)) return null;
  const step = new Decimal(10).pow(p.e - grouping + 1);
  return t && t.gt(step) ? t : step;
}

/** Decimal places to show prices with: the market's, or fewer when the grouping's step is coarser. */
export function pricePlaces(market: Pick<MarketView, 'tick_size'>, grouping: BookGrouping, reference: string | null | undefined): number {
  const places = placesOfStep(market.tick_size);
  if (grouping === null) return places;
  const step = groupStep(grouping, reference, market.tick_size);
  return step ? Math.min(places, Math.max(0, step.decimalPlaces())) : places;
}

/** The later of two books (a snapshot and the live feed); the live one wins a tie. */
export function latestBook(snapshot: BookView | undefined, live: BookView | null): BookView | undefined {
  if (!live) return snapshot;
  if (!snapshot) return live;
  return snapshot.at > live.at ? snapshot : live;
}

/** The `count` best levels and their running totals. */
function side(levels: BookView['bids'], count: number): { levels: BookView['bids']; totals: DecimalValue[] } {
  const shown = levels.slice(0, count);
  const totals: DecimalValue[] = [];
  let sum = new Decimal(0);
  for (const level of shown) {
    sum = sum.plus(dec(level.size) ?? 0);
    totals.push(sum);
  }
  return { levels: shown, totals };
}

/** The rows for `perSide` levels a side, prices with `places` decimals and sizes with `szDecimals`. */
export function bookRows(book: BookView, perSide: number, places: number, szDecimals: number): BookRows {
  const asks = side(book.asks, perSide);
  const bids = side(book.bids, perSide);
  const maxAsk = asks.totals[asks.totals.length - 1];
  const maxBid = bids.totals[bids.totals.length - 1];
  const max = maxAsk && maxBid ? Decimal.max(maxAsk, maxBid) : (maxAsk ?? maxBid ?? null);
  const rows = (s: { levels: BookView['bids']; totals: DecimalValue[] }, which: BookSide): BookRow[] =>
    s.levels.map((level, i) => {
      const total = s.totals[i] ?? new Decimal(0);
      return {
        side: which,
        price: level.price,
        priceText: fmt(level.price, { places }),
        sizeText: fmt(level.size, { places: szDecimals }),
        totalText: fmt(total, { places: szDecimals }),
        // A ratio for the bar's width on screen, rounded so an unchanged bar keeps an equal value.
        depth: max && max.gt(0) ? total.div(max).toDecimalPlaces(3).toNumber() : 0,
      };
    });
  return { asks: rows(asks, 'ask'), bids: rows(bids, 'bid'), spread: spreadOf(book, places) };
}

/** Best ask minus best bid, and that as a percentage of their mid; null when a side is empty or crossed. */
export function spreadOf(book: BookView, places: number): BookSpread | null {
  const ask = dec(book.asks[0]?.price);
  const bid = dec(book.bids[0]?.price);
  if (!ask || !bid) return null;
  const abs = ask.minus(bid);
  const mid = ask.plus(bid).div(2);
  if (abs.isNegative() || mid.lte(0)) return null;
  return { abs: fmt(abs, { places }), pct: `${fmt(abs.div(mid).mul(100), { places: 3 })}%` };
}

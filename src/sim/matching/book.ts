/**
 * Taking liquidity from the venue's synthetic book (VenueMarketData.getBook: levels around the mark,
 * spread and depth from the market's sim config). A buy walks the asks upward and a sell walks the bids
 * downward, and neither ever passes the order's limit (the slippage bound of a MARKET order), so a fill
 * is never worse than the limit. The book is a model of outside liquidity: it is not depleted by fills.
 */
import type { Side } from '../../shared/protocol/index.js';
import type { Book } from '../venue/index.js';
import { Decimal, ZERO, d } from '../core/numbers.js';

export interface Chunk {
  px: Decimal;
  sz: Decimal;
}

export function takeFromBook(book: Book, side: Side, qty: Decimal, limit: Decimal): Chunk[] {
  const levels = side === 'BUY' ? book.asks : book.bids;
  const chunks: Chunk[] = [];
  let left = qty;
  for (const level of levels) {
    if (left.lte(0)) break;
    const px = d(level.px);
    if (side === 'BUY' ? px.gt(limit) : px.lt(limit)) break;
    const sz = Decimal.min(d(level.sz), left);
    if (sz.lte(0)) continue;
    chunks.push({ px, sz });
    left = left.minus(sz);
  }
  return chunks;
}

export function totalSize(chunks: readonly Chunk[]): Decimal {
  return chunks.reduce((acc, c) => acc.plus(c.sz), ZERO);
}

/** Would a limit order at `price` take liquidity now (cross the best opposite level)? */
export function wouldCross(book: Book, side: Side, price: Decimal): boolean {
  const best = side === 'BUY' ? book.asks[0] : book.bids[0];
  if (!best) return false;
  return side === 'BUY' ? price.gte(best.px) : price.lte(best.px);
}

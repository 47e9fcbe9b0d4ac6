/** markets:* — market records joined to venue data (on venue_symbol / venue_asset_index), candles, and the order book. */
import type { MarketsDesk } from '../../app/desks/marketsDesk.js';
import type { HandlerGroup } from './types.js';

export function marketsHandlers(desk: MarketsDesk): HandlerGroup<'markets'> {
  return {
    'markets:list': () => desk.markets(),
    'markets:candles': (r) => desk.candles(r),
    'markets:book': (r) => desk.book(r),
    'markets:watchBook': (r) => desk.watchBook(r),
    'markets:watchTrades': (r) => desk.watchTrades(r),
  };
}

/** markets:* — market records joined to venue data (on venue_symbol / venue_asset_index), candles, and the order book. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function marketsHandlers(core: AppCore): HandlerGroup<'markets'> {
  return {
    'markets:list': () => core.markets(),
    'markets:candles': (r) => core.candles(r),
    'markets:book': (r) => core.book(r),
    'markets:watchBook': (r) => core.watchBook(r),
  };
}

/** Derived live numbers for a market: the latest mark (event stream first, then the market record). */
import type { MarketView } from '../../../../shared/ipc';
import { dec, type DecimalValue } from '../../lib/decimal';
import { getMark, useMark } from './markStore';

export function useLiveMark(market: Pick<MarketView, 'symbol' | 'mark'> | undefined): string | null {
  const tick = useMark(market?.symbol);
  return tick?.mark ?? market?.mark ?? null;
}

/** The latest mark at this moment, for an event handler: reading it re-renders nothing when marks move. */
export function liveMarkNow(market: Pick<MarketView, 'symbol' | 'mark'>): string | null {
  return getMark(market.symbol)?.mark ?? market.mark ?? null;
}

/** 24 h change as a fraction from the live mark and the venue's previous-day price. */
export function liveChange(mark: string | null, market: Pick<MarketView, 'prev_day_px' | 'change_24h'>): DecimalValue | null {
  const m = dec(mark);
  const prev = dec(market.prev_day_px);
  if (m && prev && prev.gt(0)) return m.minus(prev).div(prev);
  return dec(market.change_24h);
}

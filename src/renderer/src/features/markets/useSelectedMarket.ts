import { useEffect } from 'react';
import type { MarketView } from '../../../../shared/ipc';
import { getUi, selectMarket, useUi } from '../../app/uiStore';
import { useMarkets } from '../../ipc/queries';

/**
 * The selected market's record; the first active market when none (or one no longer listed) is selected.
 * The fallback is worked out during render, so the Trade view's first frame already has its ticket; the
 * store learns it just after, for the parts that read the selection from there. The store is read
 * through the same fallback, so that write changes nothing this component sees (no second render of the
 * Trade view before its first frame).
 */
export function useSelectedMarket(): { market: MarketView | undefined; symbol: string | null; isPending: boolean; error: unknown } {
  const markets = useMarkets();
  const list = markets.data?.markets;
  const fallback = list?.find((m) => m.is_active)?.symbol ?? list?.[0]?.symbol ?? null;
  const symbol = useUi((s) => (s.market !== null && (!list || list.some((m) => m.symbol === s.market)) ? s.market : fallback));
  useEffect(() => {
    if (symbol !== null && getUi().market !== symbol) selectMarket(symbol);
  }, [symbol]);
  return { market: list?.find((m) => m.symbol === symbol), symbol, isPending: markets.isPending, error: markets.error };
}

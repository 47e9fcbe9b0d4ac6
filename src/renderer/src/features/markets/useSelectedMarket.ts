import { useEffect } from 'react';
import type { MarketView } from '../../../../shared/ipc';
import { selectMarket, useUi } from '../../app/uiStore';
import { useMarkets } from '../../ipc/queries';

/**
 * The selected market's record; the first active market when none (or one no longer listed) is selected.
 * The fallback is worked out during render, so the Trade view's first frame already has its ticket; the
 * store learns it just after, for the parts that read the selection from there.
 */
export function useSelectedMarket(): { market: MarketView | undefined; symbol: string | null; isPending: boolean; error: unknown } {
  const chosen = useUi((s) => s.market);
  const markets = useMarkets();
  const list = markets.data?.markets;
  const market = list?.find((m) => m.symbol === chosen) ?? list?.find((m) => m.is_active) ?? list?.[0];
  const symbol = market?.symbol ?? chosen;
  useEffect(() => {
    if (symbol !== null && symbol !== chosen) selectMarket(symbol);
  }, [symbol, chosen]);
  return { market, symbol, isPending: markets.isPending, error: markets.error };
}

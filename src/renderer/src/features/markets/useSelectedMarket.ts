import { useEffect } from 'react';
import type { MarketView } from '../../../../shared/ipc';
import { selectMarket, useUi } from '../../app/uiStore';
import { useMarkets } from '../../ipc/queries';

/** The selected market's record; picks the first active market when none is selected yet. */
export function useSelectedMarket(): { market: MarketView | undefined; symbol: string | null; isPending: boolean; error: unknown } {
  const symbol = useUi((s) => s.market);
  const markets = useMarkets();
  const list = markets.data?.markets;
  useEffect(() => {
    if (!list || list.length === 0) return;
    if (symbol === null || !list.some((m) => m.symbol === symbol)) {
      const first = list.find((m) => m.is_active) ?? list[0];
      if (first) selectMarket(first.symbol);
    }
  }, [list, symbol]);
  return { market: list?.find((m) => m.symbol === symbol), symbol, isPending: markets.isPending, error: markets.error };
}

/** The market list: search, live mark, 24 h change, funding and open interest, one row per market. */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { MarketView } from '../../../../shared/ipc';
import { selectMarket, useUi } from '../../app/uiStore';
import { useMarkets } from '../../ipc/queries';
import { compactUsd, dec, fmt, fmtPct, placesOfStep, toneOf } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { liveChange, useLiveMark } from './live';

export function MarketList() {
  const markets = useMarkets();
  const selected = useUi((s) => s.market);
  const searchSeq = useUi((s) => s.searchFocusSeq);
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (searchSeq > 0) {
      input.current?.focus();
      input.current?.select();
    }
  }, [searchSeq]);
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = markets.data?.markets ?? [];
    return q ? list.filter((m) => m.symbol.toLowerCase().includes(q) || m.venue_symbol.toLowerCase().includes(q)) : list;
  }, [markets.data, query]);

  return (
    <div className="mkt-list">
      <div className="mkt-search">
        <div className="input-wrap">
          <span className="input-affix" aria-hidden="true">
            ⌕
          </span>
          <input
            ref={input}
            className="input"
            aria-label="Search markets"
            placeholder="Search markets  /"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && rows[0]) {
                selectMarket(rows[0].symbol);
                input.current?.blur();
              }
            }}
          />
        </div>
      </div>
      <div className="mkt-rows" role="listbox" aria-label="Markets">
        {markets.isPending && <Loading label="Loading markets" rows={8} />}
        {markets.error && <ErrorState error={markets.error} title="Markets unavailable" onRetry={() => void markets.refetch()} compact />}
        {markets.data && rows.length === 0 && <EmptyState title={query ? 'No market matches' : 'No markets'}>{query ? `Nothing matches “${query}”.` : 'The service lists no markets.'}</EmptyState>}
        {rows.map((m) => (
          <MarketRow key={m.symbol} market={m} selected={m.symbol === selected} />
        ))}
      </div>
    </div>
  );
}

const MarketRow = memo(function MarketRow({ market, selected }: { market: MarketView; selected: boolean }) {
  const mark = useLiveMark(market);
  const change = liveChange(mark, market);
  const places = placesOfStep(market.tick_size);
  const oi = dec(market.open_interest);
  const m = dec(mark);
  const oiUsd = oi && m ? oi.mul(m) : null;
  return (
    <div
      role="option"
      aria-selected={selected}
      tabIndex={selected ? 0 : -1}
      className="mkt-row"
      aria-label={`${market.symbol} ${mark ? fmt(mark, { places }) : 'no mark'}`}
      onClick={() => selectMarket(market.symbol)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          selectMarket(market.symbol);
        }
      }}
    >
      <span className="sym">
        {market.symbol}
        {!market.is_active && <Badge tone="warn">Inactive</Badge>}
        {!market.joined && <Badge tone="warn" title="No venue data for this market's venue_symbol">No data</Badge>}
      </span>
      <span className="px">{fmt(mark, { places })}</span>
      <span className="sub">
        <span title="Hourly funding rate">F {fmtPct(market.funding_rate, 4, true)}</span>
        <span title="Open interest (USD)">OI {oiUsd ? compactUsd(oiUsd.toFixed(0)) : '—'}</span>
      </span>
      <span className={`chg ${toneOf(change)}`}>{change ? fmtPct(change, 2, true) : '—'}</span>
    </div>
  );
});

/**
 * The market list: search, live mark, 24 h change, funding and open interest, one row per market.
 * Virtualized (issue 29): the real venue lists about 200 markets, and only the rows in view (plus a
 * small overscan) exist in the page, so a storm of marks re-renders a screenful, not the whole list.
 * Search matches the symbol and the venue's name for it (kPEPE finds PEPE); arrow keys move through the
 * rows, Enter selects.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
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
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT_ESTIMATE, overscan: 8 });
  /**
   * Moves the focus to the row `index`. A row already rendered (the next or previous one, inside the
   * overscan) takes the focus at once, so a key pressed right after the arrow (Enter) lands on the row
   * the arrow reached, not on the one before it. A row outside the rendered window is scrolled into
   * being first and focused on the frame it appears (a few frames at most).
   */
  const focusRow = (index: number): void => {
    const target = Math.max(0, Math.min(rows.length - 1, index));
    const rowAt = () => scroller.current?.querySelector<HTMLElement>(`[data-index="${target}"] [role="option"]`) ?? null;
    virtual.scrollToIndex(target, { align: 'auto' });
    const now = rowAt();
    if (now) {
      now.focus();
      return;
    }
    let frames = 0;
    const tryFocus = (): void => {
      const row = rowAt();
      if (row) row.focus();
      else if (++frames < FOCUS_FRAMES_MAX) requestAnimationFrame(tryFocus);
    };
    requestAnimationFrame(tryFocus);
  };

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
              } else if (e.key === 'ArrowDown' && rows[0]) {
                e.preventDefault();
                focusRow(0);
              }
            }}
          />
        </div>
      </div>
      <div
        className="mkt-rows"
        role="listbox"
        aria-label="Markets"
        ref={scroller}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
          const at = Number((e.target as HTMLElement).closest<HTMLElement>('[data-index]')?.dataset['index'] ?? -1);
          if (at < 0) return;
          e.preventDefault();
          focusRow(e.key === 'ArrowDown' ? at + 1 : e.key === 'ArrowUp' ? at - 1 : e.key === 'Home' ? 0 : rows.length - 1);
        }}
      >
        {markets.isPending && <Loading label="Loading markets" rows={8} />}
        {markets.error && <ErrorState error={markets.error} title="Markets unavailable" onRetry={() => void markets.refetch()} compact />}
        {markets.data && rows.length === 0 && <EmptyState title={query ? 'No market matches' : 'No markets'}>{query ? `Nothing matches “${query}”.` : 'The service lists no markets.'}</EmptyState>}
        {rows.length > 0 && (
          <div className="mkt-rows-window" style={{ height: virtual.getTotalSize() }}>
            {virtual.getVirtualItems().map((item) => {
              const m = rows[item.index]!;
              return (
                <div key={m.symbol} className="mkt-row-slot" data-index={item.index} ref={virtual.measureElement} style={{ transform: `translateY(${item.start}px)` }}>
                  <MarketRow market={m} selected={m.symbol === selected} />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}

/** How many frames a scrolled-to row may take to be rendered before the focus gives up on it. */
const FOCUS_FRAMES_MAX = 10;

/** A row's usual height (two lines); rows are measured once rendered, so this only places the first paint. */
const ROW_HEIGHT_ESTIMATE = 46;

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
      onClick={() => selectMarket(market.symbol)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          selectMarket(market.symbol);
        }
      }}
    >
      {/*
       * The option's name is its text ("ETH 3,399.0 F +0.0010% OI $1.2B +0.52%"), so what a screen reader
       * or speech input uses is what the row shows; the spaces between the parts are for that name (the
       * grid and flex boxes do not draw them).
       */}
      <span className="sym">
        {market.symbol}{' '}
        {!market.is_active && <Badge tone="warn">Inactive</Badge>}{' '}
        {!market.joined && <Badge tone="warn" title="No venue data for this market's venue_symbol">No data</Badge>}
      </span>{' '}
      <span className="px">{fmt(mark, { places })}</span>{' '}
      <span className="sub">
        <span title="Hourly funding rate">F {fmtPct(market.funding_rate, 4, true)}</span>{' '}
        <span title="Open interest (USD)">OI {oiUsd ? compactUsd(oiUsd.toFixed(0)) : '—'}</span>
      </span>{' '}
      <span className={`chg ${toneOf(change)}`}>{change ? fmtPct(change, 2, true) : '—'}</span>
    </div>
  );
});

/**
 * The selected market's order book: asks above (the best ask nearest the middle), the spread, bids below;
 * price, size and cumulative total per level with a depth bar; the venue's grouping (full precision or 5
 * to 2 significant figures). A click on a level puts its price into the order ticket as a Limit price.
 *
 * Cheap at ten books a second: as many levels as fit are drawn (measured on resize only, never per
 * update), rows are keyed by position and memoized on their text, so an update rewrites only the text
 * that changed, and depth bars move by transform (no layout).
 */
import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { MarketView } from '../../../../shared/ipc';
import { isMultipleOf, roundToStep } from '../../../../shared/decimal/decimal';
import { pickLimitPrice, setUi, useUi, type BookGrouping } from '../../app/uiStore';
import { asIpcError } from '../../ipc/client';
import { fmt } from '../../lib/decimal';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { SideMark } from '../../ui/SideMark';
import { GROUPINGS, bookRows, groupStep, pricePlaces, type BookSide } from './bookModel';
import { useLiveBook } from './useLiveBook';

/** Height of one level row and of the spread row, in px (styles/app.css draws them at these heights). */
const ROW_H = 18;
const SPREAD_H = 24;
/** The venue sends at most 20 levels a side. */
const MAX_LEVELS = 20;

/** Levels a side that fit a book body of `height` px. */
function levelsFor(height: number): number {
  return Math.max(1, Math.min(MAX_LEVELS, Math.floor((height - SPREAD_H) / 2 / ROW_H)));
}

/** The price the ticket gets for a level: the level's own, or (a coarser grouping's bucket off the tick) the tick beyond it. */
function ticketPrice(price: string, tick: string, side: BookSide): string {
  try {
    return isMultipleOf(price, tick) ? price : roundToStep(price, tick, side === 'ask' ? 'up' : 'down').toFixed();
  } catch {
    return price;
  }
}

const GROUPING_VALUE = (g: BookGrouping): string => (g === null ? 'full' : String(g));
const parseGrouping = (v: string): BookGrouping => (v === '5' ? 5 : v === '4' ? 4 : v === '3' ? 3 : v === '2' ? 2 : null);

function GroupingSelect({ market, value, reference }: { market: MarketView; value: BookGrouping; reference: string | null }) {
  return (
    <select
      className="select book-grouping"
      aria-label="Grouping"
      title="Group price levels: full precision, or the venue's aggregation to 5, 4, 3 or 2 significant figures"
      value={GROUPING_VALUE(value)}
      onChange={(e) => setUi({ bookGrouping: parseGrouping(e.target.value) })}
    >
      {GROUPINGS.map((g) => {
        const step = g === null ? null : groupStep(g, reference, market.tick_size);
        return (
          <option key={GROUPING_VALUE(g)} value={GROUPING_VALUE(g)}>
            {g === null ? `Full (${market.tick_size})` : step ? `${fmt(step)} · ${g} fig.` : `${g} significant figures`}
          </option>
        );
      })}
    </select>
  );
}

interface LevelProps {
  side: BookSide;
  price: string;
  priceText: string;
  sizeText: string;
  totalText: string;
  depth: number;
  tick: string;
}

const Level = memo(function Level({ side, price, priceText, sizeText, totalText, depth, tick }: LevelProps) {
  return (
    <li className="book-level">
      <button
        type="button"
        className={`book-row book-${side}`}
        // The side, then what the row shows in its order (price, size, total under the columns' heads): a
        // name that holds the visible text, so speech input can say what it sees.
        aria-label={`${side === 'ask' ? 'Ask' : 'Bid'} ${priceText} ${sizeText} ${totalText}`}
        onClick={() => pickLimitPrice(ticketPrice(price, tick, side))}
      >
        <span className="book-bar" style={{ transform: `scaleX(${depth})` }} aria-hidden="true" />
        <span className="book-px">{priceText}</span>{' '}
        <span className="book-sz">{sizeText}</span>{' '}
        <span className="book-tot">{totalText}</span>
      </button>
    </li>
  );
});

/**
 * Beside the chart the book has its own bar, titled. Under a tab, the tab names it and its bar (feed state
 * and grouping) goes into the tab bar: `toolbarIn` is that element (null until it is mounted).
 */
export function OrderBook({ market, toolbarIn }: { market: MarketView; toolbarIn?: HTMLElement | null }) {
  const grouping = useUi((s) => s.bookGrouping);
  const feed = useLiveBook(market.symbol, grouping);
  const body = useRef<HTMLDivElement>(null);
  const [perSide, setPerSide] = useState(8);

  // How many levels fit: measured when the body is laid out and when it is resized, never per update.
  const hasBook = feed.book !== undefined;
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    setPerSide(levelsFor(el.getBoundingClientRect().height));
    const observer = new ResizeObserver((entries) => {
      const h = entries[entries.length - 1]?.contentRect.height;
      if (h !== undefined) setPerSide(levelsFor(h));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasBook]);

  // The price the groupings are sized from: the mark, else the mid, else the book's own best level (a
  // market without a venue mark yet, as on a restored first screen, still gets its steps named).
  const reference = market.mark ?? market.mid ?? feed.book?.bids[0]?.price ?? feed.book?.asks[0]?.price ?? null;
  const places = pricePlaces(market, grouping, reference);
  const rows = useMemo(() => (feed.book ? bookRows(feed.book, perSide, places, market.sz_decimals) : null), [feed.book, perSide, places, market.sz_decimals]);
  const feedState = feed.watchError ? 'off' : feed.live === null ? 'pending' : feed.live ? 'live' : 'polled';
  const feedText = {
    off: `Not updating: ${asIpcError(feed.watchError).message}`,
    pending: 'Connecting to the book feed',
    live: 'Live: the venue’s book feed',
    polled: 'Updated every second',
  }[feedState];

  const tools = (
    <>
      <span className={`book-feed book-feed-${feedState}`} role="img" aria-label={feedText} title={feedText} />
      <GroupingSelect market={market} value={grouping} reference={reference} />
    </>
  );
  return (
    <section className="book" aria-label={`${market.symbol} order book`}>
      {toolbarIn === undefined ? (
        <div className="book-toolbar">
          <h2 className="panel-title">Order book</h2>
          {tools}
        </div>
      ) : (
        toolbarIn && createPortal(tools, toolbarIn)
      )}
      {feed.isPending && <Loading label="Loading order book" rows={6} />}
      {!feed.book && feed.error !== null && feed.error !== undefined && (
        <ErrorState error={feed.error} title="Order book unavailable" onRetry={feed.retry} compact />
      )}
      {rows && (
        <>
          <div className="book-head" aria-hidden="true">
            <span>Price</span>
            <span>Size ({market.symbol})</span>
            <span>Total</span>
          </div>
          <div ref={body} className={`book-body${feed.stale ? ' is-stale' : ''}`} aria-busy={feed.stale || undefined}>
            {rows.asks.length === 0 && rows.bids.length === 0 ? (
              <EmptyState title="The book is empty">No resting orders on {market.symbol}.</EmptyState>
            ) : (
              <>
                <ol className="book-side book-asks" aria-label="Asks">
                  {rows.asks.map((r, i) => (
                    <Level key={i} side="ask" price={r.price} priceText={r.priceText} sizeText={r.sizeText} totalText={r.totalText} depth={r.depth} tick={market.tick_size} />
                  ))}
                </ol>
                <div className="book-spread" title="Best ask minus best bid, and that as a share of the mid price">
                  {/* Each side named in words and a shape, not by colour alone (the lists' own names say it to a screen reader). */}
                  <span className="book-side-tag book-side-ask" aria-hidden="true">
                    <SideMark up /> Asks
                  </span>
                  <span className="faint">Spread</span>
                  <span className="num" aria-label="Spread">
                    {rows.spread?.abs ?? '—'}
                  </span>
                  <span className="num faint" aria-label="Spread, % of mid">
                    {rows.spread?.pct ?? ''}
                  </span>
                  <span className="book-side-tag book-side-bid" aria-hidden="true">
                    <SideMark up={false} /> Bids
                  </span>
                </div>
                <ol className="book-side book-bids" aria-label="Bids">
                  {rows.bids.map((r, i) => (
                    <Level key={i} side="bid" price={r.price} priceText={r.priceText} sizeText={r.sizeText} totalText={r.totalText} depth={r.depth} tick={market.tick_size} />
                  ))}
                </ol>
              </>
            )}
          </div>
        </>
      )}
    </section>
  );
}

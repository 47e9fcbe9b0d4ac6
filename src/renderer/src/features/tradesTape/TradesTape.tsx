/**
 * The trades tape: the selected market's latest trades from the venue (price, size, time), newest on
 * top, coloured by the taker's side (buy: a buyer lifted the ask; sell: a seller hit the bid) and marked
 * with ▲ or ▼ too, so the side never rests on colour alone. Beside the order book; under a tab at the
 * smallest window.
 */
import { memo } from 'react';
import type { MarketView, TapeTrade } from '../../../../shared/ipc';
import { asIpcError } from '../../ipc/client';
import { fmt, placesOfStep } from '../../lib/decimal';
import { fmtTime } from '../../lib/time';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { SideMark } from '../../ui/SideMark';
import { useTradesTape } from './useTradesTape';

type RowProps = { t: TapeTrade; places: number; szPlaces: number };

/**
 * A venue trade never changes once made, and each delivery is the whole tape in new objects: a row is
 * re-rendered only for a trade it did not show (its tid), so a delivery renders the new trades only.
 */
const sameTrade = (a: RowProps, b: RowProps): boolean => a.t.tid === b.t.tid && a.places === b.places && a.szPlaces === b.szPlaces;

const Row = memo(function Row({ t, places, szPlaces }: RowProps) {
  const side = t.side === 'BUY' ? 'buy' : 'sell';
  const price = fmt(t.price, { places });
  const size = fmt(t.size, { places: szPlaces });
  return (
    <li className={`tape-row tape-${side}`} aria-label={`${t.side === 'BUY' ? 'Buy' : 'Sell'} ${size} at ${price}, ${fmtTime(t.time)}`}>
      <span className="tape-px">
        <SideMark up={t.side === 'BUY'} />
        {price}
      </span>
      <span className="tape-sz">{size}</span>
      <span className="tape-time">{fmtTime(t.time)}</span>
    </li>
  );
}, sameTrade);

/** `titled`: beside the book it carries its own title; under a tab the tab names it. */
export function TradesTape({ market, titled = true }: { market: MarketView; titled?: boolean }) {
  const tape = useTradesTape(market.symbol);
  const places = placesOfStep(market.tick_size);
  const feedText = tape.error ? `Not updating: ${asIpcError(tape.error).message}` : tape.live === null ? 'Connecting to the trades feed' : tape.live ? 'Live: the venue’s trades feed' : 'No live trades feed on this profile';
  const feedState = tape.error ? 'off' : tape.live === null ? 'pending' : tape.live ? 'live' : 'off';
  return (
    <section className="tape" aria-label={`${market.symbol} trades`}>
      {titled && (
        <div className="book-toolbar">
          <h2 className="panel-title">Trades</h2>
          <span className={`book-feed book-feed-${feedState}`} role="img" aria-label={feedText} title={feedText} />
        </div>
      )}
      <div className="book-head tape-head" aria-hidden="true">
        <span>Price</span>
        <span>Size ({market.symbol})</span>
        <span>Time</span>
      </div>
      {tape.error !== null && tape.error !== undefined ? (
        <ErrorState error={tape.error} title="Trades unavailable" compact />
      ) : tape.trades === null ? (
        tape.live === false ? <EmptyState title="No trades feed">This profile has no venue feed for trades.</EmptyState> : <Loading label="Waiting for trades" rows={4} />
      ) : tape.trades.length === 0 ? (
        <EmptyState title="No trades yet">Nothing traded on {market.symbol} lately.</EmptyState>
      ) : (
        // The list is placed in a box of its own (styles/app.css, .tape-body): new rows then lay out inside
        // the list alone, not up through the trade view's containers (issue 37).
        <div className="tape-body">
          <ol className="tape-list" aria-label="Latest trades">
            {tape.trades.map((t) => (
              <Row key={t.tid} t={t} places={places} szPlaces={market.sz_decimals} />
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

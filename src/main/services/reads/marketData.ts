/**
 * Market data from the venue, for the service's markets: the spec serves no prices, so marks, 24 h change,
 * funding and open interest come from the venue's info API, joined to the market records on
 * venue_asset_index / venue_symbol (never on symbol: venue/marketJoin.ts), and the order book is the
 * venue's l2Book of the market's venue_symbol. `perps markets`, `perps book`, `perps price` and the app's
 * book snapshot read them here.
 */
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { BookView } from '../../../shared/ipc.js';
import type { Market } from '../../../shared/protocol/index.js';
import type { BookSigFigs } from '../../../shared/protocol/bookGrouping.js';
import type { L2Book, VenueAssetCtx } from '../../venue/schemas.js';
import { joinMarkets } from '../../venue/marketJoin.js';
import { OperationError } from '../errors.js';
import { readMark, type TradingContext } from '../orders/orderContext.js';
import { RATIO_PLACES } from './positionRisk.js';

export type MarketDataContext = Pick<TradingContext, 'config' | 'venue'>;

/** A market record with the venue's figures for it (null where the venue gave none). */
export interface MarketWithVenue extends Market {
  /** Joined to a venue asset (on venue_asset_index, else venue_symbol). */
  joined: boolean;
  mark: string | null;
  /** (mark - prev_day_px) / prev_day_px, a fraction. */
  change_24h: string | null;
  /** The venue's current hourly funding rate, a raw fraction. */
  funding_rate: string | null;
  /** Open interest in base units. */
  open_interest: string | null;
}

/** 24 h change as a fraction; null when the previous day's price is not positive. */
export function change24h(mark: string, prevDayPx: string): string | null {
  const prev = new Decimal(prevDayPx);
  return prev.gt(0) ? canonical(new Decimal(mark).minus(prev).div(prev).toDecimalPlaces(RATIO_PLACES, Decimal.ROUND_HALF_UP)) : null;
}

function withVenue(m: Market, ctx: VenueAssetCtx | null): MarketWithVenue {
  return {
    ...m,
    joined: ctx !== null,
    mark: ctx?.markPx ?? null,
    change_24h: ctx ? change24h(ctx.markPx, ctx.prevDayPx) : null,
    funding_rate: ctx?.funding ?? null,
    open_interest: ctx?.openInterest ?? null,
  };
}

/** The service's markets (active ones unless `all`) with the venue's mark, 24 h change, funding and open interest. */
export async function readMarketsWithVenue(ctx: MarketDataContext, options: { all?: boolean } = {}): Promise<MarketWithVenue[]> {
  const [markets, [meta, ctxs]] = await Promise.all([ctx.config.markets(), ctx.venue.metaAndAssetCtxs()]);
  const join = joinMarkets(markets, meta, ctxs);
  return markets.filter((m) => options.all === true || m.is_active).map((m) => withVenue(m, join.bySymbol.get(m.symbol)?.ctx ?? null));
}

/** The venue's book as the IPC contract carries it, keyed by the service's symbol. */
export function bookViewOf(market: string, nSigFigs: BookSigFigs, book: L2Book): BookView {
  const level = (l: { px: string; sz: string; n: number }) => ({ price: l.px, size: l.sz, orders: l.n });
  return { market, n_sig_figs: nSigFigs, bids: book.levels[0].map(level), asks: book.levels[1].map(level), at: book.time };
}

/** The book of a market now (the venue's l2Book of its venue_symbol), grouped by the venue to nSigFigs. */
export async function readBook(ctx: MarketDataContext, symbol: string, nSigFigs: BookSigFigs = null): Promise<{ market: Market; book: BookView }> {
  const market = await ctx.config.market(symbol, { allowInactive: true });
  const book = await ctx.venue.l2Book(market.venue_symbol, nSigFigs === null ? {} : { nSigFigs });
  if (!book) throw new OperationError('NO_BOOK', `the venue has no order book for ${market.symbol} (${market.venue_symbol})`);
  return { market, book: bookViewOf(market.symbol, nSigFigs, book) };
}

/** The venue mark of one market. */
export async function readPrice(ctx: MarketDataContext, symbol: string): Promise<{ market: Market; mark: string; at: number }> {
  const market = await ctx.config.market(symbol, { allowInactive: true });
  const mark = await readMark(ctx, market);
  return { market, mark: canonical(mark), at: Date.now() };
}

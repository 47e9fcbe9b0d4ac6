/** markets:* — the service's markets joined to venue data, candles, and the order book the trade view watches. */
import { CANDLE_INTERVALS, type BookView, type CandleView, type MarketView } from '../../../shared/ipc.js';
import { ValidationError } from '../../services/errors.js';
import { joinMarkets } from '../../venue/marketJoin.js';
import type { CandleInterval } from '../../venue/schemas.js';
import type { SigFigs } from '../bookFeed.js';
import type { DeskContext } from '../deskContext.js';
import { marketView } from '../views.js';

const INTERVAL_MS: Record<CandleInterval, number> = {
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '8h': 28_800_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '3d': 259_200_000,
  '1w': 604_800_000,
  '1M': 2_592_000_000,
};

/** Candles shown when the page asks for none in particular. */
const DEFAULT_CANDLES = 200;

export class MarketsDesk {
  constructor(private readonly session: DeskContext) {}

  async markets(): Promise<{ markets: MarketView[]; at: number }> {
    const ctx = this.session.ctx();
    const [markets, [meta, ctxs]] = await Promise.all([ctx.config.markets(), ctx.venue.metaAndAssetCtxs()]);
    const join = joinMarkets(markets, meta, ctxs);
    return { markets: markets.map((m) => marketView(m, join.bySymbol.get(m.symbol)?.ctx ?? null)), at: Date.now() };
  }

  async candles(req: { market: string; interval: CandleInterval; start_time?: number | undefined; end_time?: number | undefined }): Promise<{ market: string; interval: CandleInterval; candles: CandleView[] }> {
    const ctx = this.session.ctx();
    if (!(CANDLE_INTERVALS as readonly string[]).includes(req.interval)) throw new ValidationError(`unknown interval ${req.interval}`, { field: 'interval' });
    const market = await ctx.config.market(req.market, { allowInactive: true });
    const end = req.end_time ?? Date.now();
    const start = req.start_time ?? end - DEFAULT_CANDLES * INTERVAL_MS[req.interval];
    if (start > end) throw new ValidationError('start_time is after end_time', { field: 'start_time' });
    // Venue data is keyed by the venue's coin (venue_symbol), never the service's symbol.
    const rows = await ctx.venue.candleSnapshot({ coin: market.venue_symbol, interval: req.interval, startTime: start, endTime: end });
    return { market: market.symbol, interval: req.interval, candles: rows.map((c) => ({ t: c.t, T: c.T, o: c.o, h: c.h, l: c.l, c: c.c, v: c.v, n: c.n })) };
  }

  async book(req: { market: string; n_sig_figs?: SigFigs | undefined }): Promise<BookView> {
    return this.session.book().snapshot(req.market, req.n_sig_figs ?? null);
  }

  async watchBook(req: { market: string | null; n_sig_figs?: SigFigs | undefined }): Promise<{ watching: string | null; live: boolean }> {
    return this.session.book().watch(req.market, req.n_sig_figs ?? null);
  }

  /** The trades tape of one market (null stops); the trades arrive on the `trades` stream. */
  async watchTrades(req: { market: string | null }): Promise<{ watching: string | null; live: boolean }> {
    return this.session.tape().watch(req.market);
  }
}

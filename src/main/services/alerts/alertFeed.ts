/**
 * What alerts are evaluated on: the venue's activeAssetCtx stream (mark and hourly funding of every
 * active market, routed back to markets on venue_symbol, never symbol), read once from the info API at
 * the start so a level already crossed while nothing ran is seen at once. Without a venue WebSocket URL
 * the info API is polled instead. The app leases its session's shared socket (one connection for the
 * book, the tape, the marks and the alerts); `perps alert watch` opens its own.
 */
import { joinMarkets, VenueSymbolIndex } from '../../venue/marketJoin.js';
import type { VenueSocketLease } from '../../venue/venueSocketPool.js';
import type { ServiceContext } from '../serviceContext.js';
import type { MarketObservation } from './alertEvaluator.js';

export interface AlertFeedOptions {
  ctx: ServiceContext;
  /** The venue socket to follow; null polls the info API every pollMs. */
  socket: VenueSocketLease | null;
  pollMs: number;
  /** False while no alert watches the market data: the polling fallback then reads nothing. */
  wanted?(): boolean;
  observe(obs: MarketObservation): void;
  /** A failure of the feed (logged or printed by the caller); the feed keeps trying. */
  onError(err: Error): void;
}

export interface AlertFeed {
  stop(): Promise<void>;
}

async function readAll(o: AlertFeedOptions): Promise<void> {
  const markets = await o.ctx.config.markets();
  const [meta, ctxs] = await o.ctx.venue.metaAndAssetCtxs();
  const at = Date.now();
  for (const j of joinMarkets(markets, meta, ctxs).joined) if (j.ctx && j.market.is_active) o.observe({ market: j.market.symbol, at, mark: j.ctx.markPx, funding: j.ctx.funding });
}

export async function startAlertFeed(o: AlertFeedOptions): Promise<AlertFeed> {
  let stopped = false;
  await readAll(o).catch((err: unknown) => o.onError(err as Error));
  if (!o.socket) {
    let timer: NodeJS.Timeout | null = null;
    const tick = (): void => {
      timer = setTimeout(() => {
        void (o.wanted?.() === false ? Promise.resolve() : readAll(o))
          .catch((err: unknown) => o.onError(err as Error))
          .finally(() => {
            if (!stopped) tick();
          });
      }, o.pollMs);
    };
    tick();
    return {
      stop: async () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      },
    };
  }
  const socket = o.socket;
  const markets = await o.ctx.config.markets();
  const index = new VenueSymbolIndex(markets);
  socket.on('activeAssetCtx', ({ coin, ctx }) => {
    const market = index.marketForCoin(coin);
    if (market && !stopped) o.observe({ market: market.symbol, at: Date.now(), mark: ctx.markPx, funding: ctx.funding });
  });
  for (const m of markets) if (m.is_active) socket.subscribe({ type: 'activeAssetCtx', coin: m.venue_symbol });
  await socket.connect();
  return {
    stop: async () => {
      stopped = true;
      await socket.release();
    },
  };
}

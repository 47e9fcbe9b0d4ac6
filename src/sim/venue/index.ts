/** The simulated venue's public market data: prices, book, candles, trades, funding, info API and WebSocket. */
export {
  VenueMarketData,
  type MarkListener,
  type TradeSide,
  type VenueAssetConfig,
  type VenueAssetCtx,
  type VenueFeedEvent,
  type VenueFundingEntry,
  type VenueL2Book,
  type VenueL2Level,
  type VenueMarketDataOptions,
  type VenueMarketDataSnapshot,
  type VenueTrade,
  type VenueUniverseEntry,
  type VenueMeta,
  type VenueMarginTable,
  type VenueMarginTier,
  type VenuePredictedFundings,
} from './venueMarketData.js';
export { CANDLE_INTERVALS, CANDLE_INTERVAL_NAMES, CANDLE_WINDOW, type Candle, type CandleInterval } from './candles.js';
export { answerInfo, createInfoModule, infoRequestSchema, parseInfoRequest, type InfoRequest } from './infoRoutes.js';
export type { Book, BookLevel } from './priceWalk.js';
export { VenueWebSocketHub, type VenueSubscription } from './venueWebSocket.js';
export { MAX_STORM_FACTOR, parseStormFactor } from './stormFactor.js';

/**
 * The simulated venue's public market data: the model (prices, book, candles, trades, funding), its wire
 * types, and the two transports the server builds on it (the info API and the WebSocket hub).
 */
export { VenueMarketData, type VenueMarketDataOptions } from './venueMarketData.js';
export { parseVenueSnapshot, type ValidVenueSnapshot, type VenueMarketDataSnapshot } from './venueSchemas.js';
export type {
  MarkListener,
  TradeSide,
  VenueAssetConfig,
  VenueAssetCtx,
  VenueFeedEvent,
  VenueFundingEntry,
  VenueL2Book,
  VenueL2Level,
  VenueMarketSource,
  VenueTrade,
  VenueUniverseEntry,
  VenueMeta,
  VenueMarginTable,
  VenueMarginTier,
  VenuePredictedFundings,
} from './venueTypes.js';
export { CANDLE_INTERVALS, CANDLE_INTERVAL_NAMES, CANDLE_WINDOW, type Candle, type CandleInterval } from './candles.js';
export { answerInfo, createInfoModule, infoRequestSchema, parseInfoRequest, type InfoRequest } from './infoRoutes.js';
export type { Book, BookLevel } from './priceWalk.js';
export { VenueWebSocketHub, type VenueSubscription } from './venueWebSocket.js';
export { MAX_STORM_FACTOR, parseStormFactor } from './stormFactor.js';

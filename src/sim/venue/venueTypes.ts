/**
 * The simulated venue's wire types: what its info API and WebSocket send (Hyperliquid's shapes), the
 * asset configuration it is built from, and VenueMarketSource, what the transports (infoRoutes.ts,
 * venueWebSocket.ts) read of the model (venueMarketData.ts). The transports depend on these types, not
 * on the model, so the model builds no transport: the server (src/sim/index.ts) builds both.
 */
import type { Candle, CandleInterval } from './candles.js';
import type { InfoRequest } from './infoRequest.js';
import type { BookLevel } from './priceWalk.js';

export interface VenueAssetConfig {
  venueSymbol: string;
  venueAssetIndex: number;
  szDecimals: number;
  maxLeverage: number;
  onlyIsolated: boolean;
  tickSize: string;
  initialMark: string;
  /** Per-tick standard deviation of the mark, in basis points. */
  volatilityBps: number;
  /** Hourly funding rate as a raw fraction, e.g. '0.0000125'. */
  fundingRate: string;
  spreadBps: number;
  /** Size shown at each book level. */
  depthPerLevel: string;
  levels: number;
  /**
   * Leverage tiers by position notional (the venue's margin table): the first tier starts at '0' and
   * carries maxLeverage. Absent: one tier at maxLeverage for every size.
   */
  marginTiers?: VenueMarginTier[];
}

/** One tier of a margin table: positions of at least lowerBound notional get at most maxLeverage. */
export interface VenueMarginTier {
  lowerBound: string;
  maxLeverage: number;
}

/** A margin table as meta's marginTables lists it. */
export interface VenueMarginTable {
  description: string;
  marginTiers: VenueMarginTier[];
}

export type TradeSide = 'B' | 'A';

/** Trade as the venue's trades channel sends it. */
export interface VenueTrade {
  coin: string;
  side: TradeSide;
  px: string;
  sz: string;
  time: number;
  hash: string;
  tid: number;
  /** [buyer, seller]; the simulator does not expose counterparties, so both are the zero address. */
  users: [string, string];
}

/** Asset context as metaAndAssetCtxs and the activeAssetCtx channel send it. */
export interface VenueAssetCtx {
  funding: string;
  openInterest: string;
  prevDayPx: string;
  dayNtlVlm: string;
  /** null on the venue when the asset has no book to measure it against (a delisted asset, say). */
  premium: string | null;
  oraclePx: string;
  markPx: string;
  midPx: string | null;
  impactPxs: [string, string] | null;
  dayBaseVlm: string;
}


/** An upstream update of one followed market (any part may be absent). */
export interface UpstreamUpdate {
  ctx?: VenueAssetCtx;
  mid?: string;
  book?: { time: number; bids: BookLevel[]; asks: BookLevel[] };
  trades?: readonly { side: TradeSide; px: string; sz: string; time: number; tid: number; hash: string; users: [string, string] }[];
}

/** Why a market is paused: its upstream is unreachable, or its upstream data is held or was rejected. */
export type PauseReason = 'venue_unreachable' | 'market_data_frozen';

/** A trade printed upstream on a followed market: resting limits it reaches fill. */
export type PrintListener = (venueSymbol: string, px: string, time: number) => void;

export interface VenueUniverseEntry {
  name: string;
  szDecimals: number;
  maxLeverage: number;
  /** The margin table (meta.marginTables) that sets this asset's leverage by position size. */
  marginTableId: number;
  /** Present only when true, as on the venue. */
  onlyIsolated?: true;
}

/** meta as the venue serves it: the universe, the margin tables it refers to and the collateral token. */
export interface VenueMeta {
  universe: VenueUniverseEntry[];
  marginTables: [number, VenueMarginTable][];
  /** Index of the collateral token among the venue's spot tokens: USDC is token 0. */
  collateralToken: number;
}

/** predictedFundings: per coin, per venue that lists it, the funding rate of the coming interval. */
export type VenuePredictedFundings = [string, [string, { fundingRate: string; nextFundingTime: number; fundingIntervalHours: number } | null][]][];

export interface VenueL2Level {
  px: string;
  sz: string;
  n: number;
}

export interface VenueL2Book {
  coin: string;
  time: number;
  levels: [VenueL2Level[], VenueL2Level[]];
}

export interface VenueFundingEntry {
  coin: string;
  fundingRate: string;
  premium: string;
  time: number;
}

/** What changed, for the WebSocket hub: marks of some assets at one time, or one recorded trade. */
export type VenueFeedEvent =
  | { kind: 'marks'; symbols: readonly string[]; time: number }
  /** fromWalk: background volume whose candle and context the same tick's marks event already carried. */
  | { kind: 'trade'; trade: VenueTrade; fromWalk?: boolean };

export type MarkListener = (venueSymbol: string, mark: string, time: number) => void;

/** What the info API and the WebSocket hub read of the venue's model: its public market data, and its feed of changes. */
export interface VenueMarketSource {
  hasAsset(venueSymbol: string): boolean;
  meta(): VenueMeta;
  assetCtxs(): VenueAssetCtx[];
  assetCtx(venueSymbol: string): VenueAssetCtx;
  allMids(): Record<string, string>;
  l2Book(venueSymbol: string, nSigFigs?: number | null, mantissa?: number | null): VenueL2Book;
  candles(venueSymbol: string, interval: CandleInterval, startTime: number, endTime: number): Candle[];
  currentCandle(venueSymbol: string, interval: CandleInterval): Candle | null;
  fundingHistory(venueSymbol: string, startTime: number, endTime?: number): VenueFundingEntry[];
  predictedFundings(): VenuePredictedFundings;
  recentTrades(venueSymbol: string): VenueTrade[];
  /** The upstream's answer to an info request about a followed market, or null to answer it locally. */
  proxyInfo(request: InfoRequest): Promise<unknown> | null;
  /** Every change the WebSocket channels publish. Returns an unsubscribe. */
  onFeed(listener: (event: VenueFeedEvent) => void): () => void;
}

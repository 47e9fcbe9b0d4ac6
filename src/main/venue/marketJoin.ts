/**
 * Joining the service's market records (GET /markets) to the venue's market data. The spec is explicit:
 * join on venue_symbol or venue_asset_index, never on symbol. A service symbol can differ from the venue's
 * coin (PEPE on the service is kPEPE on the venue) and can even equal a DIFFERENT venue coin, so a match on
 * `symbol` would show another asset's price next to an order form. Nothing here ever reads Market.symbol
 * to find venue data; it is only the key of the result.
 *
 * The venue asset index is tried first (it is the venue's own key: the position in meta.universe, and the
 * position of the asset's ctx), and the venue's name there must equal venue_symbol. When the index is
 * missing from the universe, venue_symbol alone decides. When the index names a different coin than
 * venue_symbol, the two keys contradict each other and the market is left unjoined rather than guessed.
 */
import type { Market } from '../../shared/protocol/index.js';
import type { AllMids, VenueAssetCtx, VenueMeta, VenueUniverseAsset } from './schemas.js';

export type JoinKey = 'venue_asset_index' | 'venue_symbol';

export interface JoinedMarket {
  market: Market;
  asset: VenueUniverseAsset;
  /** Position in meta.universe (and in the ctxs array). */
  assetIndex: number;
  /** The asset's context when ctxs were given (and the venue sent one for that index). */
  ctx: VenueAssetCtx | null;
  joinedOn: JoinKey;
}

export interface UnjoinedMarket {
  market: Market;
  reason: string;
}

export interface MarketJoin {
  joined: JoinedMarket[];
  unjoined: UnjoinedMarket[];
  /** By the service's symbol (the key the rest of the app uses). */
  bySymbol: ReadonlyMap<string, JoinedMarket>;
}

export function joinMarkets(markets: readonly Market[], meta: VenueMeta, ctxs?: readonly VenueAssetCtx[]): MarketJoin {
  const indexByName = new Map<string, number>();
  meta.universe.forEach((asset, i) => {
    if (!indexByName.has(asset.name)) indexByName.set(asset.name, i);
  });
  const joined: JoinedMarket[] = [];
  const unjoined: UnjoinedMarket[] = [];
  const bySymbol = new Map<string, JoinedMarket>();

  const accept = (market: Market, assetIndex: number, asset: VenueUniverseAsset, joinedOn: JoinKey): void => {
    const j: JoinedMarket = { market, asset, assetIndex, ctx: ctxs?.[assetIndex] ?? null, joinedOn };
    joined.push(j);
    bySymbol.set(market.symbol, j);
  };

  for (const market of markets) {
    const atIndex = meta.universe[market.venue_asset_index];
    if (atIndex) {
      if (atIndex.name === market.venue_symbol) accept(market, market.venue_asset_index, atIndex, 'venue_asset_index');
      else {
        unjoined.push({
          market,
          reason: `venue asset ${market.venue_asset_index} is ${atIndex.name}, but the market's venue_symbol is ${market.venue_symbol}`,
        });
      }
      continue;
    }
    const i = indexByName.get(market.venue_symbol);
    const byName = i === undefined ? undefined : meta.universe[i];
    if (i !== undefined && byName) accept(market, i, byName, 'venue_symbol');
    else unjoined.push({ market, reason: `the venue lists neither asset index ${market.venue_asset_index} nor coin ${market.venue_symbol}` });
  }
  return { joined, unjoined, bySymbol };
}

/** Mid price by service symbol, looked up under each market's venue_symbol; markets without a mid are absent. */
export function joinMids(markets: readonly Market[], mids: AllMids): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of markets) {
    const mid = mids[m.venue_symbol];
    if (mid !== undefined) out.set(m.symbol, mid);
  }
  return out;
}

/**
 * Routes venue events (keyed by coin = venue_symbol) back to service markets, and tells which coin to
 * subscribe to for a market.
 */
export class VenueSymbolIndex {
  private readonly byCoin = new Map<string, Market>();
  private readonly coinBySymbol = new Map<string, string>();

  constructor(markets: readonly Market[]) {
    for (const m of markets) {
      this.byCoin.set(m.venue_symbol, m);
      this.coinBySymbol.set(m.symbol, m.venue_symbol);
    }
  }

  /** The market a venue coin belongs to, or undefined (a coin the service does not list). */
  marketForCoin(coin: string): Market | undefined {
    return this.byCoin.get(coin);
  }

  /** The venue coin of a service symbol: what to put in `coin` of a subscription or info request. */
  coinFor(symbol: string): string | undefined {
    return this.coinBySymbol.get(symbol);
  }
}

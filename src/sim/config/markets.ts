/**
 * Market lookups and the two outward views of a configured market: the spec's Market record
 * (GET /markets) and the venue's asset config (VenueMarketData). Both come from the same entry, so
 * venue_symbol and venue_asset_index always agree between /markets and the venue.
 */
import type { VenueAssetConfig } from '../venue/index.js';
import { Decimal, parseDecimal } from '../../shared/decimal/index.js';
import type { Market } from '../../shared/protocol/index.js';
import type { MarketConfig, SimConfig } from './schema.js';

/** The spec's Market record: every field, no sim knobs. */
export function marketRecord(m: MarketConfig): Market {
  return {
    symbol: m.symbol,
    venue_symbol: m.venue_symbol,
    venue_asset_index: m.venue_asset_index,
    max_leverage: m.max_leverage,
    display_max_leverage: m.display_max_leverage,
    initial_margin_ratio: m.initial_margin_ratio,
    maintenance_margin_ratio: m.maintenance_margin_ratio,
    maker_fee_rate: m.maker_fee_rate,
    taker_fee_rate: m.taker_fee_rate,
    min_order_value: m.min_order_value,
    max_notional: m.max_notional,
    max_open_orders: m.max_open_orders,
    slippage_bps: m.slippage_bps,
    tick_size: m.tick_size,
    sz_decimals: m.sz_decimals,
    px_decimals: m.px_decimals,
    only_isolated: m.only_isolated,
    is_active: m.is_active,
  };
}

export function venueAssetConfig(m: MarketConfig): VenueAssetConfig {
  return {
    venueSymbol: m.venue_symbol,
    venueAssetIndex: m.venue_asset_index,
    szDecimals: m.sz_decimals,
    maxLeverage: m.max_leverage,
    onlyIsolated: m.only_isolated,
    tickSize: m.tick_size,
    initialMark: m.sim.initial_mark,
    volatilityBps: m.sim.volatility_bps,
    fundingRate: m.sim.funding_rate,
    spreadBps: m.sim.spread_bps,
    depthPerLevel: m.sim.depth_per_level,
    levels: m.sim.levels,
    ...(m.sim.margin_tiers ? { marginTiers: m.sim.margin_tiers } : {}),
  };
}

/** A configured market with its numbers pre-parsed (the order path reads them on every leg). */
export interface MarketInfo {
  readonly config: MarketConfig;
  readonly symbol: string;
  readonly venueSymbol: string;
  readonly tick: Decimal;
  readonly minOrderValue: Decimal;
  /** null: no ceiling (the '0' sentinel). */
  readonly maxNotional: Decimal | null;
  readonly imr: Decimal;
  readonly mmr: Decimal;
  readonly makerFee: Decimal;
  readonly takerFee: Decimal;
}

export class MarketTable {
  private readonly bySymbol = new Map<string, MarketInfo>();
  private readonly byVenueSymbol = new Map<string, MarketInfo>();
  readonly records: Market[];

  constructor(config: SimConfig) {
    for (const m of config.markets) {
      const maxNotional = parseDecimal(m.max_notional);
      const info: MarketInfo = {
        config: m,
        symbol: m.symbol,
        venueSymbol: m.venue_symbol,
        tick: parseDecimal(m.tick_size),
        minOrderValue: parseDecimal(m.min_order_value),
        maxNotional: maxNotional.isZero() ? null : maxNotional,
        imr: parseDecimal(m.initial_margin_ratio),
        mmr: parseDecimal(m.maintenance_margin_ratio),
        makerFee: parseDecimal(m.maker_fee_rate),
        takerFee: parseDecimal(m.taker_fee_rate),
      };
      this.bySymbol.set(m.symbol, info);
      this.byVenueSymbol.set(m.venue_symbol, info);
    }
    this.records = [...config.markets].sort((a, b) => a.venue_asset_index - b.venue_asset_index).map(marketRecord);
  }

  get(symbol: string): MarketInfo | undefined {
    return this.bySymbol.get(symbol);
  }

  /** For callers that already validated the symbol: a miss is a bug. */
  require(symbol: string): MarketInfo {
    const m = this.bySymbol.get(symbol);
    if (!m) throw new Error(`unknown market ${symbol}`);
    return m;
  }

  byVenue(venueSymbol: string): MarketInfo | undefined {
    return this.byVenueSymbol.get(venueSymbol);
  }

  all(): MarketInfo[] {
    return [...this.bySymbol.values()];
  }
}

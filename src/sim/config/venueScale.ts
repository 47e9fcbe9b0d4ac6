/**
 * The venue at its real scale (issue 29): 200 perpetual markets, as many as the real venue lists, with
 * prices from a fraction of a cent to six figures, the venue's tick rule (five significant figures, at
 * most 6 - szDecimals decimals), size decimals that shrink as the price grows, and leverage from 3x to
 * 40x with tiered margin tables on the largest markets.
 *
 * The list is a pure function (no randomness): `perps sim --markets venue-scale` and every test see the
 * same 200 markets; the seed then drives their walks as it does for the default five.
 */
import { Decimal } from '../../shared/decimal/index.js';
import type { MarketConfig } from './schema.js';

/** The real venue's largest markets first (their usual prices and leverage), then generated ones. */
const LISTED: readonly { coin: string; price: string; leverage: number }[] = [
  { coin: 'BTC', price: '97000', leverage: 40 },
  { coin: 'ETH', price: '3400', leverage: 25 },
  { coin: 'SOL', price: '180', leverage: 20 },
  { coin: 'XRP', price: '2.4', leverage: 20 },
  { coin: 'DOGE', price: '0.32', leverage: 10 },
  { coin: 'HYPE', price: '24', leverage: 10 },
  { coin: 'SUI', price: '4.2', leverage: 10 },
  { coin: 'AVAX', price: '36', leverage: 10 },
  { coin: 'LINK', price: '21', leverage: 10 },
  { coin: 'BNB', price: '690', leverage: 10 },
  { coin: 'kPEPE', price: '0.0185', leverage: 10 },
  { coin: 'LTC', price: '105', leverage: 10 },
  { coin: 'ADA', price: '0.95', leverage: 10 },
  { coin: 'TRX', price: '0.25', leverage: 10 },
  { coin: 'DOT', price: '6.8', leverage: 10 },
  { coin: 'AAVE', price: '330', leverage: 10 },
  { coin: 'kSHIB', price: '0.0215', leverage: 10 },
  { coin: 'ENA', price: '0.82', leverage: 10 },
  { coin: 'WIF', price: '1.9', leverage: 5 },
  { coin: 'kBONK', price: '0.0301', leverage: 5 },
];

export const VENUE_SCALE_MARKETS = 200;

/** A deterministic spread of generated prices over eight orders of magnitude (0.001 .. 10,000). */
function generatedPrice(i: number): Decimal {
  const exponent = ((i * 3) % 7) - 3; // -3 .. 3
  const mantissa = 1 + ((i * 37) % 90) / 10; // 1.0 .. 9.9
  return new Decimal(mantissa).mul(new Decimal(10).pow(exponent));
}

/** Generated tickers: VS000 .. VS179, never a real coin's name (no one mistakes them for real prices). */
function generatedCoin(i: number): string {
  return `VS${String(i).padStart(3, '0')}`;
}

/** Size decimals by price, as on the venue: a coin near 100,000 trades in 0.00001, one under a cent in whole units. */
function szDecimalsFor(price: Decimal): number {
  const magnitude = Math.floor(Math.log10(price.toNumber()));
  return Math.max(0, Math.min(5, magnitude + 1));
}

/** The venue's tick: five significant figures of the price, and never more than 6 - szDecimals decimals. */
function tickFor(price: Decimal, szDecimals: number): Decimal {
  const magnitude = Math.floor(Math.log10(price.toNumber()));
  const places = Math.min(6 - szDecimals, Math.max(0, 4 - magnitude));
  return new Decimal(10).pow(-places);
}

function marginTiersFor(leverage: number, price: Decimal): { lowerBound: string; maxLeverage: number }[] | undefined {
  // The venue tiers its largest markets: half the leverage above a notional that grows with the market.
  if (leverage < 20) return undefined;
  const bound = price.gte(1000) ? '150000000' : '40000000';
  return [
    { lowerBound: '0', maxLeverage: leverage },
    { lowerBound: bound, maxLeverage: Math.floor(leverage / 2) },
  ];
}

function market(index: number, coin: string, price: Decimal, leverage: number): MarketConfig {
  const szDecimals = szDecimalsFor(price);
  const tick = tickFor(price, szDecimals);
  // Book depth worth about 25,000 USDC a level, never below one size step.
  const step = new Decimal(10).pow(-szDecimals);
  const depth = Decimal.max(step, new Decimal(25_000).div(price).toDecimalPlaces(szDecimals, Decimal.ROUND_DOWN));
  const imr = new Decimal(1).div(leverage);
  const tiers = marginTiersFor(leverage, price);
  return {
    symbol: coin.replace(/^k/, ''),
    venue_symbol: coin,
    venue_asset_index: index,
    max_leverage: leverage,
    display_max_leverage: leverage,
    initial_margin_ratio: imr.toDecimalPlaces(6).toFixed(),
    maintenance_margin_ratio: imr.div(2).toDecimalPlaces(6).toFixed(),
    maker_fee_rate: '0.00015',
    taker_fee_rate: '0.00045',
    min_order_value: '10',
    max_notional: '0',
    max_open_orders: 50,
    slippage_bps: 50,
    tick_size: tick.toFixed(),
    sz_decimals: szDecimals,
    px_decimals: tick.decimalPlaces(),
    only_isolated: leverage <= 3,
    is_active: true,
    sim: {
      initial_mark: price.toDecimalPlaces(tick.decimalPlaces()).toFixed(),
      volatility_bps: leverage >= 20 ? 2 : leverage >= 10 ? 3 : 5,
      spread_bps: leverage >= 20 ? 1 : 3,
      depth_per_level: depth.toFixed(),
      levels: 20,
      funding_rate: '0.0000125',
      ...(tiers ? { margin_tiers: tiers } : {}),
    },
  };
}

/** The 200 markets of `perps sim --markets venue-scale`, in venue asset index order. */
export function venueScaleMarkets(): MarketConfig[] {
  const out: MarketConfig[] = LISTED.map((listed, i) => market(i, listed.coin, new Decimal(listed.price), listed.leverage));
  for (let i = 0; out.length < VENUE_SCALE_MARKETS; i++) {
    const leverage = [10, 5, 3, 5, 10, 3][i % 6]!;
    out.push(market(out.length, generatedCoin(i), generatedPrice(i), leverage));
  }
  return out;
}

/** Named market lists `perps sim --markets` selects. */
export const MARKET_PRESETS = ['default', 'venue-scale'] as const;
export type MarketPreset = (typeof MARKET_PRESETS)[number];

/** The config override a preset stands for (undefined: the defaults' own markets). */
export function marketPresetOverride(preset: MarketPreset): { markets: MarketConfig[] } | undefined {
  return preset === 'venue-scale' ? { markets: venueScaleMarkets() } : undefined;
}

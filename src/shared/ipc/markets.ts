/** Markets, candles and the order book: channels markets:*, and the marks event. */
import { z } from 'zod';
import { marketSymbol } from '../fieldSchemas.js';
import { dec, unixMs } from './fields.js';

/** Venue candle intervals (the venue's info API vocabulary). */
export const CANDLE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export const MarketViewSchema = z.object({
  symbol: z.string(),
  venue_symbol: z.string(),
  /** The service's market record joined to venue data (on venue_asset_index / venue_symbol). */
  joined: z.boolean(),
  is_active: z.boolean(),
  only_isolated: z.boolean(),
  mark: dec.nullable(),
  oracle: dec.nullable(),
  mid: dec.nullable(),
  prev_day_px: dec.nullable(),
  /** (mark - prev_day_px) / prev_day_px as a fraction ("0.0123" is +1.23 %). */
  change_24h: dec.nullable(),
  /** The venue's current hourly funding rate, a raw fraction. */
  funding_rate: dec.nullable(),
  /** Open interest in base units. */
  open_interest: dec.nullable(),
  /** 24 h notional volume. */
  day_volume: dec.nullable(),
  max_leverage: z.number().int(),
  display_max_leverage: z.number().int(),
  tick_size: dec,
  sz_decimals: z.number().int(),
  px_decimals: z.number().int(),
  min_order_value: dec,
  /** '0' means no ceiling. */
  max_notional: dec,
  max_open_orders: z.number().int(),
  maker_fee_rate: dec,
  taker_fee_rate: dec,
  initial_margin_ratio: dec,
  maintenance_margin_ratio: dec,
  slippage_bps: z.number().int(),
});
export type MarketView = z.infer<typeof MarketViewSchema>;

export const MarketsListSchema = z.object({ markets: z.array(MarketViewSchema), at: unixMs });

export const CandlesRequestSchema = z.strictObject({
  market: marketSymbol,
  interval: z.enum(CANDLE_INTERVALS),
  /** Default: 200 intervals before end_time. */
  start_time: unixMs.optional(),
  /** Default: now. */
  end_time: unixMs.optional(),
});
export const CandleViewSchema = z.object({ t: unixMs, T: unixMs, o: dec, h: dec, l: dec, c: dec, v: dec, n: z.number().int() });
export type CandleView = z.infer<typeof CandleViewSchema>;
export const CandlesSchema = z.object({ market: z.string(), interval: z.enum(CANDLE_INTERVALS), candles: z.array(CandleViewSchema) });

/** Book aggregation as the venue offers it: 2 to 5 significant figures, or null for full precision. */
export const BookSigFigsSchema = z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)]).nullable();
export const BookRequestSchema = z.strictObject({ market: marketSymbol, n_sig_figs: BookSigFigsSchema.optional() });
/** null market: stop watching. */
export const WatchBookRequestSchema = z.strictObject({ market: marketSymbol.nullable(), n_sig_figs: BookSigFigsSchema.optional() });
export const BookLevelSchema = z.object({ price: dec, size: dec, orders: z.number().int().nonnegative() });
export const BookViewSchema = z.object({
  market: z.string(),
  n_sig_figs: BookSigFigsSchema,
  /** Best first on both sides. */
  bids: z.array(BookLevelSchema),
  asks: z.array(BookLevelSchema),
  /** The venue's time of the book. */
  at: unixMs,
});
export type BookView = z.infer<typeof BookViewSchema>;
export const WatchingBookSchema = z.object({ watching: z.string().nullable(), live: z.boolean() });

export const MarkUpdateSchema = z.object({ market: z.string(), mark: dec, at: unixMs });
export type MarkUpdate = z.infer<typeof MarkUpdateSchema>;

/**
 * The venue's public market-data shapes (Hyperliquid's info API and WebSocket), validated with zod on
 * arrival. Objects are loose: the venue adds fields over time, and an extra field must not take the
 * price feed down. Prices and sizes stay decimal strings.
 */
import { z } from 'zod';
import { decimalString } from '../../shared/protocol/index.js';

export const CANDLE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

export const VenueUniverseAssetSchema = z.looseObject({
  name: z.string().min(1),
  szDecimals: z.number().int().nonnegative(),
  maxLeverage: z.number().int().positive(),
  onlyIsolated: z.boolean().optional(),
  isDelisted: z.boolean().optional(),
});
export type VenueUniverseAsset = z.infer<typeof VenueUniverseAssetSchema>;

export const VenueMetaSchema = z.looseObject({ universe: z.array(VenueUniverseAssetSchema) });
export type VenueMeta = z.infer<typeof VenueMetaSchema>;

export const VenueAssetCtxSchema = z.looseObject({
  funding: decimalString,
  openInterest: decimalString,
  prevDayPx: decimalString,
  dayNtlVlm: decimalString,
  premium: decimalString.nullable().optional(),
  oraclePx: decimalString,
  markPx: decimalString,
  midPx: decimalString.nullable().optional(),
  impactPxs: z.tuple([decimalString, decimalString]).nullable().optional(),
  dayBaseVlm: decimalString.optional(),
});
export type VenueAssetCtx = z.infer<typeof VenueAssetCtxSchema>;

/** metaAndAssetCtxs: [meta, ctxs], the ctxs index-aligned with meta.universe (the asset index). */
export const MetaAndAssetCtxsSchema = z.tuple([VenueMetaSchema, z.array(VenueAssetCtxSchema)]);
export type MetaAndAssetCtxs = z.infer<typeof MetaAndAssetCtxsSchema>;

/** Coin name (venue_symbol) -> mid price. */
export const AllMidsSchema = z.record(z.string(), decimalString);
export type AllMids = z.infer<typeof AllMidsSchema>;

export const L2LevelSchema = z.looseObject({ px: decimalString, sz: decimalString, n: z.number().int().nonnegative() });
export type L2Level = z.infer<typeof L2LevelSchema>;

export const L2BookSchema = z.looseObject({
  coin: z.string(),
  time: z.number().int(),
  /** [bids best first, asks best first]. */
  levels: z.tuple([z.array(L2LevelSchema), z.array(L2LevelSchema)]),
});
export type L2Book = z.infer<typeof L2BookSchema>;

export const CandleSchema = z.looseObject({
  t: z.number().int(),
  T: z.number().int(),
  s: z.string(),
  i: z.string(),
  o: decimalString,
  c: decimalString,
  h: decimalString,
  l: decimalString,
  v: decimalString,
  n: z.number().int().nonnegative(),
});
export type Candle = z.infer<typeof CandleSchema>;
export const CandlesSchema = z.array(CandleSchema);

export const VenueFundingEntrySchema = z.looseObject({
  coin: z.string(),
  fundingRate: decimalString,
  premium: decimalString,
  time: z.number().int(),
});
export type VenueFundingEntry = z.infer<typeof VenueFundingEntrySchema>;
export const VenueFundingHistorySchema = z.array(VenueFundingEntrySchema);

export const VenueTradeSchema = z.looseObject({
  coin: z.string(),
  side: z.enum(['B', 'A']),
  px: decimalString,
  sz: decimalString,
  time: z.number().int(),
  hash: z.string(),
  tid: z.number().int(),
  users: z.tuple([z.string(), z.string()]).optional(),
});
export type VenueTrade = z.infer<typeof VenueTradeSchema>;

export const ActiveAssetCtxSchema = z.looseObject({ coin: z.string(), ctx: VenueAssetCtxSchema });
export type ActiveAssetCtx = z.infer<typeof ActiveAssetCtxSchema>;

const nSigFigs = z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);
const mantissa = z.union([z.literal(1), z.literal(2), z.literal(5)]);

export const VenueSubscriptionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('allMids') }),
  z.object({ type: z.literal('l2Book'), coin: z.string(), nSigFigs: nSigFigs.nullish(), mantissa: mantissa.nullish() }),
  z.object({ type: z.literal('trades'), coin: z.string() }),
  z.object({ type: z.literal('candle'), coin: z.string(), interval: z.string() }),
  z.object({ type: z.literal('activeAssetCtx'), coin: z.string() }),
]);

/** What the client can subscribe to; `coin` is always the venue_symbol, never the service's symbol. */
export type VenueSubscription =
  | { type: 'allMids' }
  | { type: 'l2Book'; coin: string; nSigFigs?: 2 | 3 | 4 | 5 | null; mantissa?: 1 | 2 | 5 | null }
  | { type: 'trades'; coin: string }
  | { type: 'candle'; coin: string; interval: CandleInterval }
  | { type: 'activeAssetCtx'; coin: string };

/** Server-to-client WebSocket messages, by channel. */
export const VenueWsMessageSchema = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('pong') }),
  z.object({ channel: z.literal('subscriptionResponse'), data: z.looseObject({ method: z.enum(['subscribe', 'unsubscribe']), subscription: z.unknown() }) }),
  z.object({ channel: z.literal('error'), data: z.string() }),
  z.object({ channel: z.literal('allMids'), data: z.looseObject({ mids: AllMidsSchema }) }),
  z.object({ channel: z.literal('l2Book'), data: L2BookSchema }),
  z.object({ channel: z.literal('trades'), data: z.array(VenueTradeSchema) }),
  z.object({ channel: z.literal('candle'), data: CandleSchema }),
  z.object({ channel: z.literal('activeAssetCtx'), data: ActiveAssetCtxSchema }),
]);
export type VenueWsMessage = z.infer<typeof VenueWsMessageSchema>;

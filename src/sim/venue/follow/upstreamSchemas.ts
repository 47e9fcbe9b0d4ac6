/**
 * The upstream venue's public info API and WebSocket messages as the follower reads them (Hyperliquid's
 * shape). Parsing is loose where the venue adds fields over time (marginTables, marginTableId,
 * isDelisted, ...) and strict about what the simulator relies on: prices and sizes are decimal strings
 * (the venue writes whole numbers with a trailing `.0`), and the fields the venue leaves null on an asset
 * without a book (a delisted one: midPx, premium, impactPxs) are nullable.
 */
import Decimal from 'decimal.js';
import { z } from 'zod';
import { SIGNED_DECIMAL_TEXT } from '../../../shared/decimal/decimal.js';


/** A decimal string normalised to plain notation ('97000.0' -> '97000'), so equal prices compare equal as text. */
const decimal = z
  .string()
  .regex(SIGNED_DECIMAL_TEXT, 'must be a decimal string')
  .transform((s) => new Decimal(s).toFixed());

const universeEntry = z.looseObject({
  name: z.string().min(1),
  szDecimals: z.number().int().min(0),
  maxLeverage: z.number().int().min(1),
  isDelisted: z.boolean().optional(),
  onlyIsolated: z.boolean().optional(),
});

export const upstreamMetaSchema = z.looseObject({ universe: z.array(universeEntry) });

export const upstreamAssetCtxSchema = z.looseObject({
  funding: decimal,
  openInterest: decimal,
  prevDayPx: decimal,
  dayNtlVlm: decimal,
  premium: decimal.nullable(),
  oraclePx: decimal,
  markPx: decimal,
  midPx: decimal.nullable(),
  impactPxs: z.tuple([decimal, decimal]).nullable(),
  dayBaseVlm: decimal,
});
export type UpstreamAssetCtx = z.infer<typeof upstreamAssetCtxSchema>;

export const metaAndAssetCtxsSchema = z.tuple([upstreamMetaSchema, z.array(upstreamAssetCtxSchema)]);

/** allMids also holds spot pairs ('@1', 'PURR/USDC'); only the perp names matter to the follower. */
export const allMidsSchema = z.record(z.string(), decimal);

const level = z.looseObject({ px: decimal, sz: decimal, n: z.number().int().min(0) });

export const l2BookSchema = z.looseObject({
  coin: z.string(),
  time: z.number().int(),
  levels: z.tuple([z.array(level), z.array(level)]),
});
export type UpstreamL2Book = z.infer<typeof l2BookSchema>;

export const tradeSchema = z.looseObject({
  coin: z.string(),
  side: z.enum(['B', 'A']),
  px: decimal,
  sz: decimal,
  time: z.number().int(),
  hash: z.string(),
  tid: z.number().int(),
  users: z.tuple([z.string(), z.string()]).optional(),
});
export type UpstreamTrade = z.infer<typeof tradeSchema>;

/** The WebSocket channels the follower subscribes to; anything else the venue sends is ignored. */
export const socketMessageSchema = z.discriminatedUnion('channel', [
  z.looseObject({ channel: z.literal('allMids'), data: z.looseObject({ mids: allMidsSchema }) }),
  z.looseObject({ channel: z.literal('l2Book'), data: l2BookSchema }),
  z.looseObject({ channel: z.literal('trades'), data: z.array(tradeSchema) }),
  z.looseObject({ channel: z.literal('activeAssetCtx'), data: z.looseObject({ coin: z.string(), ctx: upstreamAssetCtxSchema }) }),
]);
export type UpstreamSocketMessage = z.infer<typeof socketMessageSchema>;

export const FOLLOWED_CHANNELS = new Set(['allMids', 'l2Book', 'trades', 'activeAssetCtx']);

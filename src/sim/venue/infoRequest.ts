/** The venue's info request (POST /info, or a post over the WebSocket) as its deserializer accepts it. */
import { z } from 'zod';
import { CANDLE_INTERVAL_NAMES } from './candles.js';

const integer = z.number().int();

/** l2Book aggregation: 2 to 5 significant figures; a mantissa of 1, 2 or 5 only at 5 figures. */
const nSigFigsSchema = z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)]).nullish();
const mantissaSchema = z.union([z.literal(1), z.literal(2), z.literal(5)]).nullish();

export const infoRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('meta') }),
  z.object({ type: z.literal('metaAndAssetCtxs') }),
  z.object({ type: z.literal('allMids') }),
  z.object({ type: z.literal('l2Book'), coin: z.string(), nSigFigs: nSigFigsSchema, mantissa: mantissaSchema }),
  z.object({
    type: z.literal('candleSnapshot'),
    req: z.object({ coin: z.string(), interval: z.enum(CANDLE_INTERVAL_NAMES), startTime: integer, endTime: integer.optional() }),
  }),
  z.object({ type: z.literal('fundingHistory'), coin: z.string(), startTime: integer, endTime: integer.nullish() }),
  z.object({ type: z.literal('predictedFundings') }),
  z.object({ type: z.literal('recentTrades'), coin: z.string() }),
]);

export type InfoRequest = z.infer<typeof infoRequestSchema>;

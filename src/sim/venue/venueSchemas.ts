/**
 * What the venue's model validates as a whole before use: the asset configuration it is built from,
 * and the snapshot it is restored from (a state file is outside input).
 */
import Decimal from 'decimal.js';
import { z } from 'zod';
import { DECIMAL_PATTERN } from './priceWalk.js';

const decimalString = z.string().regex(DECIMAL_PATTERN, 'must be a decimal string');
// Zod runs refinements even after the pattern failed, so the refinement checks the pattern itself before parsing.
const positiveDecimal = decimalString.refine((s) => DECIMAL_PATTERN.test(s) && new Decimal(s).gt(0), 'must be positive');

export const assetConfigSchema = z.object({
  venueSymbol: z.string().min(1),
  venueAssetIndex: z.number().int().min(0),
  szDecimals: z.number().int().min(0).max(18),
  maxLeverage: z.number().int().min(1),
  onlyIsolated: z.boolean(),
  tickSize: positiveDecimal,
  initialMark: positiveDecimal,
  volatilityBps: z.number().finite().min(0),
  fundingRate: decimalString,
  spreadBps: z.number().finite().min(0),
  depthPerLevel: positiveDecimal,
  levels: z.number().int().min(1),
  marginTiers: z
    .array(z.object({ lowerBound: decimalString, maxLeverage: z.number().int().min(1) }))
    .min(1)
    .optional(),
});

const barTupleSchema = z.tuple([
  z.number().int(),
  z.number().int().positive(),
  positiveDecimal,
  positiveDecimal,
  positiveDecimal,
  positiveDecimal,
  decimalString,
  decimalString,
  z.number().int().min(0),
]);

const tradeSchema = z.object({
  coin: z.string(),
  side: z.enum(['B', 'A']),
  px: positiveDecimal,
  sz: positiveDecimal,
  time: z.number().int(),
  hash: z.string(),
  tid: z.number().int(),
  users: z.tuple([z.string(), z.string()]),
});

export const snapshotSchema = z.object({
  version: z.literal(1),
  walkRandomState: z.number().int().min(0),
  nextTid: z.number().int().min(0),
  nextTickAt: z.number().int().nullable(),
  assets: z.array(
    z.object({
      venueSymbol: z.string(),
      fair: positiveDecimal,
      mark: positiveDecimal,
      openInterest: decimalString,
      fundingRates: z.array(z.tuple([z.number().int(), decimalString])).min(1),
      bars: z.array(barTupleSchema).min(1),
      trades: z.array(tradeSchema),
    }),
  ),
});

/** JSON-serialisable state of the venue: marks, candles, trades, funding and the walk's random state. */
export type VenueMarketDataSnapshot = z.infer<typeof snapshotSchema>;

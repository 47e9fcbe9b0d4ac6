/**
 * What the venue's model validates as a whole before use: the asset configuration it is built from,
 * and the snapshot it is restored from (a state file is outside input).
 */
import { z } from 'zod';
import { SnapshotError } from '../state/snapshotError.js';
import { DECIMAL_PATTERN } from './priceWalk.js';

const decimalString = z.string().regex(DECIMAL_PATTERN, 'must be a decimal string');
// Zod runs refinements even after the pattern failed, so the refinement checks the pattern itself. Text of the
// grammar is above zero exactly when it has no sign and a digit other than 0: read from the text, since a
// state file holds four of these a bar (800,000 bars at the venue's scale) and a Decimal each took seconds.
const positiveDecimal = decimalString.refine((s) => DECIMAL_PATTERN.test(s) && !s.startsWith('-') && /[1-9]/.test(s), 'must be positive');

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

/** A column of compact bars: its values' bytes in base64 (barColumns.ts, which decodes and checks them). */
const barColumnSchema = z.union([z.object({ zz: z.string() }).strict(), z.object({ i32: z.string() }).strict(), z.object({ f64: z.string() }).strict()]);

/** A series in the state file's form (BarSeries.toState): compact columns on their grid, then plain bars. */
const barSeriesStateSchema = z.object({
  compact: z
    .object({
      tick: positiveDecimal,
      szDecimals: z.number().int().min(0).max(18),
      t0: z.number().int(),
      dur: barColumnSchema,
      o: barColumnSchema,
      h: barColumnSchema,
      l: barColumnSchema,
      c: barColumnSchema,
      v: barColumnSchema,
      n: barColumnSchema,
      ntl: z.array(z.tuple([z.number().int(), decimalString])),
    })
    .nullable(),
  bars: z.array(barTupleSchema).min(1),
});

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

/**
 * Version 2 keeps each market's bars in the state form (barSeriesStateSchema); version 1, as tuples, is
 * still read (a state file saved before), and its bars on the market's grid are made compact on restore.
 */
export const snapshotSchema = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
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
      bars: z.union([z.array(barTupleSchema).min(1), barSeriesStateSchema]),
      trades: z.array(tradeSchema),
    }),
  ),
});

/** JSON-serialisable state of the venue: marks, candles, trades, funding and the walk's random state. */
export type VenueMarketDataSnapshot = z.infer<typeof snapshotSchema>;

declare const validated: unique symbol;

/**
 * A venue snapshot that passed snapshotSchema whole (parseVenueSnapshot): the only form VenueMarketData
 * restores, or is told (its `restoring` option) which markets it is about to restore from.
 */
export type ValidVenueSnapshot = VenueMarketDataSnapshot & { readonly [validated]: true };

/** `data` (a state file's venue part) checked whole against the snapshot's schema; a SnapshotError says what is wrong. */
export function parseVenueSnapshot(data: unknown): ValidVenueSnapshot {
  const parsed = snapshotSchema.safeParse(data);
  if (!parsed.success) throw new SnapshotError(`invalid venue market data snapshot: ${z.prettifyError(parsed.error)}`);
  return parsed.data as ValidVenueSnapshot;
}

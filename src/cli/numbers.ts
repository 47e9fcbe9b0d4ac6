/**
 * How the command line's tables show numbers: prices and sizes to the market's px_decimals / sz_decimals,
 * money to cents, ratios as percentages. Only the human tables round: --json and --csv carry the service's
 * and the computations' full-precision strings.
 */
import { Decimal } from '../shared/decimal/index.js';

const DASH = '-';

/** `value` with exactly `places` decimals (half-up); '-' for none. */
export function fixedPlaces(value: string | Decimal | null | undefined, places: number): string {
  if (value === null || value === undefined) return DASH;
  return new Decimal(value).toFixed(places, Decimal.ROUND_HALF_UP);
}

/** Money to 2 places. */
export function cents(value: string | Decimal | null | undefined): string {
  return fixedPlaces(value, 2);
}

/** A fraction as a percentage ("0.0123" -> "1.23%"), optionally signed. */
export function percent(fraction: string | Decimal | null | undefined, places = 2, signed = false): string {
  if (fraction === null || fraction === undefined) return DASH;
  const p = new Decimal(fraction).mul(100);
  const text = `${p.toFixed(places, Decimal.ROUND_HALF_UP)}%`;
  return signed && p.toDecimalPlaces(places, Decimal.ROUND_HALF_UP).gt(0) ? `+${text}` : text;
}

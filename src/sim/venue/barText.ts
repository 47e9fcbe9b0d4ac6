/**
 * A compact (frozen) bar's numbers as tuple text (BarSeries.toJSON, the form of version 1 state files),
 * without building a Decimal per number, and the check that a version 1 file's bar is on its market's grid.
 *
 * Printing a bar built six Decimals (four prices, the volume and the notional, which took three more
 * operations) only to print them again: 150 ms for the default markets, 13 s for 200. The text here is
 * exactly what those Decimals printed (decimal.js's `toFixed()`: no exponent, no trailing zeros in the
 * fraction); a property test holds them equal, and the recorded digests of candleStorage.test hold the
 * tuples equal to the Decimal-per-bar storage's.
 */

/** What decimal.js prints for the plain decimal `text` (digits, at most one point, no sign or exponent). */
export function canonicalDecimal(text: string): string {
  const point = text.indexOf('.');
  if (point < 0) return stripLeadingZeros(text);
  let end = text.length;
  while (end > point + 1 && text.charCodeAt(end - 1) === 48 /* 0 */) end--;
  const whole = stripLeadingZeros(text.slice(0, point));
  return end === point + 1 ? whole : `${whole}.${text.slice(point + 1, end)}`;
}

function stripLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  return digits.slice(i) || '0';
}

/** Plain decimal text: digits with an optional fraction, no sign, no exponent (what toFixed gives below 1e21). */
const PLAIN = /^\d+(\.\d+)?$/;

interface Scaled {
  /** The digits without the point. */
  units: bigint;
  /** Digits after the point. */
  scale: number;
}

function scaled(text: string): Scaled {
  const point = text.indexOf('.');
  return point < 0 ? { units: BigInt(text), scale: 0 } : { units: BigInt(text.slice(0, point) + text.slice(point + 1)), scale: text.length - point - 1 };
}

/** Significant digits of a whole number, trailing zeros not counted (0 has none). */
function significantDigits(units: bigint): number {
  if (units === 0n) return 0;
  const s = units.toString();
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end--;
  return end;
}

function textOf({ units, scale }: Scaled): string {
  const digits = units.toString().padStart(scale + 1, '0');
  return canonicalDecimal(scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`);
}

/** decimal.js's default precision, which the bars' Decimal arithmetic uses (candles.ts imports decimal.js unconfigured). */
const DEFAULT_PRECISION = 20;

/**
 * The notional of a bar traded at its mid, volume x (open + close) / 2, as decimal.js printed
 * `new Decimal(v).mul(new Decimal(o).plus(c).div(2))`, or null when that arithmetic would have rounded
 * (a result of more than 20 significant digits), so the caller computes it with Decimal as before.
 */
export function midNotionalText(volume: string, open: string, close: string): string | null {
  if (!PLAIN.test(volume) || !PLAIN.test(open) || !PLAIN.test(close)) return null;
  const v = scaled(volume);
  const o = scaled(open);
  const c = scaled(close);
  const scale = Math.max(o.scale, c.scale);
  const sum = o.units * 10n ** BigInt(scale - o.scale) + c.units * 10n ** BigInt(scale - c.scale);
  // Halving a whole number of 10^-scale is exact at one more place: x / 2 = 5x / 10.
  const mid = sum * 5n;
  const product = v.units * mid;
  if (significantDigits(sum) > DEFAULT_PRECISION || significantDigits(mid) > DEFAULT_PRECISION || significantDigits(product) > DEFAULT_PRECISION) return null;
  return textOf({ units: product, scale: v.scale + scale + 1 });
}

/** Whether `text` is plain decimal text that canonicalDecimal and midNotionalText read. */
export function isPlainDecimal(text: string): boolean {
  return PLAIN.test(text);
}

/**
 * Display and arithmetic helpers over decimal strings. Prices, sizes and amounts arrive as text and stay
 * text: arithmetic goes through the shared Decimal (decimal.js), never parseFloat, so what the user sees
 * is exactly what the service sent and what an order will sign.
 */
import { Decimal, isDecimalText, parseDecimal, parseDecimalText } from '../../../shared/decimal/decimal';

/** Typed text is judged by the one decimal grammar of src/shared (no spaces, no "5." or ".5"). */
export { Decimal, isDecimalText };
export type DecimalValue = InstanceType<typeof Decimal>;

/** A Decimal from wire or typed text; null when the text is empty or not a plain decimal. */
export function dec(s: string | null | undefined): DecimalValue | null {
  if (s === null || s === undefined) return null;
  const t = s.trim();
  if (t === '') return null;
  try {
    return parseDecimal(t);
  } catch {
    // Typed input is validated where it is entered; here "not a number" simply means nothing to show.
    return null;
  }
}

/**
 * A Decimal from text a person typed, by the one decimal grammar (unsigned); null when the text is not
 * such a decimal. Unlike dec(), nothing is trimmed: " 5" and "5." are not numbers a ticket may send.
 */
export function typedDecimal(s: string): DecimalValue | null {
  try {
    return parseDecimalText(s);
  } catch {
    // The caller shows its own message for "not a number"; the grammar's refusal is that answer.
    return null;
  }
}

function group(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export interface FormatOptions {
  /** Fixed number of decimal places (rounded half up); omit to keep the value's own places. */
  places?: number;
  /** Show '+' on positive values (PnL, changes). */
  signed?: boolean;
  /** Thousands separators (default true). */
  grouping?: boolean;
  /** Text shown when the value is missing or not a decimal. */
  fallback?: string;
}

/** Formats decimal text or a Decimal for display, without ever going through a float. */
export function fmt(value: string | DecimalValue | null | undefined, opts: FormatOptions = {}): string {
  const fallback = opts.fallback ?? '—';
  const d = typeof value === 'string' || value === null || value === undefined ? dec(value ?? null) : value;
  if (!d) return fallback;
  const fixed = opts.places !== undefined ? d.toFixed(opts.places, Decimal.ROUND_HALF_UP) : d.toFixed();
  const negative = fixed.startsWith('-');
  const body = negative ? fixed.slice(1) : fixed;
  const [i = '0', f] = body.split('.');
  const intText = opts.grouping === false ? i : group(i);
  const isZero = /^[0.]*$/.test(body);
  const sign = negative && !isZero ? '-' : opts.signed && !isZero ? '+' : '';
  return sign + intText + (f !== undefined ? '.' + f : '');
}

/** USD amounts: two places, grouped. */
export function fmtUsd(value: string | DecimalValue | null | undefined, opts: Omit<FormatOptions, 'places'> = {}): string {
  const s = fmt(value, { ...opts, places: 2 });
  return s === (opts.fallback ?? '—') ? s : s.startsWith('-') ? `-$${s.slice(1)}` : s.startsWith('+') ? `+$${s.slice(1)}` : `$${s}`;
}

/** A raw fraction (0.00012) shown as a percentage (0.0120%). */
export function fmtPct(fraction: string | DecimalValue | null | undefined, places = 4, signed = false): string {
  const d = typeof fraction === 'string' || fraction === null || fraction === undefined ? dec(fraction ?? null) : fraction;
  if (!d) return '—';
  return `${fmt(d.mul(100), { places, signed })}%`;
}

/** $12.3M style for wide columns. Text in, text out: only the digit count is used. */
export function compactUsd(integerText: string): string {
  const neg = integerText.startsWith('-');
  const digits = neg ? integerText.slice(1) : integerText;
  const units: [number, string][] = [
    [12, 'T'],
    [9, 'B'],
    [6, 'M'],
    [3, 'K'],
  ];
  for (const [exp, suffix] of units) {
    if (digits.length > exp) {
      const whole = digits.slice(0, digits.length - exp);
      const frac = digits.slice(digits.length - exp, digits.length - exp + 1);
      return `${neg ? '-' : ''}$${whole}${whole.length < 3 && frac !== '0' ? '.' + frac : ''}${suffix}`;
    }
  }
  return fmtUsd(integerText);
}

/** Sign of a decimal string: 1, -1 or 0 (0 also for missing). */
export function signOf(value: string | DecimalValue | null | undefined): -1 | 0 | 1 {
  const d = typeof value === 'string' || value === null || value === undefined ? dec(value ?? null) : value;
  if (!d || d.isZero()) return 0;
  return d.isNegative() ? -1 : 1;
}

/** CSS class for a signed value: buy (green) for positive, sell (red) for negative. */
export function toneOf(value: string | DecimalValue | null | undefined): '' | 'buy' | 'sell' {
  const s = signOf(value);
  return s > 0 ? 'buy' : s < 0 ? 'sell' : '';
}

/**
 * A number for plotting only (the chart library draws on a canvas and needs JS numbers). Never used for
 * anything that is sent, signed or compared.
 */
export function plotNumber(value: string | DecimalValue): number {
  const d = typeof value === 'string' ? dec(value) : value;
  return d ? d.toNumber() : Number.NaN;
}

/** Places implied by a tick size ("0.01" -> 2, "5" -> 0). */
export function placesOfStep(step: string): number {
  const d = dec(step);
  return d ? Math.max(0, d.decimalPlaces()) : 2;
}

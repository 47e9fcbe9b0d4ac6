/**
 * Decimal strings, end to end. Prices, sizes and amounts never become JS numbers: the service hashes
 * the exact string it receives, so one float round-trip can turn an order into a 403.
 *
 * decimal.js does the arithmetic; this module fixes the canonical spelling the spec requires
 * (no trailing zeros, no exponent, no '+', no '-0').
 */
import DecimalJs from 'decimal.js';
import type { ClassifiedError } from '../errorKinds.js';

/** A private Decimal constructor so app settings can never change precision or rounding under us. */
export const Decimal = DecimalJs.clone({ precision: 80, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -100, toExpPos: 100 });
export type Decimal = InstanceType<typeof Decimal>;

/** Plain decimal text as the wire carries it: optional '-', digits, optional fraction. */
const WIRE_DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;
/** Laxer input accepted from people typing (leading zeros, '.5', '5.'), still no exponent or '+'. */
const INPUT_DECIMAL = /^-?(\d+\.?\d*|\.\d+)$/;

export class DecimalError extends Error implements ClassifiedError {
  /** Input errors: found before anything is signed. */
  readonly errorKind = 'validation' as const;
  readonly errorCode = 'VALIDATION_ERROR';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(field ? `${field}: ${message}` : message);
    this.name = 'DecimalError';
  }
}

/** True when `s` is decimal text of the wire form (it may still have trailing zeros). */
export function isDecimalString(s: unknown): s is string {
  return typeof s === 'string' && WIRE_DECIMAL.test(s);
}

/** Parses decimal text (wire or typed input) into a Decimal; anything else is an error naming the field. */
export function parseDecimal(s: unknown, field?: string): Decimal {
  if (typeof s !== 'string') throw new DecimalError(`expected a decimal string, got ${typeof s}`, field);
  const t = s.trim();
  if (!INPUT_DECIMAL.test(t)) throw new DecimalError(`'${s}' is not a plain decimal (digits, optional '.', no exponent or '+')`, field);
  return new Decimal(t);
}

/** The canonical spelling of a decimal: no trailing zeros, no exponent, no '+', zero is '0'. */
export function canonical(value: Decimal | string): string {
  const d = typeof value === 'string' ? parseDecimal(value) : value;
  if (d.isZero()) return '0';
  return d.toFixed();
}

/** True when `s` is already canonical (what must be sent and signed). */
export function isCanonicalDecimal(s: unknown): s is string {
  return isDecimalString(s) && canonical(s) === s;
}

/** Number of decimal places in the canonical form. */
export function decimalPlaces(value: Decimal | string): number {
  const d = typeof value === 'string' ? parseDecimal(value) : value;
  return d.decimalPlaces();
}

/** True when value is an exact integer multiple of step (step > 0). */
export function isMultipleOf(value: Decimal | string, step: Decimal | string): boolean {
  const v = typeof value === 'string' ? parseDecimal(value) : value;
  const s = typeof step === 'string' ? parseDecimal(step) : step;
  if (s.lte(0)) throw new DecimalError('step must be positive');
  return v.mod(s).isZero();
}

export type RoundingMode = 'down' | 'up' | 'nearest';

const MODES: Record<RoundingMode, DecimalJs.Rounding> = {
  down: DecimalJs.ROUND_DOWN,
  up: DecimalJs.ROUND_UP,
  nearest: DecimalJs.ROUND_HALF_UP,
};

/** Rounds to a multiple of step (toward zero, away from zero, or nearest). */
export function roundToStep(value: Decimal | string, step: Decimal | string, mode: RoundingMode): Decimal {
  const v = typeof value === 'string' ? parseDecimal(value) : value;
  const s = typeof step === 'string' ? parseDecimal(step) : step;
  if (s.lte(0)) throw new DecimalError('step must be positive');
  return v.div(s).toDecimalPlaces(0, MODES[mode]).mul(s);
}

/** Rounds to at most `places` decimal places. */
export function roundToPlaces(value: Decimal | string, places: number, mode: RoundingMode): Decimal {
  const v = typeof value === 'string' ? parseDecimal(value) : value;
  return v.toDecimalPlaces(places, MODES[mode]);
}

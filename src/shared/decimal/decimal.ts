/**
 * Decimal strings, end to end. Prices, sizes and amounts never become JS numbers: the service hashes
 * the exact string it receives, so one float round-trip can turn an order into a 403.
 *
 * decimal.js does the arithmetic; this module fixes the canonical spelling the spec requires
 * (no trailing zeros, no exponent, no '+', no '-0').
 */
import DecimalJs from 'decimal.js';
import { InputRuleError, fieldMessage } from '../errorKinds.js';

/** A private Decimal constructor so app settings can never change precision or rounding under us. */
export const Decimal = DecimalJs.clone({ precision: 80, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -100, toExpPos: 100 });
export type Decimal = InstanceType<typeof Decimal>;

/**
 * The one decimal grammar of every input (a command-line option, an IPC field, a ticket field, a file)
 * and of the wire: digits, at most one '.', with digits on both sides of it; no leading zeros ("0.5", not
 * "00.5"), no spaces, no exponent, no '+'. A sign ('-') only where a field says it is signed (a margin
 * adjustment, a PnL on the wire). Typed text is never trimmed or completed: "1.", ".5" and "5 " are
 * refused, so what is signed is exactly what was typed.
 */
const UNSIGNED_DECIMAL = '(?:0|[1-9]\\d*)(?:\\.\\d+)?';
export const DECIMAL_TEXT = new RegExp(`^${UNSIGNED_DECIMAL}$`);
export const SIGNED_DECIMAL_TEXT = new RegExp(`^-?${UNSIGNED_DECIMAL}$`);
/** Longest decimal text accepted from any input: longer is never a price, size or amount. */
export const MAX_DECIMAL_INPUT_LENGTH = 64;
/** The grammar in words, for error messages. */
export const DECIMAL_GRAMMAR = "digits with at most one '.' and digits on both sides of it, such as 0.5 or 12 (no spaces, '+', exponent or leading zeros)";

export interface DecimalTextOptions {
  /** The field allows a leading '-' (default: no sign at all). */
  signed?: boolean;
}

/** Input errors: found before anything is signed. */
export class DecimalError extends InputRuleError {
  constructor(message: string, field?: string) {
    super('VALIDATION_ERROR', field, fieldMessage(field, message));
    this.name = 'DecimalError';
  }
}

/** True when `s` is decimal text of the wire form, signed or not (it may still have trailing zeros). */
export function isDecimalString(s: unknown): s is string {
  return typeof s === 'string' && SIGNED_DECIMAL_TEXT.test(s);
}

/** Why `text` is not decimal text of the grammar (null when it is). */
export function decimalTextProblem(text: unknown, options: DecimalTextOptions = {}): string | null {
  if (typeof text !== 'string') return `expected a decimal string, got ${typeof text}`;
  if (text.length > MAX_DECIMAL_INPUT_LENGTH) return `at most ${MAX_DECIMAL_INPUT_LENGTH} characters`;
  if ((options.signed === true ? SIGNED_DECIMAL_TEXT : DECIMAL_TEXT).test(text)) return null;
  if (options.signed !== true && SIGNED_DECIMAL_TEXT.test(text)) return `'${text}' must not be negative (no sign)`;
  return `'${text}' is not a decimal: ${options.signed === true ? "an optional '-', then " : ''}${DECIMAL_GRAMMAR}`;
}

/** True when `text` is decimal text of the grammar (unsigned unless the field allows a sign). */
export function isDecimalText(text: unknown, options: DecimalTextOptions = {}): text is string {
  return decimalTextProblem(text, options) === null;
}

/**
 * Decimal text a person or a caller gave for `field`, checked against the one grammar (unsigned unless
 * `signed`); anything else is a DecimalError (a validation error) naming the field.
 */
export function parseDecimalText(text: unknown, field?: string, options: DecimalTextOptions = {}): Decimal {
  const problem = decimalTextProblem(text, options);
  if (problem !== null) throw new DecimalError(problem, field);
  return new Decimal(text as string);
}

/** Parses decimal text (the grammar, signed) into a Decimal; anything else is an error naming the field. */
export function parseDecimal(s: unknown, field?: string): Decimal {
  if (typeof s !== 'string') throw new DecimalError(`expected a decimal string, got ${typeof s}`, field);
  if (!SIGNED_DECIMAL_TEXT.test(s)) throw new DecimalError(`'${s}' is not a plain decimal (${DECIMAL_GRAMMAR})`, field);
  return new Decimal(s);
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

/**
 * Parsing of option values shared by commands; a bad value is a ValidationError (exit 2), before any
 * signing. Decimals and durations follow the one grammar of src/shared (decimal/decimal.ts,
 * duration/duration.ts): nothing is trimmed, completed or read as an exponent.
 */
import { DecimalError, decimalTextProblem, parseDecimalText, type Decimal, type DecimalTextOptions } from '../shared/decimal/index.js';
import { durationTextProblem, parseDuration } from '../shared/duration/duration.js';
import { ValidationError } from '../main/services/errors.js';

/** A decimal option (a price, a size, an amount) by the one decimal grammar, naming the flag. Times are durations, below. */
export function parseDecimalOption(value: string, flag: string, options: DecimalTextOptions = {}): Decimal {
  try {
    return parseDecimalText(value, flag, options);
  } catch (err) {
    if (err instanceof DecimalError) throw new ValidationError(decimalTextProblem(value, options) ?? err.message, { field: flag });
    throw err;
  }
}

/** A duration option ("90s", "30m", "1h30m") by the one duration grammar, in milliseconds. */
export function parseDurationOption(value: string, flag: string): number {
  const problem = durationTextProblem(value);
  if (problem !== null) throw new ValidationError(problem, { field: flag });
  return parseDuration(value, flag);
}

/**
 * The argParser of the time flag --FLAG (--timeout, --poll, --receipt-timeout, --window, --duration, ...):
 * the one duration grammar, checked as commander reads the flag, so `--timeout 30` (seconds? minutes?)
 * is refused (exit 2, "timeout: '30' is not a duration: a number needs a unit, such as 30s ...") whatever
 * else the command line holds, before anything runs. A ValidationError, not commander's own usage error:
 * it names the field like every other refused value, and commander would echo the raw text (control
 * characters included) into its message. The text is kept; the action converts it
 * (parseDurationOption) into the unit it has always used.
 */
export function durationFlag(flag: string): (value: string) => string {
  return (value) => {
    const problem = durationTextProblem(value);
    if (problem !== null) throw new ValidationError(problem, { field: flag });
    return value;
  };
}

/** An optional time flag in milliseconds, above zero ("0s" waits for nothing: refused). */
export function positiveDurationOption(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDurationOption(value, flag);
  if (ms <= 0) throw new ValidationError(`must be longer than 0s, got '${value}'`, { field: flag });
  return ms;
}

export function parseIntegerOption(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^(0|[1-9]\d*)$/.test(value) || !Number.isSafeInteger(Number(value))) throw new ValidationError(`expected a whole number such as 5 (digits only, no spaces or leading zeros), got '${value}'`, { field: flag });
  return Number(value);
}

/** --timeout (a duration such as 30s or 5m), as milliseconds. */
export function timeoutOf(value: string | undefined): number | undefined {
  return positiveDurationOption(value, 'timeout');
}

/** --json and --csv both claim stdout. */
export function checkFormats(json: boolean | undefined, csv: boolean | undefined): void {
  if (json === true && csv === true) throw new ValidationError('choose one of --json and --csv', { field: 'csv', code: 'USAGE' });
}

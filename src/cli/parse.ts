/** Parsing of option values shared by commands; a bad value is a ValidationError (exit 2), before any signing. */
import { ValidationError } from '../main/services/errors.js';

export function parseNumberOption(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new ValidationError(`expected a number, got '${value}'`, { field: flag });
  return n;
}

export function parseIntegerOption(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value))) throw new ValidationError(`expected a positive integer, got '${value}'`, { field: flag });
  return Number(value);
}

/** --timeout in seconds, as milliseconds. */
export function timeoutOf(value: string | undefined): number | undefined {
  const s = parseNumberOption(value, 'timeout');
  if (s === undefined) return undefined;
  if (s <= 0) throw new ValidationError('must be a positive number of seconds', { field: 'timeout' });
  return s * 1000;
}

/** --json and --csv both claim stdout. */
export function checkFormats(json: boolean | undefined, csv: boolean | undefined): void {
  if (json === true && csv === true) throw new ValidationError('choose one of --json and --csv', { field: 'csv', code: 'USAGE' });
}

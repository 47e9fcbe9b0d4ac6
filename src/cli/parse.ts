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

/** RFC 4180: quote a field when it holds a comma, quote or line break; double the quotes inside. */
export function csvField(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv<R>(rows: readonly R[], columns: readonly { header: string; value: (row: R) => unknown }[]): string {
  return [columns.map((c) => csvField(c.header)).join(','), ...rows.map((r) => columns.map((c) => csvField(c.value(r))).join(','))].join('\n');
}

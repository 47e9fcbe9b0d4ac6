/**
 * The one place where an alert typed by a person (the `perps alert add` flags, the app's Alerts panel, a
 * line dragged on the chart) becomes an AlertSpec: every refusal is an AlertInputError (validation: exit 2
 * on the command line) naming the field, and nothing is rounded. Levels and windows are read with the one
 * decimal grammar (decimal/decimal.ts, signed: a PnL or funding level may be negative) and the one
 * duration grammar (duration/duration.ts) every other input uses.
 */
import { Decimal, decimalTextProblem, canonical } from '../decimal/decimal.js';
import { durationTextProblem, parseDuration } from '../duration/duration.js';
import { InputRuleError, fieldMessage } from '../errorKinds.js';
import { addressSchema } from '../fieldSchemas.js';
import { MAX_ALERT_NOTE_LENGTH, MAX_MOVE_WINDOW_MS, MIN_MOVE_WINDOW_MS, POSITION_ALERT_KINDS, type AlertKind, type AlertRule, type AlertSpec } from './alertRule.js';

export class AlertInputError extends InputRuleError {
  declare readonly field: string;
  constructor(message: string, field: string) {
    super('INVALID_ALERT', field, fieldMessage(field, message));
    this.name = 'AlertInputError';
  }
}

/** An alert as typed: one condition and its value, plus the options. */
export interface AlertInput {
  market: string;
  kind: AlertKind;
  /** The level (price, rate, USDC, distance %) or, for a move, the percentage. */
  value: string;
  /** A move's window: seconds, or a span such as 90s, 10m, 1h30m. */
  window?: string | undefined;
  repeat?: boolean | undefined;
  note?: string | undefined;
  wallet?: string | null | undefined;
}

/** The largest move alert: ten times the price. */
const MAX_MOVE_PCT = new Decimal(1000);

/** The field name a kind's value is typed in (the CLI's flag names). */
export const ALERT_VALUE_FIELD: Record<AlertKind, string> = {
  price_above: 'above',
  price_below: 'below',
  move: 'move',
  funding_above: 'funding-above',
  funding_below: 'funding-below',
  pnl_above: 'pnl-above',
  pnl_below: 'pnl-below',
  liq_distance_below: 'liq-distance-below',
};

/** Decimal text of the shared grammar (an optional '-'); refused otherwise, never rounded. */
export function parseLevel(text: string, field: string): Decimal {
  const problem = decimalTextProblem(text, { signed: true });
  if (problem !== null) throw new AlertInputError(problem, field);
  return new Decimal(text);
}

/** A span of the shared duration grammar ("90s", "10m", "1h30m"), from 1 s to 24 h, as ms. */
export function parseWindow(text: string, field = 'window'): number {
  const problem = durationTextProblem(text);
  if (problem !== null) throw new AlertInputError(problem, field);
  const ms = parseDuration(text, field);
  if (ms < MIN_MOVE_WINDOW_MS || ms > MAX_MOVE_WINDOW_MS) throw new AlertInputError(`the window must be from 1s to 24h, got '${text}'`, field);
  return ms;
}

export function checkValue(kind: AlertKind, d: Decimal, field: string): void {
  switch (kind) {
    case 'price_above':
    case 'price_below':
      if (d.lte(0)) throw new AlertInputError('a price level must be above 0', field);
      return;
    case 'move':
      if (d.lte(0) || d.gt(MAX_MOVE_PCT)) throw new AlertInputError(`a move is a percentage above 0 and at most ${MAX_MOVE_PCT.toFixed()}`, field);
      return;
    case 'funding_above':
    case 'funding_below':
      // The venue states funding as a raw hourly fraction (0.0001 = 0.01 %): a whole 100 % is no rate.
      if (d.abs().gte(1)) throw new AlertInputError('a funding rate is a raw hourly fraction (0.0001 is 0.01 % an hour), between -1 and 1', field);
      return;
    case 'liq_distance_below':
      if (d.lte(0) || d.gte(100)) throw new AlertInputError('a distance is a percentage of the mark above 0 and below 100', field);
      return;
    case 'pnl_above':
    case 'pnl_below':
      return;
  }
}

/** The note: at most 200 characters, no control characters (it is shown in notifications and a log). */
export function parseNote(text: string | undefined): string {
  const t = (text ?? '').trim();
  if (t.length > MAX_ALERT_NOTE_LENGTH) throw new AlertInputError(`at most ${MAX_ALERT_NOTE_LENGTH} characters`, 'note');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(t)) throw new AlertInputError('no control characters or line breaks', 'note');
  return t;
}

/**
 * Checks a typed alert against the markets the service lists (symbols) and returns what to store.
 * Nothing is stored by the callers unless this returns.
 */
export function parseAlertInput(input: AlertInput, marketSymbols: readonly string[]): AlertSpec {
  const market = input.market.trim();
  if (!marketSymbols.includes(market)) throw new AlertInputError(`'${market.slice(0, 32)}' is not a market of this service (see \`perps markets\`)`, 'market');
  const field = ALERT_VALUE_FIELD[input.kind];
  if (!field) throw new AlertInputError(`unknown alert kind '${String(input.kind).slice(0, 32)}'`, 'kind');
  const value = parseLevel(input.value, field);
  checkValue(input.kind, value, field);
  let rule: AlertRule;
  if (input.kind === 'move') {
    if (input.window === undefined) throw new AlertInputError('a move alert needs a window (--window 5m)', 'window');
    rule = { kind: 'move', pct: canonical(value), window_ms: parseWindow(input.window) };
  } else {
    if (input.window !== undefined) throw new AlertInputError('only a move alert has a window', 'window');
    rule = { kind: input.kind, level: canonical(value) };
  }
  let wallet: string | null = null;
  if (POSITION_ALERT_KINDS.includes(input.kind)) {
    const w = addressSchema.safeParse(input.wallet);
    if (!w.success) throw new AlertInputError("a position alert needs the wallet whose position it watches (a 0x address)", 'wallet');
    wallet = w.data.toLowerCase();
  }
  return { market, rule, repeat: input.repeat === true, note: parseNote(input.note), wallet };
}

/** The same spec with a new level (a line dragged on the chart): the level goes through the same checks. */
export function withLevel(spec: AlertSpec, level: string, marketSymbols: readonly string[]): AlertSpec {
  if (spec.rule.kind === 'move') throw new AlertInputError('a move alert has no level', 'level');
  return parseAlertInput({ market: spec.market, kind: spec.rule.kind, value: level, repeat: spec.repeat, note: spec.note, wallet: spec.wallet }, marketSymbols);
}

/**
 * What is wrong with a stored alert by the rules a new one passes (empty: nothing). The alerts file is
 * outside input (another process, a hand edit, a hostile file), so each alert is held to the same rules as
 * one typed now: its value in range (no move of 0 %, no price of -5), a canonical level, a clean note, the
 * wallet of a position alert in the lowercase a new one is stored in (a mixed-case one would never match,
 * silently), no wallet on a market alert and, when the service's markets are at hand, a market it lists.
 * An alert with a problem is shown with it and never evaluated.
 */
export function storedAlertProblems(spec: AlertSpec, marketSymbols: readonly string[] | null): string[] {
  const problems: string[] = [];
  const kind = spec.rule.kind;
  const field = ALERT_VALUE_FIELD[kind];
  const value = spec.rule.kind === 'move' ? spec.rule.pct : spec.rule.level;
  try {
    const d = parseLevel(value, field);
    checkValue(kind, d, field);
    if (canonical(d) !== value) problems.push(`${field}: '${value}' is not written as a new alert's level would be ('${canonical(d)}')`);
  } catch (err) {
    problems.push((err as Error).message);
  }
  try {
    if (parseNote(spec.note) !== spec.note) problems.push('note: it has leading or trailing spaces a new alert would not keep');
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (POSITION_ALERT_KINDS.includes(kind)) {
    if (spec.wallet === null) problems.push('wallet: a position alert needs the wallet whose position it watches');
    else if (spec.wallet !== spec.wallet.toLowerCase()) problems.push('wallet: stored in mixed case, which never matches a position (a new alert stores it in lowercase)');
  } else if (spec.wallet !== null) {
    problems.push('wallet: a market alert watches no wallet');
  }
  if (marketSymbols !== null && !marketSymbols.includes(spec.market)) problems.push(`market: '${spec.market}' is not a market this service lists`);
  return problems;
}

/**
 * The chase's settings as a person gives them (`perps order chase` flags, the app's ticket), parsed and
 * refused as a whole: nothing is rounded, nothing is guessed. Durations take the one grammar
 * (src/shared/duration/duration.ts): a bare number is refused with the hint.
 */
import { InputRuleError, fieldMessage } from '../../errorKinds.js';
import { Decimal, decimalTextProblem } from '../../decimal/index.js';
import { parseDuration } from '../../duration/duration.js';
import type { MaxDistance } from './chasePrice.js';

export const ON_LIMIT_CHOICES = ['leave', 'cancel'] as const;
export type OnLimit = (typeof ON_LIMIT_CHOICES)[number];

/** The most ticks inside the spread an offset may ask for (a larger one is a typo, not a chase). */
export const MAX_OFFSET_TICKS = 1_000;
export const DEFAULT_INTERVAL_MS = 1_000;

export class ChaseInputError extends InputRuleError {
  constructor(field: string, message: string) {
    super('VALIDATION_ERROR', field, fieldMessage(field, message));
    this.name = 'ChaseInputError';
  }
}

export interface ChaseFlagsText {
  offsetTicks?: string;
  maxDistance?: string;
  timeout?: string;
  interval?: string;
  takerAfter?: string;
  onLimit?: string;
}

export interface ChaseSettings {
  offset_ticks: number;
  max_distance: MaxDistance | null;
  timeout_ms: number | null;
  interval_ms: number;
  taker_after_ms: number | null;
  on_limit: OnLimit;
}

/** `0.5%` (a percent of the price where it started, below 100) or `25` (a price distance), above 0. */
export function parseMaxDistance(text: string, field = 'max-distance'): MaxDistance {
  const percent = text.endsWith('%');
  const number = percent ? text.slice(0, -1) : text;
  const problem = decimalTextProblem(number);
  if (problem !== null) throw new ChaseInputError(field, `'${number.slice(0, 40)}' is not a percent (such as 0.5%) or a price distance (such as 25): ${problem}`);
  const v = new Decimal(number);
  if (!v.gt(0)) throw new ChaseInputError(field, 'must be greater than 0');
  if (percent && !v.lt(100)) throw new ChaseInputError(field, 'a percent must be below 100%');
  return { kind: percent ? 'percent' : 'price', value: number };
}

/** A whole number of ticks, 0 to MAX_OFFSET_TICKS. */
export function parseOffsetTicks(text: string, field = 'offset-ticks'): number {
  if (!/^(0|[1-9]\d{0,5})$/.test(text)) throw new ChaseInputError(field, `'${text.slice(0, 40)}' is not a whole number of ticks (0, 1, 2, ...)`);
  const n = Number(text);
  if (n > MAX_OFFSET_TICKS) throw new ChaseInputError(field, `at most ${MAX_OFFSET_TICKS} ticks`);
  return n;
}

export function parseOnLimit(text: string, field = 'on-limit'): OnLimit {
  if (!(ON_LIMIT_CHOICES as readonly string[]).includes(text)) throw new ChaseInputError(field, `'${text.slice(0, 40)}' is not one of ${ON_LIMIT_CHOICES.join(', ')}`);
  return text as OnLimit;
}

/** Every setting, each refused with its flag named; taker-after must come before the timeout. */
export function parseChaseFlags(f: ChaseFlagsText): ChaseSettings {
  const timeout = f.timeout === undefined ? null : parseDuration(f.timeout, 'timeout');
  const takerAfter = f.takerAfter === undefined ? null : parseDuration(f.takerAfter, 'taker-after');
  const interval = f.interval === undefined ? DEFAULT_INTERVAL_MS : parseDuration(f.interval, 'interval');
  if (timeout !== null && timeout <= 0) throw new ChaseInputError('timeout', 'must be longer than 0s');
  if (takerAfter !== null && takerAfter <= 0) throw new ChaseInputError('taker-after', 'must be longer than 0s');
  if (interval <= 0) throw new ChaseInputError('interval', 'must be at least 1s');
  if (timeout !== null && takerAfter !== null && takerAfter >= timeout) throw new ChaseInputError('taker-after', 'must be shorter than --timeout (after the timeout the chase is over)');
  return {
    offset_ticks: f.offsetTicks === undefined ? 0 : parseOffsetTicks(f.offsetTicks),
    max_distance: f.maxDistance === undefined ? null : parseMaxDistance(f.maxDistance),
    timeout_ms: timeout,
    interval_ms: interval,
    taker_after_ms: takerAfter,
    on_limit: f.onLimit === undefined ? 'leave' : parseOnLimit(f.onLimit),
  };
}

/**
 * A TWAP's schedule, pure: when each slice goes and how big it is. The service has no TWAP order type, so
 * the client sends a total size as market slices spread over a duration; main's scheduler
 * (src/main/services/algos/twap) runs this schedule, the review shows it, and the renderer can draw it.
 *
 *  - N slices (at least 2) over D ms: the nominal interval is I = floor(D / N) (at least 5 s), slice i is
 *    due at i x I from the start, so the first goes at once and the last before D is over.
 *  - Time randomization (0..40 % of I): each slice moves by up to that much either way from its nominal
 *    time (the first only later). At most 40 % keeps the slices in order with at least 20 % of the
 *    interval between any two.
 *  - Size randomization (0..50 %): slices are paired at random and one of each pair gets +u, the other -u
 *    (u up to the percentage; an odd slice out gets 0), so every exact size stays within the bounds and
 *    their sum is the total. Sizes are then rounded down to the size step and the steps that rounding
 *    left over go, one each, to the slices that lost most: the total is exact, and every slice is within
 *    its bound plus at most one size step.
 *
 * The randomness is seeded, so a schedule is reproduced from its seed; the scheduler persists the
 * schedule it reviewed anyway (what was reviewed is what runs).
 */
import { Decimal, canonical, decimalPlaces, parseDecimalText, DecimalError } from '../../decimal/decimal.js';
import { splitOnStep } from '../../orders/splitOnStep.js';
import { InputRuleError } from '../../errorKinds.js';

export const TWAP_MIN_SLICES = 2;
/** More slices than this is a different tool (and a very large file of progress). */
export const TWAP_MAX_SLICES = 2_000;
export const TWAP_MIN_INTERVAL_MS = 5_000;
/** A week: a TWAP lives in a desktop app or a terminal, not for months. */
export const TWAP_MAX_DURATION_MS = 7 * 24 * 60 * 60 * 1000;
export const TWAP_MAX_TIME_RANDOMIZATION_PCT = 40;
export const TWAP_MAX_SIZE_RANDOMIZATION_PCT = 50;

export interface TwapScheduleInput {
  /** Decimal text, at most szDecimals places. */
  totalSize: string;
  slices: number;
  durationMs: number;
  szDecimals: number;
  /** 0..40: how far (percent of the interval) a slice may move from its nominal time. */
  randomizeTimePct?: number;
  /** 0..50: how far (percent of the even share) a slice's size may move. */
  randomizeSizePct?: number;
  /** Seed of the randomization (a 32-bit integer). */
  seed?: number;
}

export interface PlannedSlice {
  index: number;
  /** Milliseconds after the TWAP's start. */
  offset_ms: number;
  /** Decimal text on the size grid. */
  size: string;
}

/** Why a schedule cannot be made: a validation error (nothing was signed), naming the input field. */
export class TwapScheduleError extends InputRuleError {
  declare readonly field: string;
  constructor(errorCode: string, field: string, message: string, errorHint?: string) {
    super(errorCode, field, message, errorHint);
    this.name = 'TwapScheduleError';
  }
}

/**
 * mulberry32: a tiny, well-known 32-bit PRNG. Only the spread of slice times and sizes depends on it (no
 * secret, no fairness at stake), and a schedule must be reproducible from its seed in every process.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The nominal interval between slices, in ms. */
export function twapInterval(durationMs: number, slices: number): number {
  return Math.floor(durationMs / slices);
}

function intIn(value: number, min: number, max: number, field: string, what: string): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new TwapScheduleError('VALIDATION_ERROR', field, `must be ${what} from ${min} to ${max}, got ${String(value)}`);
}

export function twapSchedule(input: TwapScheduleInput): PlannedSlice[] {
  const { slices, durationMs } = input;
  intIn(slices, TWAP_MIN_SLICES, TWAP_MAX_SLICES, 'slices', 'an integer');
  intIn(durationMs, 1, TWAP_MAX_DURATION_MS, 'duration', 'a whole number of ms');
  const timePct = input.randomizeTimePct ?? 0;
  const sizePct = input.randomizeSizePct ?? 0;
  intIn(timePct, 0, TWAP_MAX_TIME_RANDOMIZATION_PCT, 'randomize_time_pct', 'a whole percentage');
  intIn(sizePct, 0, TWAP_MAX_SIZE_RANDOMIZATION_PCT, 'randomize_size_pct', 'a whole percentage');
  const interval = twapInterval(durationMs, slices);
  if (interval < TWAP_MIN_INTERVAL_MS) {
    throw new TwapScheduleError(
      'TWAP_INTERVAL_TOO_SHORT',
      'slices',
      `${slices} slices over ${durationMs / 1000} s are ${interval / 1000} s apart; slices must be at least ${TWAP_MIN_INTERVAL_MS / 1000} s apart`,
      `Use at most ${Math.floor(durationMs / TWAP_MIN_INTERVAL_MS)} slices, or a longer duration.`,
    );
  }
  let total: Decimal;
  try {
    // The one decimal grammar: " 1" or "1." is refused here, not trimmed or completed further on.
    total = parseDecimalText(input.totalSize, 'total_size');
  } catch (err) {
    if (err instanceof DecimalError) throw new TwapScheduleError('VALIDATION_ERROR', 'total_size', err.message);
    throw err;
  }
  if (total.lte(0)) throw new TwapScheduleError('VALIDATION_ERROR', 'total_size', 'must be greater than 0');
  if (decimalPlaces(total) > input.szDecimals) throw new TwapScheduleError('VALIDATION_ERROR', 'total_size', `${input.totalSize} has more than ${input.szDecimals} decimal places (the market's sz_decimals)`);

  const random = seededRandom(input.seed ?? 0);
  // Times: nominal i x interval, moved by up to timePct of the interval (the first slice only later).
  const offsets: number[] = [];
  for (let i = 0; i < slices; i++) {
    const u = random() * 2 - 1;
    const jitter = ((i === 0 ? Math.abs(u) : u) * timePct * interval) / 100;
    offsets.push(i * interval + Math.round(jitter));
  }

  // Sizes: antithetic pairs keep the exact sum while each slice stays within +/- sizePct.
  const base = total.div(slices);
  const u: Decimal[] = Array.from({ length: slices }, () => new Decimal(0));
  const order = Array.from({ length: slices }, (_, i) => i);
  for (let i = slices - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  for (let k = 0; k + 1 < slices; k += 2) {
    // Whole hundredths of a percent: decimal arithmetic from here on.
    const v = new Decimal(Math.floor(random() * (sizePct * 100 + 1))).div(10_000);
    u[order[k]!] = v;
    u[order[k + 1]!] = v.neg();
  }
  const step = new Decimal(1).div(new Decimal(10).pow(input.szDecimals));
  const exact = u.map((x) => base.mul(x.plus(1)));
  const sizes = splitOnStep(total, exact, step);
  const empty = sizes.findIndex((s) => s.isZero());
  if (empty >= 0) {
    throw new TwapScheduleError(
      'TWAP_SLICE_TOO_SMALL',
      'total_size',
      `slice ${empty + 1} of ${slices} would get a size of 0 at ${input.szDecimals} size decimals`,
      'Raise the total size or use fewer slices.',
    );
  }
  return sizes.map((s, i) => ({ index: i, offset_ms: offsets[i]!, size: canonical(s) }));
}

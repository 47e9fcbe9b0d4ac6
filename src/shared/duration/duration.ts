/**
 * The one duration grammar of every input (`perps twap start --duration`, the app's TWAP ticket): whole
 * numbers with units, largest first, each unit at most once, no spaces:
 *
 *     90s   30m   1h30m   2h   1d   1d12h   1h0m30s
 *
 *  - units d (24 h), h, m, s, in that order; at least one;
 *  - the first component may be any size ("99m", "36h"); every later one stays below its next unit's size
 *    (h < 24, m < 60, s < 60), so a span has one spelling per unit set: "1h99m" is refused, not read as
 *    159 minutes;
 *  - no leading zeros ("05m"), no fractions ("1.5h"), no sign, no bare number (is "90" seconds or
 *    minutes?), no upper case, no spaces.
 *
 * Pure and shared, so the command line (every time flag: --timeout, --poll, --receipt-timeout, --window,
 * --duration, --cooldown, --expires-in) and the renderer accept exactly the same texts.
 */
import { InputRuleError, fieldMessage } from '../errorKinds.js';
import { oneLineText } from '../safeText.js';

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
] as const;
type Unit = (typeof UNITS)[number][0];

/** Longest duration text accepted: "6d23h59m59s" is 11; past this it is never a span a person means. */
export const MAX_DURATION_INPUT_LENGTH = 24;
/** The grammar in words, for error messages and help. */
export const DURATION_GRAMMAR = 'whole numbers with units d, h, m, s, largest first, such as 90s, 30m, 1h30m, 2h or 1d (each unit once; after the first, h below 24, m and s below 60)';

const DURATION_TEXT = /^(?:(0|[1-9]\d*)d)?(?:(0|[1-9]\d*)h)?(?:(0|[1-9]\d*)m)?(?:(0|[1-9]\d*)s)?$/;

/** A refused duration text: a validation error naming the field. */
export class DurationError extends InputRuleError {
  constructor(message: string, field?: string) {
    super('VALIDATION_ERROR', field, fieldMessage(field, message));
    this.name = 'DurationError';
  }
}

/** Why `text` is not a duration of the grammar (null when it is). */
export function durationTextProblem(text: unknown): string | null {
  if (typeof text !== 'string') return `expected a duration string, got ${typeof text}`;
  if (text.length > MAX_DURATION_INPUT_LENGTH) return `at most ${MAX_DURATION_INPUT_LENGTH} characters`;
  // Never echo what a terminal would act on (an escape sequence, a bidi override) back in the message.
  if (oneLineText(text) !== text) return 'a duration has no control or invisible formatting characters';
  // A bare number is the one mistake worth its own words: seconds or minutes, the reader cannot tell.
  if (/^\d+$/.test(text)) return `'${text}' is not a duration: a number needs a unit, such as ${text}s (seconds) or ${text}m (minutes)`;
  if (/^\d+ms$/.test(text)) return `'${text}' is not a duration: the smallest unit is a second, such as 1s (no ms)`;
  const m = DURATION_TEXT.exec(text);
  if (m === null || text === '') return `'${text}' is not a duration: ${DURATION_GRAMMAR}`;
  let first = true;
  for (let i = 0; i < UNITS.length; i++) {
    const digits = m[i + 1];
    if (digits === undefined) continue;
    // Only the leading component may exceed its next unit's size: "99m" is a way to say it, "1h99m" is not.
    const cap = i === 0 ? Infinity : UNITS[i - 1]![1] / UNITS[i]![1];
    if (!first && Number(digits) >= cap) return `'${text}': ${digits}${UNITS[i]![0]} after a larger unit must be below ${cap} (write it with the larger unit)`;
    first = false;
  }
  if (!Number.isSafeInteger(sumMs(m))) return `'${text}' is too long a duration`;
  return null;
}

function sumMs(m: RegExpExecArray): number {
  return UNITS.reduce((total, [, ms], i) => total + Number(m[i + 1] ?? 0) * ms, 0);
}

/** Milliseconds of a duration text of the grammar; anything else is a DurationError naming the field. */
export function parseDuration(text: unknown, field?: string): number {
  const problem = durationTextProblem(text);
  if (problem !== null) throw new DurationError(problem, field);
  return sumMs(DURATION_TEXT.exec(text as string)!);
}

/** True when `text` is a duration of the grammar. */
export function isDurationText(text: unknown): text is string {
  return durationTextProblem(text) === null;
}

/**
 * The canonical spelling of a whole number of seconds (ms a multiple of 1000, not negative): the largest
 * units first, zero components left out, "0s" for nothing. parseDuration(formatDuration(ms)) === ms.
 */
export function formatDuration(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms % 1000 !== 0) throw new RangeError(`${ms} ms is not a whole, non-negative number of seconds`);
  if (ms === 0) return '0s';
  let rest = ms;
  let text = '';
  for (const [unit, size] of UNITS as readonly (readonly [Unit, number])[]) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) text += `${n}${unit}`;
  }
  return text;
}

/**
 * The one decimal grammar and the one duration grammar of every input (issue 26.18): examples, then
 * properties: what format/canonical writes is read back to the same value, every accepted text is the
 * value's own spelling up to trailing zeros (decimals) or zero components (durations), and the lenient
 * forms people mistype ("1.", ".5", "5 ", "1h99m") are refused rather than guessed at.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecimalError, canonical, decimalTextProblem, isDecimalText, parseDecimalText } from '../../src/shared/decimal/index.js';
import { DurationError, formatDuration, isDurationText, parseDuration } from '../../src/shared/duration/duration.js';
import { decimalIn, durationIn, signedDecimalIn } from '../../src/shared/fieldSchemas.js';

const LENIENT_DECIMALS = ['1.', '.5', '5 ', ' 5', '\t5', '5\n', '1e3', '1E3', '+1', '01', '00.5', '1,5', '1_000', '1.2.3', '', '-', '.', 'NaN', 'Infinity', '0x10', '５', '1 000'];

describe('decimal grammar: examples', () => {
  it.each(['0', '12', '0.5', '3200.555', '1.50', '100000000000000000000.000000000000000001'])('accepts %j', (text) => {
    expect(isDecimalText(text)).toBe(true);
    expect(parseDecimalText(text, 'size').toFixed()).toBe(canonical(text));
    expect(decimalIn.safeParse(text).success).toBe(true);
  });

  it.each(LENIENT_DECIMALS)('refuses %j, naming the field', (text) => {
    expect(isDecimalText(text)).toBe(false);
    expect(() => parseDecimalText(text, 'size')).toThrow(DecimalError);
    expect(() => parseDecimalText(text, 'size')).toThrow(/^size: /);
    expect(decimalIn.safeParse(text).success).toBe(false);
    expect(signedDecimalIn.safeParse(text).success).toBe(false);
  });

  it('takes a sign only where the field allows one', () => {
    expect(decimalTextProblem('-1')).toMatch(/must not be negative/);
    expect(decimalIn.safeParse('-1').success).toBe(false);
    expect(signedDecimalIn.safeParse('-1.5').success).toBe(true);
    expect(parseDecimalText('-1.5', 'amount', { signed: true }).toFixed()).toBe('-1.5');
    for (const bad of ['--1', '-.5', '- 1', '-01']) expect(isDecimalText(bad, { signed: true })).toBe(false);
  });

  it('refuses text longer than 64 characters and anything but a string', () => {
    expect(isDecimalText('1'.repeat(64))).toBe(true);
    expect(decimalTextProblem('1'.repeat(65))).toMatch(/at most 64 characters/);
    expect(isDecimalText(5 as unknown as string)).toBe(false);
  });
});

describe('decimal grammar: properties', () => {
  const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 12 });
  const decimalArb = fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.option(digits, { nil: undefined }))
    .map(([int, frac]) => (frac === undefined ? int.toString() : `${int.toString()}.${frac}`));

  it('every canonical spelling is accepted and reads back to itself', () => {
    fc.assert(
      fc.property(decimalArb, (text) => {
        const c = canonical(text);
        expect(isDecimalText(c)).toBe(true);
        expect(parseDecimalText(c).toFixed()).toBe(c === '0' ? '0' : c);
      }),
    );
  });

  it('an accepted text is its value spelled canonically, up to trailing zeros of the fraction', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.-+e '), maxLength: 10 }), (text) => {
        if (!isDecimalText(text)) return;
        const c = canonical(text);
        const [int, frac] = text.split('.');
        expect(c.startsWith(int!)).toBe(true);
        expect(text.length >= c.length).toBe(true);
        if (frac !== undefined) expect(/^\d+$/.test(frac)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('the lenient forms of any accepted number are refused: a space either side, a lone dot, a leading zero', () => {
    fc.assert(
      fc.property(decimalArb, fc.constantFrom(' ', '\t', '\n'), (text, ws) => {
        for (const bad of [`${ws}${text}`, `${text}${ws}`, `${text.includes('.') ? text : `${text}.`}`.replace(/\.\d+$/, '.'), `0${text}`, `+${text}`, `${text}e0`]) {
          expect(isDecimalText(bad), JSON.stringify(bad)).toBe(false);
        }
        if (!text.includes('.')) expect(isDecimalText(`.${text}`)).toBe(false);
      }),
    );
  });
});

describe('duration grammar: examples', () => {
  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['1h30m', 5_400_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['99m', 5_940_000],
    ['36h', 129_600_000],
    ['1d23h59m59s', 172_799_000],
    ['1h0m30s', 3_630_000],
    ['0s', 0],
  ])('%s is %i ms', (text, ms) => {
    expect(parseDuration(text, 'duration')).toBe(ms);
    expect(durationIn.safeParse(text).success).toBe(true);
  });

  it.each(['1h99m', '1d24h', '1m60s', '90', '', '1.5h', '30m1h', '1h1h', '5 m', ' 5m', '5m ', '5M', '-5m', '+5m', '05m', '1h05m', '5min', '1w', 'h', '1hm'])(
    'refuses %j, naming the field',
    (text) => {
      expect(isDurationText(text)).toBe(false);
      expect(() => parseDuration(text, 'duration')).toThrow(DurationError);
      expect(() => parseDuration(text, 'duration')).toThrow(/^duration: /);
      expect(durationIn.safeParse(text).success).toBe(false);
    },
  );

  it.each(['30', '90', '0', '1000'])('a bare number %j is refused with the unit hint (is it seconds or minutes?)', (text) => {
    expect(isDurationText(text)).toBe(false);
    expect(() => parseDuration(text, 'timeout')).toThrow(`timeout: '${text}' is not a duration: a number needs a unit, such as ${text}s (seconds) or ${text}m (minutes)`);
  });

  it('milliseconds are not a unit: 500ms is refused, naming the smallest unit', () => {
    expect(() => parseDuration('500ms', 'poll')).toThrow("poll: '500ms' is not a duration: the smallest unit is a second, such as 1s (no ms)");
  });

  it.each(['1e3s', '1E3s', '-5s', '0x10s', '0b1s', '0o7s', '1_000s', '1,000s', 'Infinitys', 'NaNs', '٣s', '３s', '5s\n', '\t5s', '5\u0000s'])('hostile text %j is refused', (text) => {
    expect(isDurationText(text)).toBe(false);
    expect(() => parseDuration(text, 'timeout')).toThrow(/^timeout: /);
  });

  it.each(['5s\u001b[2J', '\u001b]52;c;aGk=\u00075s', '\u202e5s', '5\u200es', '\u009b5s'])('control and bidi characters in %j are refused without being echoed', (text) => {
    let message = '';
    try {
      parseDuration(text, 'timeout');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('timeout: a duration has no control or invisible formatting characters');
  });

  it('overflow: a span past a safe integer of ms is refused, not rounded; past 24 characters the text is not read', () => {
    expect(() => parseDuration('99999999999999999999s')).toThrow(/too long a duration/);
    expect(() => parseDuration('9007199254740993d')).toThrow(/too long a duration/);
    expect(() => parseDuration('1'.repeat(25) + 's')).toThrow(/at most 24 characters/);
    // The largest whole number of days below 2^53 ms is still exact; one more day is refused.
    expect(parseDuration('104249991d')).toBe(104_249_991 * 86_400_000);
    expect(() => parseDuration('104249992d')).toThrow(/too long a duration/);
  });

  it('says why 1h99m is refused', () => {
    expect(() => parseDuration('1h99m')).toThrow(/99m after a larger unit must be below 60/);
  });
});

describe('duration grammar: properties', () => {
  const seconds = fc.integer({ min: 0, max: 400 * 86_400 });

  it('format then parse is the identity, and the formatted text is accepted', () => {
    fc.assert(
      fc.property(seconds, (s) => {
        const text = formatDuration(s * 1000);
        expect(isDurationText(text)).toBe(true);
        expect(parseDuration(text)).toBe(s * 1000);
      }),
    );
  });

  it('an accepted text is the canonical spelling up to zero components and the size of its first', () => {
    const units = fc.record({ d: fc.option(fc.nat(30)), h: fc.option(fc.nat(30)), m: fc.option(fc.nat(70)), s: fc.option(fc.nat(70)) });
    fc.assert(
      fc.property(units, (u) => {
        const text = (['d', 'h', 'm', 's'] as const).map((k) => (u[k] === null ? '' : `${u[k]}${k}`)).join('');
        if (!isDurationText(text)) {
          // Refused only when empty, or a later component reaches its next unit's size.
          const present = (['d', 'h', 'm', 's'] as const).filter((k) => u[k] !== null);
          const caps = { d: Infinity, h: 24, m: 60, s: 60 };
          expect(text === '' || present.slice(1).some((k) => u[k]! >= caps[k])).toBe(true);
          return;
        }
        const ms = parseDuration(text);
        expect(parseDuration(formatDuration(ms))).toBe(ms);
        // When even the first component is below its next unit's size, the text is the canonical
        // spelling itself, give or take zero components.
        const caps = { d: Infinity, h: 24, m: 60, s: 60 };
        if ((['d', 'h', 'm', 's'] as const).every((k) => u[k] === null || u[k]! < caps[k])) {
          expect(formatDuration(ms)).toBe(text.replace(/(?<!\d)0[dhms]/g, '') || '0s');
        }
      }),
    );
  });

  it('random text is refused unless it is made of whole numbers with units in order', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0159dhms .-'), maxLength: 10 }), (text) => {
        if (isDurationText(text)) expect(/^(\d+d)?(\d+h)?(\d+m)?(\d+s)?$/.test(text) && text !== '').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * A compact bar's text (barText.ts) is exactly what its Decimals printed before: decimal.js's toFixed() of
 * the same text, and the mid notional volume x (open + close) / 2 computed by decimal.js at its default
 * precision, or no answer where that arithmetic would have rounded (then the caller asks decimal.js).
 */
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalDecimal, midNotionalText } from '../../../src/sim/venue/barText.js';

/** Plain decimal text as toFixed prints it: digits, maybe a fraction with trailing zeros, no sign. */
const plain = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 3 }))
  .map(([units, scale, zeros]) => {
    const digits = units.toString().padStart(scale + 1, '0');
    const text = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
    return zeros > 0 ? (text.includes('.') ? text : `${text}.`) + '0'.repeat(zeros) : text;
  })
  .filter((t) => !t.endsWith('.'));

const decimalMid = (v: string, o: string, c: string) => new Decimal(v).mul(new Decimal(o).plus(c).div(2)).toFixed();

describe('bar text', () => {
  it('prints plain decimal text as decimal.js prints it', () => {
    for (const t of ['0', '0.0', '0.000', '10', '10.50', '100.000', '0.0001000', '3400.1', '007.5']) expect(canonicalDecimal(t)).toBe(new Decimal(t).toFixed());
    fc.assert(fc.property(plain, (t) => canonicalDecimal(t) === new Decimal(t).toFixed()), { numRuns: 2_000, seed: 37 });
  });

  it("gives the mid notional decimal.js gives, and no answer only where decimal.js's 20 digits would round", () => {
    expect(midNotionalText('1.5', '3400.1', '3400.2')).toBe(decimalMid('1.5', '3400.1', '3400.2'));
    expect(midNotionalText('0', '1', '2')).toBe('0');
    // 21 significant digits in the product: decimal.js rounds it, so the text is left to decimal.js.
    expect(midNotionalText('123456789012', '1234567890.1', '1234567890.1')).toBeNull();
    fc.assert(
      fc.property(plain, plain, plain, (v, o, c) => {
        const text = midNotionalText(v, o, c);
        if (text !== null) return text === decimalMid(v, o, c);
        // No answer: the exact product has more than 20 significant digits somewhere on the way.
        const P = Decimal.clone({ precision: 200 });
        const sum = new P(o).plus(c);
        return [sum, sum.div(2), new P(v).mul(sum.div(2))].some((x) => x.sd() > 20);
      }),
      { numRuns: 3_000, seed: 38 },
    );
  });

  it('refuses to answer for text it does not read (a sign, an exponent)', () => {
    expect(midNotionalText('-1', '2', '3')).toBeNull();
    expect(midNotionalText('1e3', '2', '3')).toBeNull();
  });
});

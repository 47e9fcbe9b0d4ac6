/**
 * The state file's columns of compact bars (barColumns.ts): every column of whole numbers comes back as it
 * went in, in whichever form it was written; damaged or edited bytes are refused, saying what is wrong,
 * never read as other numbers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeColumn, encodeColumn, type BarColumn } from '../../../src/sim/venue/barColumns.js';

const wholeColumn = fc.array(fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.maxSafeNat()), { minLength: 1, maxLength: 300 });

describe('bar columns', () => {
  it('round-trips any column of whole numbers, and reads how many it holds', () => {
    fc.assert(
      fc.property(wholeColumn, (values) => {
        const column = encodeColumn(Float64Array.from(values));
        expect(decodeColumn(column, null, 0).length).toBe(values.length);
        expect(Array.from(decodeColumn(column, values.length, 0))).toEqual(values);
      }),
      { numRuns: 500, seed: 41 },
    );
  });

  it('writes neighbours one or two bytes apart as varints, and steps too large for them as doubles', () => {
    const prices = Float64Array.from({ length: 4_000 }, (_, i) => 34_000 + ((i * 7) % 50));
    const column = encodeColumn(prices);
    expect('zz' in column).toBe(true);
    expect(Buffer.from((column as { zz: string }).zz, 'base64').length).toBeLessThan(4_000 * 2 + 4);
    const wide = encodeColumn(Float64Array.from([0, 2 ** 53 - 1, 0]));
    expect('f64' in wide).toBe(true);
    expect(Array.from(decodeColumn(wide, 3, 0))).toEqual([0, 2 ** 53 - 1, 0]);
  });

  it('refuses a damaged column: not base64, too few or too many values, a varint cut short or too long, a value not whole or below the least', () => {
    const ok = encodeColumn(Float64Array.from([5, 6, 7]));
    const bytes = (b: number[]): BarColumn => ({ zz: Buffer.from(b).toString('base64') });
    const doubles = (v: number[]): BarColumn => {
      const b = Buffer.alloc(v.length * 8);
      v.forEach((x, i) => b.writeDoubleLE(x, i * 8));
      return { f64: b.toString('base64') };
    };
    expect(() => decodeColumn({ zz: 'not base64!' }, 3, 0)).toThrow(/not base64/);
    expect(() => decodeColumn(ok, 4, 0)).toThrow(/holds 3 values for 4 bars/);
    expect(() => decodeColumn(ok, 2, 0)).toThrow(/more than 2 values/);
    expect(() => decodeColumn(bytes([10, 0x80]), 2, 0)).toThrow(/holds 1 values for 2 bars/);
    expect(() => decodeColumn(bytes([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), 1, 0)).toThrow(/varint of at most 8 bytes/);
    expect(() => decodeColumn(doubles([1, 2.5]), 2, 0)).toThrow(/value 1 \(2.5\) is not a whole number/);
    expect(() => decodeColumn(doubles([1, Number.NaN]), 2, 0)).toThrow(/value 1 \(NaN\)/);
    expect(() => decodeColumn(encodeColumn(Float64Array.from([3, 0])), 2, 1)).toThrow(/value 1 \(0\) is not a whole number of at least 1/);
    expect(() => decodeColumn({ i32: Buffer.alloc(6).toString('base64') }, 2, 0)).toThrow(/holds 6 bytes, not whole 4-byte values/);
    expect(() => decodeColumn({ f64: Buffer.alloc(12).toString('base64') }, null, 0)).toThrow(/not whole 8-byte values/);
    // Base64 that Buffer would read past without a word: a character outside the alphabet, padding inside.
    expect(() => decodeColumn({ zz: `${(ok as { zz: string }).zz}*` }, 3, 0)).toThrow(/not base64/);
    expect(() => decodeColumn({ zz: 'AA==AA==' }, 2, 0)).toThrow(/not base64/);
  });
});

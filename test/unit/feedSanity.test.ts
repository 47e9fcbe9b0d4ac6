/**
 * The rules every followed value passes (src/shared/feed/priceSanity.ts) and the plausibility band
 * (src/shared/feed/bandGate.ts), issue 26: positive, on the market's scale, books in order and not
 * crossed; a move beyond the band is held, confirmed by an agreeing value, discarded by one back near the
 * accepted value; a one-off spike is never accepted, a lasting move always is after one more update.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/index.js';
import { BandGate, checkBandFraction, parseBandPercent, withinBand } from '../../src/shared/feed/bandGate.js';
import { bookCentre, bookProblem, priceProblem, rateProblem, sizeProblem } from '../../src/shared/feed/priceSanity.js';

const lv = (px: string, sz = '1') => ({ px, sz });
/** A price on a 0.01 tick between 1 and 10^6. */
const price = fc.integer({ min: 100, max: 100_000_000 }).map((n) => new Decimal(n).div(100).toFixed());

describe('upstream price rules', () => {
  it('refuses non-positive, below-one-tick, above-10^12-tick and non-decimal prices, and accepts the rest', () => {
    expect(priceProblem('97000', '1')).toBeNull();
    expect(priceProblem('0', '1')).toContain('not positive');
    expect(priceProblem('-5', '1')).toContain('not positive');
    expect(priceProblem('0.000001', '1')).toContain('below one tick');
    expect(priceProblem('0.' + '0'.repeat(60) + '1', '0.000001')).toContain('below one tick');
    const huge = priceProblem('1' + '0'.repeat(308), '1')!;
    expect(huge).toContain('above 10^12 ticks');
    // A 309-digit value is described by its length, never printed whole.
    expect(huge.length).toBeLessThan(100);
    expect(priceProblem('97000.' + '0'.repeat(30) + '1', '1')).toContain('more than 18 decimal places');
    expect(priceProblem('97000.' + '0'.repeat(17) + '1', '1')).toBeNull();
    expect(priceProblem('1e5', '1')).toContain('not a decimal string');
    expect(priceProblem('Infinity', '1')).toContain('not a decimal string');
    expect(priceProblem(97000, '1')).toContain('not a decimal string');
    fc.assert(fc.property(price, (px) => priceProblem(px, '0.01') === null));
  });

  it('refuses sizes that are not positive or absurd, rates of 100% or more', () => {
    expect(sizeProblem('0.5')).toBeNull();
    expect(sizeProblem('0')).toContain('not positive');
    expect(sizeProblem('-1')).toContain('not positive');
    expect(sizeProblem('1' + '0'.repeat(13))).toContain('above 10^12');
    expect(sizeProblem('0.' + '0'.repeat(30) + '1')).toContain('more than 18 decimal places');
    expect(rateProblem('-0.0000125', 'funding')).toBeNull();
    expect(rateProblem('1', 'funding')).toContain('not a plausible rate');
  });

  it('refuses a crossed book, levels out of order and bad levels; accepts any ordered, uncrossed book', () => {
    expect(bookProblem([lv('96999')], [lv('97001')], '1')).toBeNull();
    expect(bookProblem([], [], '1')).toBeNull();
    expect(bookProblem([lv('97100')], [lv('50000')], '1')).toContain('crossed');
    expect(bookProblem([lv('97000')], [lv('97000')], '1')).toContain('crossed');
    expect(bookProblem([lv('96000'), lv('96999')], [], '1')).toContain('bids are not in order');
    expect(bookProblem([], [lv('97002'), lv('97001')], '1')).toContain('asks are not in order');
    expect(bookProblem([lv('96999', '0')], [], '1')).toContain('not positive');
    fc.assert(
      fc.property(fc.uniqueArray(price, { minLength: 2, maxLength: 12 }), (prices) => {
        const sorted = [...prices].sort((a, b) => new Decimal(a).cmp(b));
        const split = Math.floor(sorted.length / 2);
        const bids = sorted.slice(0, split).reverse().map((px) => lv(px));
        const asks = sorted.slice(split).map((px) => lv(px));
        expect(bookProblem(bids, asks, '0.01')).toBeNull();
        // The same book with its sides swapped is crossed or out of order, never accepted.
        expect(bookProblem(asks, bids, '0.01')).not.toBeNull();
      }),
    );
    expect(bookCentre([lv('96999')], [lv('97001')])!.toFixed()).toBe('97000');
    expect(bookCentre([], [lv('97001')])!.toFixed()).toBe('97001');
    expect(bookCentre([], [])).toBeNull();
  });
});

describe('the plausibility band', () => {
  it('parses a percentage above 0 and below 100, and refuses anything else', () => {
    expect(parseBandPercent('10%')).toBe('0.1');
    expect(parseBandPercent('2.5%')).toBe('0.025');
    for (const bad of ['0%', '100%', '150%', '10', '-5%', 'ten%', '1e1%', '']) expect(() => parseBandPercent(bad)).toThrow('the band must');
    expect(checkBandFraction('0.1')).toBe('0.1');
    for (const bad of ['0', '1', '1.5', '-0.1', '10%']) expect(() => checkBandFraction(bad)).toThrow('the band must');
  });

  it('holds a move beyond the band, confirms it with an agreeing value, discards it with one back near the accepted value', () => {
    const gate = new BandGate('0.1');
    expect(gate.offer(new Decimal(60000), 1)).toEqual({ kind: 'accept' });
    expect(gate.offer(new Decimal(65000), 2)).toEqual({ kind: 'accept' });
    expect(gate.offer(new Decimal(6_500_000), 3)).toMatchObject({ kind: 'hold', since: 3, moveFraction: '99' });
    expect(gate.accepted!.toFixed()).toBe('65000');
    expect(gate.offer(new Decimal(65100), 4)).toEqual({ kind: 'discard', spike: '6500000' });
    expect(gate.held).toBeNull();
    expect(gate.offer(new Decimal(80000), 5)).toMatchObject({ kind: 'hold', since: 5 });
    // Another far value keeps the hold (and its start) on the newest one.
    expect(gate.offer(new Decimal(200000), 6)).toMatchObject({ kind: 'hold', since: 5 });
    // A feed value that agrees with the hold does not confirm it (issue 36); the info API's does.
    expect(gate.offer(new Decimal(201000), 7)).toMatchObject({ kind: 'hold', since: 5 });
    expect(gate.accepted!.toFixed()).toBe('65100');
    expect(gate.offer(new Decimal(201000), 8, true)).toEqual({ kind: 'confirm', heldSince: 5 });
    expect(gate.accepted!.toFixed()).toBe('201000');
  });

  it('never accepts a one-off spike; follows a lasting move once the info API agrees', () => {
    fc.assert(
      fc.property(price, fc.integer({ min: 12, max: 100_000 }), fc.boolean(), (base, factorPct, up) => {
        const band = new Decimal('0.1');
        const from = new Decimal(base);
        const far = up ? from.mul(factorPct).div(10) : from.div(factorPct).mul(10);
        fc.pre(!withinBand(from, far, band));
        const gate = new BandGate('0.1');
        gate.offer(from, 0);
        // Spike then back: the spike never becomes the accepted value.
        expect(gate.offer(far, 1).kind).toBe('hold');
        expect(gate.accepted!.eq(from)).toBe(true);
        expect(gate.offer(from, 2).kind).toBe('discard');
        expect(gate.accepted!.eq(from)).toBe(true);
        // A lasting move: accepted when the info API agrees with it.
        expect(gate.offer(far, 3).kind).toBe('hold');
        expect(gate.offer(far, 4, true).kind).toBe('confirm');
        expect(gate.accepted!.eq(far)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('issue 36 item 3: a feed burst of any length never confirms a hold; the info API contradicting it discards it', () => {
    fc.assert(
      fc.property(price, fc.integer({ min: 12, max: 100_000 }), fc.boolean(), fc.constantFrom(1, 2, 3, 10), fc.integer({ min: 1, max: 50 }), (base, factorPct, up, burst, extra) => {
        const from = new Decimal(base);
        const far = up ? from.mul(factorPct).div(10) : from.div(factorPct).mul(10);
        fc.pre(!withinBand(from, far, new Decimal('0.1')));
        const gate = new BandGate('0.1');
        gate.offer(from, 0, true);
        for (let i = 1; i <= burst + extra; i++) {
          expect(gate.offer(far, i).kind).toBe('hold');
          expect(gate.accepted!.eq(from)).toBe(true);
        }
        // The info API still says `from`: the burst is discarded, it never became the accepted value.
        expect(gate.offer(from, 1000, true)).toEqual({ kind: 'discard', spike: far.toFixed() });
        expect(gate.accepted!.eq(from)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

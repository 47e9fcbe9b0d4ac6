/**
 * The book as the command line prints it (src/shared/protocol/bookGrouping.ts) follows the app's book
 * (the renderer's features/orderBook/bookModel.ts): the same grouping step and price places for any tick,
 * grouping and reference price, the same running totals and spread.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookRows, groupStep, pricePlaces, spreadOf } from '../../src/renderer/src/features/orderBook/bookModel.js';
import { Decimal } from '../../src/shared/decimal/index.js';
import type { BookView } from '../../src/shared/ipc.js';
import { bookGroupStep, bookPricePlaces, bookSide, bookSpread, type BookSigFigs } from '../../src/shared/protocol/bookGrouping.js';

const decimal = (maxInt: number, places: number) => fc.integer({ min: 1, max: maxInt * 10 ** places }).map((n) => new Decimal(n).div(10 ** places).toFixed());
const grouping = fc.constantFrom<BookSigFigs>(null, 2, 3, 4, 5);
const tick = fc.constantFrom('1', '0.5', '0.1', '0.01', '0.0005', '0.000001', '10');

describe('book grouping, shared with the app', () => {
  it('the same step and price places as the renderer for any tick, grouping and reference', () => {
    fc.assert(
      fc.property(grouping, decimal(200_000, 6), tick, (g, reference, t) => {
        expect(bookGroupStep(g, reference, t)?.toFixed() ?? null).toBe(groupStep(g, reference, t)?.toFixed() ?? null);
        expect(bookPricePlaces(t, g, reference)).toBe(pricePlaces({ tick_size: t }, g, reference));
      }),
      { numRuns: 2000 },
    );
    expect(bookGroupStep(3, '3400', '0.1')!.toFixed()).toBe('10');
    expect(bookGroupStep(2, null, '0.1')).toBeNull();
    expect(bookPricePlaces('0.1', 3, '3400')).toBe(0);
  });

  it('running totals and spread as the app draws them', () => {
    const level = fc.record({ price: decimal(5000, 1), size: decimal(100, 4), orders: fc.integer({ min: 1, max: 9 }) });
    fc.assert(
      fc.property(fc.array(level, { maxLength: 8 }), fc.array(level, { maxLength: 8 }), fc.integer({ min: 1, max: 10 }), (bids, asks, depth) => {
        const book: BookView = { market: 'ETH', n_sig_figs: null, bids, asks, at: 1 };
        const app = bookRows(book, depth, 4, 4);
        expect(bookSide(asks, depth).map((l) => l.total.toFixed(4))).toEqual(app.asks.map((r) => r.totalText.replace(/,/g, '')));
        expect(bookSide(bids, depth).map((l) => l.price)).toEqual(app.bids.map((r) => r.price));
        const s = bookSpread(bids[0]?.price, asks[0]?.price);
        const appSpread = spreadOf(book, 4);
        expect(s === null).toBe(appSpread === null);
        if (s && appSpread) expect(`${s.fraction.mul(100).toFixed(3)}%`).toBe(appSpread.pct.replace(/,/g, ''));
      }),
      { numRuns: 500 },
    );
  });
});

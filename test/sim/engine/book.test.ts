import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { takeFromBook, totalSize, wouldCross } from '../../../src/sim/matching/book.js';

const book = {
  bids: [
    { px: '99', sz: '1' },
    { px: '98', sz: '2' },
    { px: '97', sz: '3' },
  ],
  asks: [
    { px: '101', sz: '1' },
    { px: '102', sz: '2' },
    { px: '103', sz: '3' },
  ],
};

describe('book walking', () => {
  it('never passes the limit on either side', () => {
    const buy = takeFromBook(book, 'BUY', new Decimal('10'), new Decimal('102'));
    expect(buy.map((c) => [c.px.toFixed(), c.sz.toFixed()])).toEqual([
      ['101', '1'],
      ['102', '2'],
    ]);
    const sell = takeFromBook(book, 'SELL', new Decimal('1.5'), new Decimal('90'));
    expect(sell.map((c) => [c.px.toFixed(), c.sz.toFixed()])).toEqual([
      ['99', '1'],
      ['98', '0.5'],
    ]);
    expect(totalSize(sell).toFixed()).toBe('1.5');
    expect(takeFromBook(book, 'BUY', new Decimal('1'), new Decimal('100.99'))).toEqual([]);
  });

  it('knows when a post-only price would take', () => {
    expect(wouldCross(book, 'BUY', new Decimal('101'))).toBe(true);
    expect(wouldCross(book, 'BUY', new Decimal('100'))).toBe(false);
    expect(wouldCross(book, 'SELL', new Decimal('99'))).toBe(true);
    expect(wouldCross(book, 'SELL', new Decimal('100'))).toBe(false);
  });
});

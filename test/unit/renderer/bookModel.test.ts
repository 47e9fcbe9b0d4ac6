/**
 * The order book's rows: running totals summed as decimals, depth bars relative to the deeper side, the
 * spread, grouping steps never finer than the tick, and the later of snapshot and live feed.
 */
import { describe, expect, it } from 'vitest';
import { bookRows, groupStep, latestBook, pricePlaces, spreadOf } from '../../../src/renderer/src/features/orderBook/bookModel.js';
import type { BookView } from '../../../src/shared/ipc.js';

const book: BookView = {
  market: 'ETH',
  n_sig_figs: null,
  bids: [
    { price: '3399.9', size: '0.1', orders: 1 },
    { price: '3399.8', size: '0.2', orders: 2 },
    { price: '3399.5', size: '1.7', orders: 3 },
  ],
  asks: [
    { price: '3400.1', size: '0.3', orders: 1 },
    { price: '3400.4', size: '0.7', orders: 1 },
  ],
  at: 1_000,
};

describe('order book rows', () => {
  it('sums sizes exactly (0.1 + 0.2 is 0.3) and scales depth to the deepest running total', () => {
    const rows = bookRows(book, 10, 1, 2);
    expect(rows.bids.map((r) => r.totalText)).toEqual(['0.10', '0.30', '2.00']);
    expect(rows.asks.map((r) => r.totalText)).toEqual(['0.30', '1.00']);
    expect(rows.bids.map((r) => r.depth)).toEqual([0.05, 0.15, 1]);
    expect(rows.asks.map((r) => r.depth)).toEqual([0.15, 0.5]);
    expect(rows.asks[0]).toMatchObject({ side: 'ask', price: '3400.1' });
  });

  it('shows only the best levels asked for', () => {
    const rows = bookRows(book, 1, 1, 2);
    expect(rows.bids.map((r) => r.price)).toEqual(['3399.9']);
    expect(rows.asks.map((r) => r.price)).toEqual(['3400.1']);
    expect(rows.bids[0]!.depth).toBe(0.333); // 0.1 of the deeper side's 0.3, rounded for a stable bar
  });

  it('spread is best ask minus best bid, as a percentage of the mid; none for an empty or crossed book', () => {
    expect(spreadOf(book, 1)).toEqual({ abs: '0.2', pct: '0.006%' });
    expect(spreadOf({ ...book, asks: [] }, 1)).toBeNull();
    expect(spreadOf({ ...book, asks: [{ price: '3399', size: '1', orders: 1 }] }, 1)).toBeNull();
  });

  it('a grouping step follows the price magnitude and is never finer than the tick', () => {
    expect(groupStep(null, '3400', '0.1')?.toString()).toBe('0.1');
    expect(groupStep(3, '3400', '0.1')?.toString()).toBe('10');
    expect(groupStep(5, '3400', '0.1')?.toString()).toBe('0.1');
    expect(groupStep(5, '0.0123', '0.000001')?.toString()).toBe('0.000001');
    expect(groupStep(2, null, '0.1')).toBeNull();
    expect(pricePlaces({ tick_size: '0.1' }, null, '3400')).toBe(1);
    expect(pricePlaces({ tick_size: '0.1' }, 3, '3400')).toBe(0);
  });

  it('the later of snapshot and live book wins; the live one on a tie', () => {
    const live = { ...book, at: 2_000 };
    expect(latestBook(book, live)).toBe(live);
    expect(latestBook({ ...book, at: 3_000 }, live)?.at).toBe(3_000);
    expect(latestBook(book, { ...book })).not.toBe(book);
    expect(latestBook(undefined, null)).toBeUndefined();
  });
});

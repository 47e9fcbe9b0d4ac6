/**
 * The plain line of each order leg (the review's lead, the command line's --dry-run): side, amount,
 * price with thousands separators and never rounded, the time in force in words, the worst price of a
 * market order, "the whole position" for a size-0 trigger, and leverage only on a leg that posts margin.
 */
import { describe, expect, it } from 'vitest';
import { groupedDecimal } from '../../src/shared/decimal/display.js';
import { describeLeg } from '../../src/shared/orders/describeLeg.js';

const ETH = { symbol: 'ETH', max_leverage: 25 };

describe('describeLeg', () => {
  it('a limit order: side, size, price grouped, time in force and leverage', () => {
    expect(describeLeg({ side: 'BUY', size: '0.5', limit_price: '3328', order_type: 'LIMIT', time_in_force: 'GTC', reduce_only: false, leverage: 1 }, ETH)).toBe('Buy 0.5 ETH at 3,328 limit, GTC, 1x');
    expect(describeLeg({ side: 'SELL', size: '12.25', limit_price: '1234567.8', order_type: 'LIMIT', time_in_force: 'ALO', reduce_only: false, leverage: 3 }, ETH)).toBe('Sell 12.25 ETH at 1,234,567.8 limit, post-only, 3x');
  });

  it('a market order names its worst price (the bound it signs), not a limit', () => {
    expect(describeLeg({ side: 'BUY', size: '1', limit_price: '3416.1', order_type: 'MARKET', time_in_force: 'IOC', reduce_only: false, leverage: 2 }, ETH)).toBe('Buy 1 ETH at market, worst price 3,416.1, 2x');
  });

  it('a reduce-only leg says so and names no leverage (it posts no margin)', () => {
    const line = describeLeg({ side: 'SELL', size: '0.5', limit_price: '3900', order_type: 'LIMIT', time_in_force: 'GTC', reduce_only: true }, ETH);
    expect(line).toBe('Sell 0.5 ETH at 3,900 limit, GTC, reduce-only');
    expect(line).not.toMatch(/leverage|0x/);
  });

  it('a whole-position trigger: the whole position when the mark reaches the level, at market with its worst price', () => {
    expect(
      describeLeg({ side: 'SELL', size: '0', limit_price: '3548.2', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '3566', tpsl: 'TP', is_market: true }, parent_client_order_id: 'pd-1' }, ETH),
    ).toBe('Sell the whole position when the mark reaches 3,566 (take profit), at market, worst price 3,548.2, once the entry fills');
    expect(describeLeg({ side: 'BUY', size: '2', limit_price: '3700', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '3650', tpsl: 'SL', is_market: false } }, ETH)).toBe(
      'Buy 2 ETH when the mark reaches 3,650 (stop loss), at 3,700 limit',
    );
  });

  it('an opening leg without leverage is described as the market maximum (how the service reads 0)', () => {
    expect(describeLeg({ side: 'BUY', size: '1', limit_price: '3000', order_type: 'LIMIT', time_in_force: 'GTC', reduce_only: false }, ETH)).toBe("Buy 1 ETH at 3,000 limit, GTC, the market's maximum leverage (25x)");
  });
});

describe('groupedDecimal', () => {
  it('groups thousands, trims trailing zeros and never rounds', () => {
    expect(groupedDecimal('3328')).toBe('3,328');
    expect(groupedDecimal('0.50')).toBe('0.5');
    expect(groupedDecimal('-1234567.123456789')).toBe('-1,234,567.123456789');
    expect(groupedDecimal('0.000001')).toBe('0.000001');
    expect(groupedDecimal('-0')).toBe('0');
    expect(groupedDecimal('999')).toBe('999');
  });
});

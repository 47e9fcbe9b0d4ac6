/**
 * A bracket's whole-position leg (size 0) closes the position its entry leaves, not the entry alone
 * (issue 35, item 4): adding 0.5 to a 1.0 long with an SL attached, the SL sells 1.5, and the review (and
 * the ticket, which costs with the same function) prices it on 1.5.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/decimal.js';
import { orderCosts, type CostedLeg, type CostedMarket } from '../../src/shared/orders/orderCosts.js';

const ETH: CostedMarket = { symbol: 'ETH', maker_fee_rate: '0.0002', taker_fee_rate: '0.00045', max_leverage: 25, initial_margin_ratio: '0.04' } as CostedMarket;
const markets = new Map([['ETH', ETH]]);
const marks = new Map([['ETH', new Decimal('3400')]]);

function bracket(side: 'BUY' | 'SELL', size: string): CostedLeg[] {
  const exit = side === 'BUY' ? 'SELL' : 'BUY';
  return [
    { market: 'ETH', side, size, limit_price: '3350', order_type: 'LIMIT', time_in_force: 'GTC', reduce_only: false, leverage: 5, client_order_id: 'entry' },
    { market: 'ETH', side: exit, size: '0', limit_price: '3280', order_type: 'TRIGGER', reduce_only: true, client_order_id: 'sl', parent_client_order_id: 'entry' },
  ];
}

describe('a bracket leg of size 0 is costed on the position after the entry', () => {
  it('no position: the entry alone', () => {
    const c = orderCosts(bracket('BUY', '0.5'), markets, marks, []);
    expect(c.legs[1]!.notional.toFixed()).toBe(new Decimal('0.5').mul('3280').toFixed());
  });

  it('adding to a long: the whole 1.5, not the 0.5 entry', () => {
    const c = orderCosts(bracket('BUY', '0.5'), markets, marks, [{ market: 'ETH', size: '1' }]);
    expect(c.legs[1]!.notional.toFixed()).toBe(new Decimal('1.5').mul('3280').toFixed());
    // The entry's own figures are unchanged, and the attached leg still adds nothing to the order's total.
    expect(c.legs[0]!.notional.toFixed()).toBe(new Decimal('0.5').mul('3350').toFixed());
    expect(c.notional.toFixed()).toBe(c.legs[0]!.notional.toFixed());
  });

  it('an entry that flips a short: what is left on the new side', () => {
    const c = orderCosts(bracket('BUY', '1.5'), markets, marks, [{ market: 'ETH', size: '-1' }]);
    expect(c.legs[1]!.notional.toFixed()).toBe(new Decimal('0.5').mul('3280').toFixed());
  });

  it('a standalone whole-position trigger: the open position', () => {
    const c = orderCosts([{ market: 'ETH', side: 'SELL', size: '0', limit_price: '3280', order_type: 'TRIGGER', reduce_only: true, client_order_id: 'x' }], markets, marks, [{ market: 'ETH', size: '2' }]);
    expect(c.legs[0]!.notional.toFixed()).toBe(new Decimal('2').mul('3280').toFixed());
  });
});

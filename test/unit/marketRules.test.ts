/** Orders rule 4 as pure checks: tick, px/sz decimals, min_order_value after rounding, max_notional sentinel. */
import { describe, expect, it } from 'vitest';
import { checkNotional, checkPrice, checkPricePlaces, checkSize, hasNoNotionalCeiling } from '../../src/shared/protocol/index.js';

const market = { symbol: 'BTC', tick_size: '0.5', px_decimals: 1, sz_decimals: 4, min_order_value: '10', max_notional: '1000000' };

describe('market rules', () => {
  it('price_off_tick even within px_decimals; the tick binds harder, so off-tick with too many places is off-tick', () => {
    expect(checkPrice(market, '65000.5')).toBeNull();
    expect(checkPrice(market, '65000.3')).toMatchObject({ rule: 'price_off_tick', field: 'limit_price' });
    expect(checkPrice(market, '65000.25')).toMatchObject({ rule: 'price_off_tick' });
    // On a tick finer than px_decimals allows (a misconfigured market), the places still bind.
    expect(checkPrice({ ...market, tick_size: '0.05' }, '65000.05')).toMatchObject({ rule: 'price_too_precise' });
  });

  it('a trigger price takes no tick rule (the spec puts it on limit_price only), only px_decimals', () => {
    expect(checkPricePlaces(market, '65000.3')).toBeNull();
    expect(checkPricePlaces(market, '65000.25')).toMatchObject({ rule: 'price_too_precise', field: 'trigger_price' });
  });

  it('size decimals', () => {
    expect(checkSize(market, '0.0001')).toBeNull();
    expect(checkSize(market, '0.00001')).toMatchObject({ rule: 'size_too_precise' });
  });

  it('min_order_value on the rounded strings, reduce-only exempt', () => {
    expect(checkNotional(market, '0.0002', '50000', false)).toBeNull();
    expect(checkNotional(market, '0.0001', '50000', false)).toMatchObject({ rule: 'below_min_order_value' });
    expect(checkNotional(market, '0.0001', '50000', true)).toBeNull();
  });

  it("max_notional caps, and '0' means no ceiling", () => {
    expect(checkNotional(market, '100', '65000', false)).toMatchObject({ rule: 'above_max_notional' });
    const open = { ...market, max_notional: '0' };
    expect(hasNoNotionalCeiling(open)).toBe(true);
    expect(checkNotional(open, '100000', '65000', false)).toBeNull();
  });
});

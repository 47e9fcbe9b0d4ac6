/** The OCO ticket's checks (src/shared/algos/ocoLegs.ts): at the field, never rounded, a leg past the mark named by its code. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkOcoLegs } from '../../src/shared/algos/ocoLegs.js';

const ETH = { symbol: 'ETH', tick_size: '0.1', px_decimals: 1, sz_decimals: 4, min_order_value: '10', max_notional: '0' };

describe('checkOcoLegs', () => {
  it('passes a buy below and a sell above the mark on the tick', () => {
    const c = checkOcoLegs({ buy: '3300', sell: '3500.5', size: '0.05' }, ETH, '3400');
    expect(c).toMatchObject({ ok: true, errors: {} });
    expect(c.buyValue?.toFixed()).toBe('165');
    expect(c.sellValue?.toFixed()).toBe('175.025');
  });
  it('refuses bad numbers at their field, never rounding', () => {
    expect(checkOcoLegs({ buy: '', sell: 'abc', size: '1e3' }, ETH, '3400').errors).toEqual({ buy: 'Enter the buy price', sell: expect.stringMatching(/^Not a number/), size: expect.stringMatching(/^Not a number/) });
    expect(checkOcoLegs({ buy: '3300.05', sell: '3500', size: '0.00001' }, ETH, '3400').errors).toEqual({ buy: 'Not on the tick of 0.1: it is not rounded', size: 'At most 4 decimal places' });
    expect(checkOcoLegs({ buy: '0', sell: '-1', size: '0' }, ETH, '3400').ok).toBe(false);
    expect(checkOcoLegs({ buy: '3300', sell: '3500', size: '0.001' }, ETH, '3400').errors.size).toBe('The buy leg would be worth 3.3 USD, below the minimum 10');
  });
  it('names a leg past the mark OCO_LEG_WOULD_FILL at that leg', () => {
    expect(checkOcoLegs({ buy: '3400', sell: '3500', size: '0.05' }, ETH, '3400').errors).toEqual({ buy: expect.stringMatching(/^OCO_LEG_WOULD_FILL: the buy must be below the mark 3,400/) });
    expect(checkOcoLegs({ buy: '3300', sell: '3399.9', size: '0.05' }, ETH, '3400').errors).toEqual({ sell: expect.stringMatching(/^OCO_LEG_WOULD_FILL: the sell must be above the mark 3,400/) });
  });
  it('is ok exactly when the buy is below the mark, the sell above it, both on the tick', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000 }), (b, s, mk) => {
        const [buy, sell, mark] = [b, s, mk].map((n) => (n / 10).toFixed(1));
        const c = checkOcoLegs({ buy: buy!, sell: sell!, size: '100' }, ETH, mark!);
        expect(c.ok).toBe(b < mk && s > mk);
        if (b >= mk) expect(c.errors.buy).toMatch(/^OCO_LEG_WOULD_FILL/);
        if (s <= mk) expect(c.errors.sell).toMatch(/^OCO_LEG_WOULD_FILL/);
      }),
    );
  });
});

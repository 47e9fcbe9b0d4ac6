/**
 * The companion screens' amount helpers: smallest units shown in token units without a float, typed
 * amounts refused beyond the token's decimals, and slippage typed in percent converted exactly (basis
 * points for the bridge, a fraction for the aggregator).
 */
import { describe, expect, it } from 'vitest';
import { amountProblem, fmtBps, fmtUnits, fromUnits, percentToBps, percentToFraction } from '../../../src/renderer/src/lib/units.js';

describe('token units', () => {
  it('shows smallest units in token units, exactly, and raw when the decimals are unknown', () => {
    expect(fmtUnits('1500000', 6, 'USDC')).toBe('1.5 USDC');
    expect(fmtUnits('249888333333333333', 18, 'ETH')).toBe('0.24988833 ETH');
    expect(fmtUnits('249888333333333333', 18, null, 18)).toBe('0.249888333333333333');
    expect(fmtUnits('123456789012345678901234567890', 18)).toBe('123,456,789,012.3456789');
    expect(fmtUnits('1500000', null)).toBe('1,500,000 units');
    expect(fmtUnits(null, 6)).toBe('—');
    expect(fromUnits('1', 36)?.toFixed()).toBe('0.' + '0'.repeat(35) + '1');
    expect(fromUnits('-1', 6)).toBeNull();
  });

  it('refuses typed amounts that are not positive or are finer than the token', () => {
    expect(amountProblem('', 18)).toBeUndefined();
    expect(amountProblem('0.25', 18)).toBeUndefined();
    expect(amountProblem('.5', 6)).toMatch(/Not a number/);
    expect(amountProblem('5 ', 6)).toMatch(/Not a number/);
    expect(amountProblem('0', 18)).toMatch(/more than 0/);
    expect(amountProblem('-1', 18)).toMatch(/Not a number/);
    expect(amountProblem('1e3', 18)).toMatch(/Not a number/);
    expect(amountProblem('0.1234567', 6)).toMatch(/6 decimals/);
    expect(amountProblem('0.1234567', null)).toBeUndefined();
  });
});

describe('slippage', () => {
  it('percent to integer basis points (100 = 1%), within the maximum', () => {
    expect(percentToBps('1', 5000)).toEqual({ bps: 100 });
    expect(percentToBps('0.5', 5000)).toEqual({ bps: 50 });
    expect(percentToBps('0.01', 5000)).toEqual({ bps: 1 });
    expect(percentToBps('0.005', 5000)).toHaveProperty('error');
    expect(percentToBps('51', 5000)).toHaveProperty('error');
    expect(percentToBps('abc', 5000)).toHaveProperty('error');
    expect(fmtBps(50)).toBe('0.5%');
  });

  it('percent to the aggregator fraction', () => {
    expect(percentToFraction('0.5', '0.5')).toEqual({ fraction: '0.005' });
    expect(percentToFraction('1', '0.5')).toEqual({ fraction: '0.01' });
    expect(percentToFraction('0', '0.5')).toHaveProperty('error');
    expect(percentToFraction('60', '0.5')).toHaveProperty('error');
  });
});

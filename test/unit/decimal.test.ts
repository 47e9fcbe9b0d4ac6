/** Decimal strings: canonical spelling, tick and decimals checks, and USDC base units without silent rounding. */
import { describe, expect, it } from 'vitest';
import {
  DecimalError,
  baseUnitsToUsdc,
  canonical,
  decimalPlaces,
  isCanonicalDecimal,
  isDecimalString,
  isMultipleOf,
  parseDecimal,
  roundToPlaces,
  roundToStep,
  usdcToBaseUnits,
} from '../../src/shared/decimal/index.js';

describe('canonical decimals', () => {
  it.each([
    ['0.50', '0.5'],
    ['65000.000', '65000'],
    ['-0', '0'],
    ['-0.000', '0'],
    ['0.00000001', '0.00000001'],
    ['123456789012345678901234567890.123456789', '123456789012345678901234567890.123456789'],
    ['-12.340', '-12.34'],
  ])('%s -> %s', (input, out) => {
    expect(canonical(input)).toBe(out);
  });

  it('never produces an exponent, even for tiny and huge values', () => {
    expect(canonical(parseDecimal('0.0000000000000000001'))).toBe('0.0000000000000000001');
    expect(canonical(parseDecimal('1000000000000000000000000'))).toBe('1000000000000000000000000');
  });

  it.each(['5e-1', '+1', '1,5', '', ' ', 'NaN', 'Infinity', '0x10', '1.2.3', '--1', '.5', '5.', '007.10', ' 1', '1 '])('refuses %j with an error naming the field', (bad) => {
    expect(() => parseDecimal(bad, 'limit_price')).toThrow(DecimalError);
    expect(() => parseDecimal(bad, 'limit_price')).toThrow(/^limit_price: /);
  });

  it('refuses JS numbers: prices never travel as floats', () => {
    expect(() => parseDecimal(0.1 as unknown as string, 'size')).toThrow(/size: expected a decimal string/);
  });

  it('tells canonical wire strings apart', () => {
    expect(isCanonicalDecimal('0.5')).toBe(true);
    expect(isCanonicalDecimal('0.50')).toBe(false);
    expect(isCanonicalDecimal('05')).toBe(false);
    expect(isCanonicalDecimal('-0')).toBe(false);
    expect(isDecimalString('0.50')).toBe(true);
    expect(isDecimalString('.5')).toBe(false);
  });
});

describe('tick, decimals and rounding', () => {
  it('checks tick multiples exactly (no float error)', () => {
    expect(isMultipleOf('65000.5', '0.5')).toBe(true);
    expect(isMultipleOf('65000.3', '0.5')).toBe(false);
    expect(isMultipleOf('0.3', '0.1')).toBe(true);
    expect(isMultipleOf('0.000123', '0.000001')).toBe(true);
    expect(() => isMultipleOf('1', '0')).toThrow(/positive/);
  });

  it('counts decimal places of the canonical form', () => {
    expect(decimalPlaces('0.010')).toBe(2);
    expect(decimalPlaces('100')).toBe(0);
  });

  it('rounds to a step and to places in each direction', () => {
    expect(canonical(roundToStep('65000.37', '0.5', 'down'))).toBe('65000');
    expect(canonical(roundToStep('65000.37', '0.5', 'up'))).toBe('65000.5');
    expect(canonical(roundToStep('65000.24', '0.5', 'nearest'))).toBe('65000');
    expect(canonical(roundToPlaces('1.23456', 3, 'down'))).toBe('1.234');
    expect(canonical(roundToPlaces('1.2345', 3, 'nearest'))).toBe('1.235');
  });
});

describe('USDC base units (Withdraw.amount)', () => {
  it('converts whole USDC to 6-decimal base units', () => {
    expect(usdcToBaseUnits('25')).toBe(25_000_000n);
    expect(usdcToBaseUnits('0.000001')).toBe(1n);
    expect(usdcToBaseUnits('1234567.89')).toBe(1_234_567_890_000n);
    expect(usdcToBaseUnits('10000000000000')).toBe(10_000_000_000_000_000_000n);
  });

  it('refuses more than 6 decimals instead of rounding, and negatives', () => {
    expect(() => usdcToBaseUnits('1.0000001')).toThrow(/6 decimals/);
    expect(() => usdcToBaseUnits('-1')).toThrow(/negative/);
  });

  it('round-trips', () => {
    expect(baseUnitsToUsdc(25_000_000n)).toBe('25');
    expect(baseUnitsToUsdc(1n)).toBe('0.000001');
  });
});

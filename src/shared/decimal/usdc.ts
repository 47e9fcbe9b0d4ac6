/**
 * USDC base units for the one signed amount that is not a string: Withdraw.amount is uint256 with
 * 6 decimals (a body amount of '25' signs as 25000000). Extra precision is refused, never rounded away,
 * because the signed amount and the sent amount must describe the same money.
 */
import { Decimal, DecimalError, canonical, parseDecimal } from './decimal.js';

export const USDC_DECIMALS = 6;

/** Whole-USDC decimal string -> base units. Negative, or more than 6 places, is an error. */
export function usdcToBaseUnits(amount: string, field = 'amount'): bigint {
  const d = parseDecimal(amount, field);
  if (d.isNegative()) throw new DecimalError('must not be negative', field);
  if (d.decimalPlaces() > USDC_DECIMALS) {
    throw new DecimalError(`USDC has ${USDC_DECIMALS} decimals; '${amount}' has ${d.decimalPlaces()} (no silent rounding)`, field);
  }
  return BigInt(d.mul(new Decimal(10).pow(USDC_DECIMALS)).toFixed(0));
}

/** Base units -> canonical whole-USDC decimal string. */
export function baseUnitsToUsdc(units: bigint): string {
  return canonical(new Decimal(units.toString()).div(new Decimal(10).pow(USDC_DECIMALS)));
}

/**
 * Decimal helpers for the engine. Money (balances, margin, fees, PnL, funding) is kept to USDC's 6
 * places; derived prices (average entry, average fill, liquidation price) to 8 places. Every value
 * leaves the engine in canonical form (no trailing zeros, no exponent).
 */
import { Decimal, canonical, parseDecimal } from '../../shared/decimal/index.js';

export const ZERO = new Decimal(0);
export const MONEY_PLACES = 6;
export const PRICE_PLACES = 8;

export function d(value: string | Decimal): Decimal {
  return typeof value === 'string' ? parseDecimal(value) : value;
}

/** Money rounded half-up to 6 places, canonical. */
export function money(value: Decimal): string {
  return canonical(value.toDecimalPlaces(MONEY_PLACES, Decimal.ROUND_HALF_UP));
}

/** Money rounded up (amounts the account must post or pay never round in its favour). */
export function moneyUp(value: Decimal): string {
  return canonical(value.toDecimalPlaces(MONEY_PLACES, Decimal.ROUND_UP));
}

export function price8(value: Decimal): string {
  return canonical(value.toDecimalPlaces(PRICE_PLACES, Decimal.ROUND_HALF_UP));
}

export function str(value: Decimal): string {
  return canonical(value);
}

export { Decimal, canonical, parseDecimal };

/**
 * Amount arithmetic for the companion services: smallest-unit integers as bigint, USD values and
 * prices as Decimal. Nothing monetary goes through a JS float.
 */
import Decimal from 'decimal.js';
import { DECIMAL_TEXT } from '../../../shared/decimal/decimal.js';

/** A Decimal with enough precision for 36-decimal tokens and no exponent notation in toString(). */
export const Dec = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_DOWN, toExpNeg: -120, toExpPos: 120 });
export type Dec = InstanceType<typeof Dec>;

const UINT = /^(0|[1-9]\d*)$/;

/** True for a canonical non-negative integer string (no sign, exponent, leading zeros or hex). */
export function isUintString(s: string): boolean {
  return UINT.test(s);
}

/** True for a canonical non-negative decimal string (no sign or exponent). */
export function isDecimalString(s: string): boolean {
  return DECIMAL_TEXT.test(s);
}

export function pow10(decimals: number): bigint {
  return 10n ** BigInt(decimals);
}

/** USD value of `amount` smallest units of a token with `decimals` priced at `usdPrice`. */
export function unitsToUsd(amount: bigint, decimals: number, usdPrice: string): Dec {
  return new Dec(amount.toString()).div(new Dec(pow10(decimals).toString())).mul(usdPrice);
}

/** Smallest units of a token worth `usd`, rounded down (a quote never promises more than it can deliver). */
export function usdToUnits(usd: Dec, decimals: number, usdPrice: string): bigint {
  if (usd.lte(0)) return 0n;
  const units = usd.div(usdPrice).mul(new Dec(pow10(decimals).toString()));
  return BigInt(units.toFixed(0, Dec.ROUND_DOWN));
}

/** `amount` reduced by `bps` basis points, rounded down. */
export function minusBps(amount: bigint, bps: bigint): bigint {
  return (amount * (10_000n - bps)) / 10_000n;
}

/** USD shown in responses: two decimals would hide the fees of small transfers, so six. */
export function usdString(v: Dec): string {
  return v.toDecimalPlaces(6, Dec.ROUND_DOWN).toFixed();
}

export function hexQuantity(v: bigint | number): string {
  return '0x' + BigInt(v).toString(16);
}

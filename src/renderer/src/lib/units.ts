/**
 * Token amounts as the companion services count them: integer smallest units (wei) with the token's
 * decimals beside them. Converted only through Decimal, never a float, and shown raw when the decimals
 * are unknown (a wrong guess would misstate an amount by orders of magnitude).
 */
import { Decimal, dec, fmt, isDecimalText, type DecimalValue } from './decimal';

/** Integer smallest units as a token amount ("1500000", 6 -> 1.5); null when not an integer string. */
export function fromUnits(units: string | null | undefined, decimals: number): DecimalValue | null {
  if (units === null || units === undefined || !/^\d+$/.test(units)) return null;
  return new Decimal(units).div(new Decimal(10).pow(decimals));
}

/**
 * "1.5 USDC" with the decimals known, "1500000 units" without them. `places` caps the fraction shown
 * (rounded down: never show more than there is).
 */
export function fmtUnits(units: string | null | undefined, decimals: number | null | undefined, symbol?: string | null, places = 8): string {
  if (units === null || units === undefined) return '—';
  if (decimals === null || decimals === undefined) return `${fmt(units)} units`;
  const d = fromUnits(units, decimals);
  if (!d) return units;
  const shown = d.decimalPlaces() > places ? d.toDecimalPlaces(places, Decimal.ROUND_DOWN) : d;
  return `${fmt(shown)}${symbol ? ` ${symbol}` : ''}`;
}

/** Why typed token-amount text cannot be sent, or undefined when it can. */
export function amountProblem(text: string, decimals: number | null | undefined): string | undefined {
  if (text === '') return undefined;
  if (!isDecimalText(text)) return 'Not a number (digits with one optional “.” between them; no spaces, sign or exponent)';
  const d = dec(text);
  if (!d || d.lte(0)) return 'Must be more than 0';
  if (decimals !== null && decimals !== undefined && d.decimalPlaces() > decimals) return `This token has ${decimals} decimals: at most ${decimals} digits after the “.”`;
  return undefined;
}

/**
 * A slippage typed in percent ("0.5") as integer basis points (50), or the reason it cannot be.
 * 100 bps = 1%.
 */
export function percentToBps(text: string, maxBps: number): { bps: number } | { error: string } {
  if (!isDecimalText(text)) return { error: 'A percentage such as 0.5' };
  const d = dec(text);
  if (!d) return { error: 'A percentage such as 0.5' };
  const bps = d.mul(100);
  if (!bps.isInteger()) return { error: 'At most two decimals (0.01% is the smallest step)' };
  if (bps.gt(maxBps)) return { error: `At most ${fmt(new Decimal(maxBps).div(100))}%` };
  // Basis points are an integer count (not money): a plain number is the contract's type here.
  return { bps: bps.toNumber() };
}

/** Basis points shown as percent (50 -> "0.5%"). */
export function fmtBps(bps: number): string {
  return `${fmt(new Decimal(bps).div(100))}%`;
}

/** A slippage typed in percent as the fraction the aggregator takes ("0.5" -> "0.005"), or the reason it cannot be. */
export function percentToFraction(text: string, maxFraction: string): { fraction: string } | { error: string } {
  if (!isDecimalText(text)) return { error: 'A percentage such as 0.5' };
  const d = dec(text);
  if (!d || d.lte(0)) return { error: 'Must be more than 0%' };
  const f = d.div(100);
  const max = dec(maxFraction);
  if (max && f.gt(max)) return { error: `At most ${fmt(max.mul(100))}%` };
  if (f.gte(1)) return { error: 'Must be below 100%' };
  if (f.decimalPlaces() > 12) return { error: 'Too many decimals' };
  return { fraction: f.toFixed() };
}

/** Points are counts the service computes (JSON numbers, not money): grouped, at most two decimals. */
export function fmtPoints(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n);
}

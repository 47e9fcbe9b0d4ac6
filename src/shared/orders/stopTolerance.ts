/**
 * The stop tolerance: how far past its trigger a fired stop-loss may fill. A stop exists for the day the
 * mark gaps through it, so it cannot be bounded by a market order's slippage (a market's slippage_bps is
 * typically 0.5%: a stop that gaps 0.51% through its level would be cancelled unfilled and leave the
 * position open). The default is the venue's own stop-market tolerance, 10%; the user may set another
 * globally or per market (Settings, `perps config stop-tolerance`), and `--slippage-bps` still overrides
 * one order. Take-profits keep the market's slippage_bps: they fire into a move in the trader's favour.
 *
 * Pure, so the app's ticket and rows show the same worst fill price that main signs.
 */
import { Decimal } from '../decimal/decimal.js';

/** 10%: the venue's stop-market tolerance. */
export const DEFAULT_STOP_TOLERANCE_BPS = 1000;
/** 0.01% to 50%: a stop must be able to fill, and a SELL bound must stay above 0. */
export const MIN_STOP_TOLERANCE_BPS = 1;
export const MAX_STOP_TOLERANCE_BPS = 5000;

export interface StopTolerancePrefs {
  stop_tolerance_bps: number;
  stop_tolerance_by_market: Record<string, number>;
}

/** The tolerance of a stop on `symbol`: its own setting, else the global one. */
export function stopToleranceBpsFor(prefs: Partial<StopTolerancePrefs>, symbol: string): number {
  return prefs.stop_tolerance_by_market?.[symbol] ?? prefs.stop_tolerance_bps ?? DEFAULT_STOP_TOLERANCE_BPS;
}

/** Basis points as the percentage people read: 1000 is "10%", 250 is "2.5%". */
export function bpsAsPercent(bps: number): string {
  return `${new Decimal(bps).div(100).toFixed()}%`;
}

/**
 * A percentage as typed ("10", "7.5", "10%") to whole basis points; anything else (junk, a finer step
 * than 0.01%, out of range) is a message naming what is wrong, never rounded.
 */
export function parseStopTolerancePercent(text: string): { ok: true; bps: number } | { ok: false; message: string } {
  const t = text.trim().replace(/%$/, '');
  if (!/^\d{1,3}(\.\d{1,12})?$/.test(t)) return { ok: false, message: `'${text}' is not a percentage such as 10 or 7.5` };
  const bps = new Decimal(t).mul(100);
  if (!bps.isInteger()) return { ok: false, message: `${t}% is finer than 0.01%; give at most two decimal places` };
  const n = bps.toNumber();
  if (n < MIN_STOP_TOLERANCE_BPS || n > MAX_STOP_TOLERANCE_BPS) {
    return { ok: false, message: `${t}% is outside ${bpsAsPercent(MIN_STOP_TOLERANCE_BPS)} to ${bpsAsPercent(MAX_STOP_TOLERANCE_BPS)}` };
  }
  return { ok: true, bps: n };
}

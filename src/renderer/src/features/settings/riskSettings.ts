/**
 * The risk settings as typed in Settings: the liquidation warning distance (percent of the mark, above 0
 * and at most 100, as the contract's LiquidationWarningPctSchema) and the fat-finger cap (a positive USDC
 * amount, or empty for none). Checked here to say so at the field; main checks again.
 */
import { isDecimalText } from '../../lib/decimal';

/** Percent of the mark, as typed: up to three digits and two decimals ("10", "7.5"). */
const PCT_TEXT = /^\d{1,3}(\.\d{1,2})?$/;

/** The text fields' local checks (main checks again and names the field it refuses). */
export function riskFieldErrors(pct: string, cap: string): { pct?: string; cap?: string } {
  const out: { pct?: string; cap?: string } = {};
  const p = pct.trim();
  if (!PCT_TEXT.test(p) || Number(p) <= 0 || Number(p) > 100) out.pct = 'A percentage above 0 and at most 100 (e.g. 10)';
  // A USDC amount by the one decimal grammar (src/shared), above 0.
  if (cap !== '' && (!isDecimalText(cap) || !/[1-9]/.test(cap))) out.cap = 'A positive USDC amount (e.g. 25000), or empty for no cap';
  return out;
}


/**
 * The liquidation estimate as the screens show it. The figures come from main (PositionView's
 * liquidation_price, the riskWarning event) or from the shared arithmetic (src/shared/protocol/riskMath.ts)
 * that main uses; here they are only rounded for display and worded. Rounding is always on the safe side
 * (toward the mark), so a shortened figure never promises more room than there is.
 */
import type { MarketView, RiskWarning } from '../../../../shared/ipc';
import { liquidationDistance, liquidationForDisplay } from '../../../../shared/protocol/riskMath';
import { dec, fmt, fmtPct, placesOfStep, type DecimalValue } from '../../lib/decimal';

/** The warning distance when the settings have not been read yet (main's default). */
export const DEFAULT_WARNING_PCT = 10;

/** Display places of a market's prices: its tick's. */
export function pricePlaces(market: Pick<MarketView, 'tick_size'> | undefined): number | undefined {
  return market ? placesOfStep(market.tick_size) : undefined;
}

/**
 * The estimate as text, rounded toward the mark to the market's tick places ("2,775.6"), or "—" when
 * there is none (a long whose margin covers its notional has no liquidation price).
 */
export function liquidationText(size: string, liquidation: string | null, market: Pick<MarketView, 'tick_size'> | undefined): string {
  if (liquidation === null) return '—';
  const places = pricePlaces(market);
  if (places === undefined) return fmt(liquidation);
  // Rounded toward the mark first, then shown with the market's places (a trailing zero kept, as prices are).
  return fmt(liquidationForDisplay(size, liquidation, places), { places });
}

/**
 * How far the mark is from the estimate, as a fraction (0.09 = a 9 % move liquidates), from the live mark
 * when one arrived after main's snapshot; null without an estimate or a mark.
 */
export function liveLiquidationDistance(size: string, mark: string | null, liquidation: string | null): DecimalValue | null {
  const m = dec(mark);
  if (liquidation === null || !m || m.lte(0)) return null;
  return liquidationDistance(size, m, liquidation);
}

/** Within the user's warning distance (percent of the mark): the same test main's liquidation watch makes. */
export function isNearLiquidation(distance: DecimalValue | null, warningPct: number): boolean {
  return distance !== null && distance.lte(dec(String(warningPct))!.div(100));
}

/** "9.01%" (two places: the warning's own precision). */
export function distanceText(distance: DecimalValue | string | null): string {
  return fmtPct(distance, 2);
}

/** A warning after its market's name: "long: mark 3,050.0 is 9.01% from the estimated liquidation price 2,775.6". */
export function riskWarningDetail(w: RiskWarning, market: Pick<MarketView, 'tick_size'> | undefined): string {
  const places = pricePlaces(market);
  return `${w.side.toLowerCase()}: mark ${fmt(w.mark, places !== undefined ? { places } : {})} is ${distanceText(w.distance)} from the estimated liquidation price ${liquidationText(w.size, w.liquidation_price, market)}`;
}

/** One warning in words: "ETH long: mark 3,050.0 is 9.01% from the estimated liquidation price 2,775.6". */
export function riskWarningText(w: RiskWarning, market: Pick<MarketView, 'tick_size'> | undefined): string {
  return `${w.market} ${riskWarningDetail(w, market)}`;
}

/**
 * Points arithmetic. The spec fixes the shape ({ point, partnerBonus }, JSON numbers) but not the formula,
 * so the simulator uses a deterministic one (sim choice):
 *   point        = min(src_usd, dst_usd) x pointsPerUsd x (crossChainMultiplier when the chains differ), 2 dp down
 *   partnerBonus = point x partner.bonusBps / 10000 for a known partner code, else 0, 2 dp down
 * Using the smaller side means fees and slippage never earn points.
 */
import type { CompanionConfig } from '../config.js';
import type { Catalog } from '../common/catalog.js';
import { Dec } from '../common/amounts.js';

export interface PointsInput {
  srcChain: string;
  dstChain: string;
  srcUsd: Dec;
  dstUsd: Dec;
  source: string | null;
}

export interface PointsResult {
  point: Dec;
  partnerBonus: Dec;
  /** The partner code that earned the bonus; null when the code is absent or unknown. */
  partnerCode: string | null;
}

export function computePoints(config: CompanionConfig, catalog: Catalog, input: PointsInput): PointsResult {
  const smaller = Dec.min(input.srcUsd, input.dstUsd);
  let point = smaller.mul(config.points.pointsPerUsd);
  if (input.srcChain !== input.dstChain) point = point.mul(config.points.crossChainMultiplier);
  point = point.toDecimalPlaces(2, Dec.ROUND_DOWN);
  const partner = input.source === null ? undefined : catalog.partner(input.source);
  const partnerBonus = partner ? point.mul(partner.bonusBps).div(10_000).toDecimalPlaces(2, Dec.ROUND_DOWN) : new Dec(0);
  return { point, partnerBonus, partnerCode: partner ? partner.code : null };
}

/** Points leave the simulator as JSON numbers (spec: `point: number`); 2 dp values convert exactly enough. */
export function pointsNumber(v: Dec): number {
  return Number(v.toFixed(2));
}

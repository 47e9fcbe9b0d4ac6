/**
 * Points a bridge or swap would earn, asked before it is sent (GET /v1/point/estimate). The USD values of
 * both sides come from the caller: prices are never built into the app. `point` is the base points,
 * `partnerBonus` the extra from the partner code; both JSON numbers as the spec gives them.
 */
import type { PointsClient } from '../../api/companion/pointsClient.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { parseChainId, parsePartnerCode, parseTokenRef, parseUsd, parseWallet } from '../chains/chainIds.js';
import { ValidationError } from '../errors.js';

export interface PointsEstimateInput {
  user: string;
  srcChain: string;
  dstChain: string;
  srcToken: string;
  dstToken: string;
  /** USD value of each side, decimal strings. */
  srcUsd: string;
  dstUsd: string;
  /** Unix seconds; default now. */
  from?: number;
  /** Partner code. */
  source: string;
}

export interface PointsEstimateResult {
  point: number;
  partnerBonus: number;
  source: string;
  from: number;
}

export async function estimatePoints(ctx: { points: PointsClient; now(): number }, input: PointsEstimateInput): Promise<PointsEstimateResult> {
  const srcChain = parseChainId(input.srcChain, 'src_chain');
  const dstChain = parseChainId(input.dstChain, 'dst_chain');
  const from = input.from ?? Math.floor(ctx.now() / 1000);
  if (!Number.isSafeInteger(from) || from < 0) throw new ValidationError(`expected Unix seconds, got ${from}`, { field: 'from' });
  const query = {
    user: parseWallet(input.user, 'user'),
    src_chain: srcChain,
    dst_chain: dstChain,
    src_token: parseTokenRef(input.srcToken, srcChain, 'src_token'),
    dst_token: parseTokenRef(input.dstToken, dstChain, 'dst_token'),
    src_usd: parseUsd(input.srcUsd, 'src_usd'),
    dst_usd: parseUsd(input.dstUsd, 'dst_usd'),
    from,
    source: parsePartnerCode(input.source, 'source'),
  };
  const r = await withCompanionFailures(() => ctx.points.estimate(query));
  return { point: r.point, partnerBonus: r.partnerBonus, source: query.source, from };
}

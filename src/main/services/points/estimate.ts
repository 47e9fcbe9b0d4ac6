/**
 * Points a bridge or swap would earn, asked before it is sent (GET /v1/point/estimate). The USD values of
 * both sides come from the caller: prices are never built into the app. `point` is the base points,
 * `partnerBonus` the extra from the partner code; both JSON numbers as the spec gives them.
 */
import type { PointsClient } from '../../api/companion/pointsClient.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { parseChainId, parsePartnerCode, parseTokenRef, parseUsd, parseWallet } from '../chains/chainIds.js';
import { describeFailure, ValidationError } from '../errors.js';

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

/** The checked query of an estimate; a bad input is a ValidationError before anything is asked. */
export type PointsEstimateQuery = Parameters<PointsClient['estimate']>[0];

export function validatePointsEstimate(ctx: { now(): number }, input: PointsEstimateInput): PointsEstimateQuery {
  const srcChain = parseChainId(input.srcChain, 'src_chain');
  const dstChain = parseChainId(input.dstChain, 'dst_chain');
  const from = input.from ?? Math.floor(ctx.now() / 1000);
  if (!Number.isSafeInteger(from) || from < 0) throw new ValidationError(`expected Unix seconds, got ${from}`, { field: 'from' });
  return {
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
}

export async function requestPointsEstimate(ctx: { points: PointsClient }, query: PointsEstimateQuery): Promise<PointsEstimateResult> {
  const r = await withCompanionFailures(() => ctx.points.estimate(query));
  return { point: r.point, partnerBonus: r.partnerBonus, source: query.source, from: query.from };
}

export async function estimatePoints(ctx: { points: PointsClient; now(): number }, input: PointsEstimateInput): Promise<PointsEstimateResult> {
  return requestPointsEstimate(ctx, validatePointsEstimate(ctx, input));
}

/** An estimate taken while a transfer is being sent: the estimate, or why there is none. */
export interface TransferPoints {
  points: PointsEstimateResult | null;
  /** The points service's failure, for the user to read; the transfer went ahead without the estimate. */
  pointsError: string | null;
}

/**
 * The estimate recorded with a bridge or swap as it is sent. Points are informational: a points service
 * that is down or refuses must not hold the user's funds move hostage (a bridge's requestId is ticking
 * meanwhile), so its failure is returned as `pointsError` and the send goes on. The query itself was
 * validated before anything was sent (validatePointsEstimate), so a bad input still stops everything.
 */
export async function estimatePointsForTransfer(ctx: { points: PointsClient }, query: PointsEstimateQuery): Promise<TransferPoints> {
  try {
    return { points: await requestPointsEstimate(ctx, query), pointsError: null };
  } catch (err) {
    const d = describeFailure(err);
    return { points: null, pointsError: `${d.code}: ${d.message}` };
  }
}

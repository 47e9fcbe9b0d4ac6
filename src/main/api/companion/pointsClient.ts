/**
 * The points API ({platform_url}, no key): GET /v1/point/estimate and GET /v1/point/leaderboard.
 * Points are JSON numbers (spec: `{ point: number, partnerBonus: number }`); times are Unix seconds.
 * Both reads are retried on transport failures and 5xx; error answers are CompanionApiError.
 */
import { PointsEstimateSchema, PointsLeaderboardSchema, type PointsEstimate, type PointsLeaderboard } from '../../../shared/protocol/index.js';
import { CompanionTransport, type CallOptions, type CompanionClientOptions } from './transport.js';

/** Every parameter is required by the spec. */
export interface PointsEstimateQuery {
  user: string;
  src_chain: string;
  dst_chain: string;
  /** Token addresses (native placeholder for gas tokens). */
  src_token: string;
  dst_token: string;
  /** USD value of each side, decimal strings. */
  src_usd: string;
  dst_usd: string;
  /** Unix seconds. */
  from: number;
  /** Partner code. */
  source: string;
}

export interface PointsLeaderboardQuery {
  user: string;
  /** Unix seconds, inclusive range. */
  from: number;
  to: number;
}

export class PointsClient {
  private readonly http: CompanionTransport;

  constructor(options: CompanionClientOptions) {
    this.http = new CompanionTransport('points', options);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  estimate(q: PointsEstimateQuery, opts: CallOptions = {}): Promise<PointsEstimate> {
    return this.http.call('GET', 'GET /v1/point/estimate', '/v1/point/estimate', { ...q }, undefined, PointsEstimateSchema, { ...opts, idempotent: true });
  }

  /** Credited bonus per partner code is at total.pointPartnerBonuses.<code>, next to total.point. */
  leaderboard(q: PointsLeaderboardQuery, opts: CallOptions = {}): Promise<PointsLeaderboard> {
    return this.http.call('GET', 'GET /v1/point/leaderboard', '/v1/point/leaderboard', { ...q }, undefined, PointsLeaderboardSchema, { ...opts, idempotent: true });
  }
}

/**
 * Credited points for a date range (GET /v1/point/leaderboard): the base total and the partner bonuses,
 * read at total.pointPartnerBonuses.<partner_code> next to total.point. Times are Unix seconds; the spec
 * does not show which ranges the service accepts, so the range is checked only for order and sign.
 */
import type { PointsClient } from '../../api/companion/pointsClient.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { parsePartnerCode, parseWallet } from '../chains/chainIds.js';
import { ValidationError } from '../errors.js';

export interface CreditedPointsInput {
  user: string;
  /** Unix seconds, or a Date. */
  from: number | Date;
  to: number | Date;
  /** The partner code whose bonus to single out. */
  partnerCode?: string;
}

export interface CreditedPoints {
  user: string;
  from: number;
  to: number;
  point: number;
  /** Every credited bonus by partner code. */
  partnerBonuses: Record<string, number>;
  partnerCode: string | null;
  /** The bonus credited under partnerCode (0 when none). */
  partnerBonus: number | null;
}

function seconds(value: number | Date, field: string): number {
  const s = value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
  if (!Number.isSafeInteger(s) || s < 0) throw new ValidationError(`expected Unix seconds or a date, got ${String(value)}`, { field });
  return s;
}

/**
 * A time as people type it: Unix seconds, or an ISO date / date-time (a bare date means its start, UTC).
 * Kept here so the CLI and the app read ranges the same way.
 */
export function parseTimeInput(value: string, field: string): number {
  const v = value.trim();
  if (/^\d+$/.test(v)) return seconds(Number(v), field);
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(ms)) throw new ValidationError(`'${value}' is neither Unix seconds nor an ISO date`, { field });
  return seconds(Math.floor(ms / 1000), field);
}

export async function creditedPoints(ctx: { points: PointsClient }, input: CreditedPointsInput): Promise<CreditedPoints> {
  const user = parseWallet(input.user, 'user');
  const from = seconds(input.from, 'from');
  const to = seconds(input.to, 'to');
  if (from > to) throw new ValidationError(`from (${from}) is after to (${to})`, { field: 'from' });
  const partnerCode = input.partnerCode === undefined ? null : parsePartnerCode(input.partnerCode, 'partner');
  const r = await withCompanionFailures(() => ctx.points.leaderboard({ user, from, to }));
  const partnerBonuses = { ...(r.total.pointPartnerBonuses ?? {}) };
  return {
    user,
    from,
    to,
    point: r.total.point,
    partnerBonuses,
    partnerCode,
    partnerBonus: partnerCode === null ? null : (partnerBonuses[partnerCode] ?? 0),
  };
}

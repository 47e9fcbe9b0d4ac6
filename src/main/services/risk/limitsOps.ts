/**
 * The use cases of the risk limits, shared by `perps limits` and Settings › Limits: show them with what is
 * pending, the lockout and the room left; change them (checked as a whole first: nothing is stored when
 * any value is refused); read the change log.
 */
import { z } from 'zod';
import { Decimal } from '../../../shared/decimal/index.js';
import { parseDuration } from '../../../shared/duration/duration.js';
import type { LimitChangeRequest } from '../../../shared/risk/limitChanges.js';
import { LIMIT_NAMES, MAX_COOLDOWN_MS, MIN_COOLDOWN_MS, ResetTimeSchema, RiskLimitsSchema, type LimitLogEntry, type LimitName, type RiskLimits } from '../../../shared/risk/riskLimits.js';
import type { Room } from '../../../shared/risk/riskRules.js';
import { ValidationError } from '../errors.js';
import { walletIds, type TradingContext } from '../orders/orderContext.js';
import { evaluateDay, serviceNow } from './riskCheck.js';
import { riskStoreOf } from './riskStore.js';

/** What `perps limits show --json` prints and Settings › Limits shows. */
export interface LimitsShow {
  wallet: string;
  profile: string;
  limits: RiskLimits;
  reset_time: string;
  cooldown_ms: number | null;
  pending: { limit: string; value: string | null; effective_at: number }[];
  lockout: { until: number; reason: string } | null;
  room: Room[];
  /** The day's figures when a daily-loss or drawdown limit is set. */
  day: { start: number; next_reset: number; pnl: string; drawdown_pct: string; equity: string; peak_equity: string } | null;
  at: number;
}

export async function showLimits(ctx: TradingContext, wallet: string): Promise<LimitsShow> {
  const { wallet: w } = walletIds(wallet);
  const now = await serviceNow(ctx);
  const day = await evaluateDay(ctx, w, { now });
  const r = day.record;
  const f = day.figures;
  return {
    wallet: w,
    profile: ctx.profile.name,
    limits: r.limits,
    reset_time: r.reset_time,
    cooldown_ms: r.cooldown_ms,
    pending: r.pending.map((p) => ({ limit: p.limit, value: p.value, effective_at: p.effective_at })),
    lockout: r.lockout ? { until: r.lockout.until, reason: r.lockout.reason } : null,
    room: day.room,
    day: f ? { start: day.day_start, next_reset: day.next_reset, pnl: f.pnl.toDecimalPlaces(6).toFixed(), drawdown_pct: f.drawdown.toDecimalPlaces(4).toFixed(), equity: f.equity.toFixed(), peak_equity: f.peak.toFixed() } : null,
    at: now,
  };
}

/** A change as people give it: values as text ("none" or null removes), the cool-down as a duration ("24h"). */
export const LimitsChangeInputSchema = z.strictObject({
  wallet: z.string().max(64),
  limits: z.partialRecord(z.enum(LIMIT_NAMES), z.string().max(64).nullable()).optional(),
  market: z.string().min(1).max(32).optional(),
  reset_time: z.string().max(8).optional(),
  cooldown: z.string().max(24).optional(),
  end_lockout: z.boolean().optional(),
});
export type LimitsChangeInput = z.infer<typeof LimitsChangeInputSchema>;

const INTEGER = /^[1-9]\d{0,5}$/;

/** The request checked value by value against the limits' grammar and the live markets; the first problem refuses it all. */
async function toRequest(ctx: TradingContext, input: LimitsChangeInput): Promise<LimitChangeRequest> {
  const req: LimitChangeRequest = {};
  const limits: Partial<Record<LimitName, string | null>> = {};
  const market = input.market !== undefined ? await ctx.config.market(input.market) : undefined;
  for (const [name, raw] of Object.entries(input.limits ?? {}) as [LimitName, string | null][]) {
    const value = raw === null || raw.trim().toLowerCase() === 'none' ? null : raw.trim();
    const field = name.replace(/_/g, '-');
    if (value !== null) {
      if (name === 'max_leverage' || name === 'max_orders_per_minute') {
        if (!INTEGER.test(value)) throw new ValidationError(`expected a whole number of at least 1, or none; got '${value.slice(0, 20)}'`, { field, code: 'INVALID_LIMIT' });
        if (name === 'max_leverage' && market && Number(value) > market.max_leverage) {
          throw new ValidationError(`${value}x is above ${market.symbol}'s own maximum leverage of ${market.max_leverage}x`, { field, code: 'INVALID_LIMIT', hint: `Choose at most ${market.max_leverage} (GET /markets max_leverage).` });
        }
      } else {
        const probe = RiskLimitsSchema.shape[name].safeParse(value);
        if (!probe.success) throw new ValidationError(`${probe.error.issues[0]?.message ?? 'invalid'}; got '${value.slice(0, 20)}' (or none to remove it)`, { field, code: 'INVALID_LIMIT' });
      }
    }
    if (market && name !== 'max_position_notional' && name !== 'max_leverage') {
      throw new ValidationError(`--market applies to max-position-notional and max-leverage only; ${field} is for the whole account`, { field: 'market', code: 'INVALID_LIMIT' });
    }
    limits[name] = value;
  }
  if (Object.keys(limits).length > 0) req.limits = limits;
  if (market) req.market = market.symbol;
  if (input.reset_time !== undefined) {
    const r = ResetTimeSchema.safeParse(input.reset_time);
    if (!r.success) throw new ValidationError(`${r.error.issues[0]?.message}; got '${input.reset_time}'`, { field: 'reset-time', code: 'INVALID_LIMIT' });
    req.reset_time = r.data;
  }
  if (input.cooldown !== undefined) {
    const ms = parseDuration(input.cooldown, 'cooldown');
    if (ms < MIN_COOLDOWN_MS || ms > MAX_COOLDOWN_MS) throw new ValidationError(`must be from 1m to 30d, got ${input.cooldown}`, { field: 'cooldown', code: 'INVALID_LIMIT' });
    req.cooldown_ms = ms;
  }
  if (input.end_lockout === true) req.end_lockout = true;
  if (!req.limits && !req.reset_time && req.cooldown_ms === undefined && !req.end_lockout) throw new ValidationError('nothing to change: name at least one limit, --reset-time or --cooldown', { field: 'limits', code: 'INVALID_LIMIT' });
  return req;
}

/** Applies a change (tightening now, loosening after the cool-down) and returns what is in force and pending. */
export async function setLimits(ctx: TradingContext, input: unknown): Promise<{ show: LimitsShow; log: LimitLogEntry[] }> {
  const parsed = LimitsChangeInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(issue?.message ?? 'not a limits change', { field: issue?.path.map(String).join('.') || 'limits', code: 'INVALID_LIMIT' });
  }
  const { wallet } = walletIds(parsed.data.wallet);
  const req = await toRequest(ctx, parsed.data);
  const now = await serviceNow(ctx);
  const { log } = riskStoreOf(ctx).change(ctx.profile.name, wallet, req, now);
  return { show: await showLimits(ctx, wallet), log };
}

export function limitsLog(ctx: Pick<TradingContext, 'profile'>, wallet?: string): { entries: LimitLogEntry[]; unreadable: number } {
  return riskStoreOf(ctx).readLog({ profile: ctx.profile.name, ...(wallet !== undefined ? { wallet: walletIds(wallet).wallet } : {}) });
}

/** A limit's value in words ("100 USD", "5%", "10x", "none"). */
export function limitText(name: string, value: string | number | null): string {
  if (value === null) return 'none';
  const base = name.replace(/^markets\.[^.]+\./, '');
  if (base === 'cooldown') return `${new Decimal(value).div(3_600_000).toDecimalPlaces(2).toFixed()} h`;
  if (base === 'max_drawdown') return `${value}%`;
  if (base === 'max_leverage') return `${value}x`;
  if (base === 'max_orders_per_minute') return `${value} per minute`;
  if (base === 'reset_time') return `${value} UTC`;
  if (base === 'lockout') return `locked until ${new Date(Number(value)).toISOString()}`;
  return `${value} USD`;
}

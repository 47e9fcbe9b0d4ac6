/**
 * The trader's own risk limits (issue 39): what they are, how they are stored and how they travel over
 * IPC. Kept per profile and wallet by main (src/main/services/risk/riskStore.ts); every limit is optional
 * and a new profile has none.
 *
 * Values are decimal text (USD, percent) or whole numbers (leverage, orders per minute); a market's own
 * limits (max position notional, max leverage) sit under `markets` and bind together with the all-markets
 * one (the tighter wins).
 */
import { z } from 'zod';
import { DECIMAL_TEXT } from '../decimal/decimal.js';

/** Names of the limits, as the command line's flags, the change log and RISK_LIMIT errors say them. */
export const LIMIT_NAMES = ['daily_loss', 'max_drawdown', 'max_position_notional', 'max_total_notional', 'max_order_notional', 'max_leverage', 'max_orders_per_minute'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
/** The limits a market can have of its own. */
export const MARKET_LIMIT_NAMES = ['max_position_notional', 'max_leverage'] as const;
export type MarketLimitName = (typeof MARKET_LIMIT_NAMES)[number];

/** What each limit is, in words (Settings, `perps limits show`, errors). */
export const LIMIT_LABELS: Record<LimitName, { label: string; unit: string }> = {
  daily_loss: { label: 'Daily loss', unit: 'USD' },
  max_drawdown: { label: 'Drawdown from the day’s peak', unit: '%' },
  max_position_notional: { label: 'Position notional per market', unit: 'USD' },
  max_total_notional: { label: 'Total position notional', unit: 'USD' },
  max_order_notional: { label: 'Order notional', unit: 'USD' },
  max_leverage: { label: 'Leverage', unit: 'x' },
  max_orders_per_minute: { label: 'Orders per minute', unit: 'orders' },
};

/** The cool-down a loosening waits when the trader names none with their first limit: 24 hours. */
export const DEFAULT_COOLDOWN_MS = 24 * 60 * 60 * 1000;
/** The day's reset when none is chosen: 00:00 UTC. */
export const DEFAULT_RESET_TIME = '00:00';
/** Bounds of a cool-down: at least a minute (it must be a wait), at most 30 days. */
export const MIN_COOLDOWN_MS = 60_000;
export const MAX_COOLDOWN_MS = 30 * 24 * 60 * 60 * 1000;

const positiveDecimal = z
  .string()
  .max(64)
  .regex(DECIMAL_TEXT, 'expected a decimal such as 100 or 2.5')
  .refine((s) => Number(s) > 0, 'must be above 0');
const percent = positiveDecimal.refine((s) => Number(s) <= 100, 'at most 100 (percent)');
const wholeCount = z.number().int().min(1).max(1_000_000);

export const ResetTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM in UTC, 00:00 to 23:59');

export const MarketLimitsSchema = z.strictObject({
  max_position_notional: positiveDecimal.nullable(),
  max_leverage: wholeCount.nullable(),
});
export type MarketLimits = z.infer<typeof MarketLimitsSchema>;

export const RiskLimitsSchema = z.strictObject({
  daily_loss: positiveDecimal.nullable(),
  max_drawdown: percent.nullable(),
  max_position_notional: positiveDecimal.nullable(),
  max_total_notional: positiveDecimal.nullable(),
  max_order_notional: positiveDecimal.nullable(),
  max_leverage: wholeCount.nullable(),
  max_orders_per_minute: wholeCount.nullable(),
  markets: z.record(z.string().min(1).max(32), MarketLimitsSchema),
});
export type RiskLimits = z.infer<typeof RiskLimitsSchema>;

export const NO_LIMITS: RiskLimits = {
  daily_loss: null,
  max_drawdown: null,
  max_position_notional: null,
  max_total_notional: null,
  max_order_notional: null,
  max_leverage: null,
  max_orders_per_minute: null,
  markets: {},
};

/**
 * What a change names: a limit ("daily_loss"), a market's limit ("markets.BTC.max_leverage"), the day's
 * reset time, the cool-down itself, or the end of a lockout.
 */
export const ChangeKeySchema = z.string().regex(/^(daily_loss|max_drawdown|max_position_notional|max_total_notional|max_order_notional|max_leverage|max_orders_per_minute|reset_time|cooldown|lockout|markets\.[A-Za-z0-9._-]{1,32}\.(max_position_notional|max_leverage))$/, 'not a limit name');

/** A loosening waiting for its cool-down. `value` null: the limit is removed (or the lockout ends). */
export const PendingChangeSchema = z.strictObject({
  limit: ChangeKeySchema,
  value: z.string().max(64).nullable(),
  requested_at: z.number().int().nonnegative(),
  effective_at: z.number().int().nonnegative(),
});
export type PendingChange = z.infer<typeof PendingChangeSchema>;

export const LockoutSchema = z.strictObject({
  /** When the lock began (the service's clock). */
  at: z.number().int().nonnegative(),
  /** The next reset after `at`: opening orders are refused until then. */
  until: z.number().int().nonnegative(),
  /** Which limit broke, with its figures ("daily_loss: PnL since the reset -120 USD, limit 100 USD"). */
  reason: z.string().max(500),
  limit: z.enum(['daily_loss', 'max_drawdown']),
});
export type Lockout = z.infer<typeof LockoutSchema>;

/** One wallet's record: its limits, their settings, what is pending and the day's peak equity. */
export const WalletRiskSchema = z.strictObject({
  profile: z.string().min(1).max(64),
  wallet: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  limits: RiskLimitsSchema,
  reset_time: ResetTimeSchema,
  /** Null until the first limit is set (then the chosen or default cool-down). */
  cooldown_ms: z.number().int().min(MIN_COOLDOWN_MS).max(MAX_COOLDOWN_MS).nullable(),
  pending: z.array(PendingChangeSchema).max(100),
  lockout: LockoutSchema.nullable(),
  /** The day's peak equity as seen by any check of this data folder; day_start is its day's reset. */
  peak: z.strictObject({ day_start: z.number().int().nonnegative(), equity: z.string().max(64).regex(/^-?\d+(\.\d+)?$/) }).nullable(),
  /**
   * Orders this data folder sent in the last minutes (max_orders_per_minute only): the service's
   * order-history hides an order for its persist lag, so a loop of orders faster than that would not be
   * counted from it alone.
   */
  sent: z.array(z.strictObject({ order_id: z.string().max(100), at: z.number().int().nonnegative() })).max(10_000).optional(),
  updated_at: z.number().int().nonnegative(),
});
export type WalletRisk = z.infer<typeof WalletRiskSchema>;

export const RiskFileSchema = z.strictObject({ version: z.literal(1), wallets: z.array(WalletRiskSchema).max(1000) });
export type RiskFile = z.infer<typeof RiskFileSchema>;

/** One line of the change log: when, what, from what to what, and whether it applied or waits. */
export const LimitLogEntrySchema = z.strictObject({
  at: z.number().int().nonnegative(),
  profile: z.string(),
  wallet: z.string(),
  limit: z.string().max(80),
  old: z.string().max(64).nullable(),
  new: z.string().max(64).nullable(),
  /** applied: in force now; pending: waits for effective_at; cancelled: a pending loosening dropped; lockout: a lock began or ended. */
  action: z.enum(['applied', 'pending', 'cancelled', 'lockout', 'unlocked']),
  effective_at: z.number().int().nonnegative().nullable(),
});
export type LimitLogEntry = z.infer<typeof LimitLogEntrySchema>;

export function hasAnyLimit(l: RiskLimits): boolean {
  return LIMIT_NAMES.some((n) => l[n] !== null) || Object.values(l.markets).some((m) => m.max_position_notional !== null || m.max_leverage !== null);
}

/**
 * The IPC shapes of the risk limits and the panic action (issue 39). The renderer never names a wallet:
 * main acts on the session's wallet, and every order still meets the limits in main's prepare step
 * whatever the page sends. index.ts attaches them to the channel and event tables.
 */
import { z } from 'zod';
import { LIMIT_NAMES, RiskLimitsSchema } from '../risk/riskLimits.js';

const unixMs = z.number().int().nonnegative();

export const RoomViewSchema = z.object({
  limit: z.enum(['daily_loss', 'max_drawdown']),
  left: z.string(),
  of: z.string(),
  unit: z.enum(['USD', '%']),
  warning: z.boolean(),
  text: z.string(),
});

/** risk:getLimits / risk:setLimits answer, and the `riskLimits` event: what is in force, pending, locked, and the room left. */
export const LimitsViewSchema = z.object({
  wallet: z.string(),
  limits: RiskLimitsSchema,
  reset_time: z.string(),
  cooldown_ms: z.number().int().nullable(),
  pending: z.array(z.object({ limit: z.string(), value: z.string().nullable(), effective_at: unixMs })),
  lockout: z.object({ until: unixMs, reason: z.string() }).nullable(),
  room: z.array(RoomViewSchema),
  /** Why the figures could not be read (room then empty); null when they were. */
  problem: z.string().nullable(),
  at: unixMs,
});
export type LimitsView = z.infer<typeof LimitsViewSchema>;

/** risk:setLimits: values as text, null (or "none") removes; the cool-down as a duration ("24h"). */
export const LimitsSetRequestSchema = z.strictObject({
  limits: z.partialRecord(z.enum(LIMIT_NAMES), z.string().max(64).nullable()).optional(),
  market: z.string().min(1).max(32).optional(),
  reset_time: z.string().max(8).optional(),
  cooldown: z.string().max(24).optional(),
  end_lockout: z.boolean().optional(),
});
export type LimitsSetRequest = z.infer<typeof LimitsSetRequestSchema>;

/** risk:panic's answer: the report of what was done and what failed. */
export const PanicReportSchema = z.object({
  wallet: z.string(),
  started_at: unixMs,
  finished_at: unixMs.nullable(),
  resumed: z.number().int(),
  stopped_algos: z.array(z.string()),
  cancelled_orders: z.array(z.string()),
  closed: z.array(z.object({ market: z.string(), outcome: z.string() })),
  failures: z.array(z.object({ what: z.string(), code: z.string(), message: z.string() })),
  remaining_orders: z.number().int().nullable(),
  remaining_positions: z.array(z.string()).nullable(),
  lines: z.array(z.string()),
});
export type PanicReport = z.infer<typeof PanicReportSchema>;

/** risk:panic takes an explicit confirmation, so a stray call cannot trigger it. */
export const PanicRequestSchema = z.strictObject({ confirm: z.literal('panic') });

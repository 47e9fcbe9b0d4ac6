/**
 * The IPC shapes of risk and position management (issue 14): what a position view adds (the liquidation
 * estimate, the armed whole-position TP/SL), the account's health figures (account:health) and the
 * liquidation warning stream (riskWarning). positions.ts spreads them into the position view; index.ts
 * attaches them to the channel table and the event table.
 *
 * Every figure here is computed by Perps Desk from the service's reads and the venue's marks
 * (src/shared/protocol/riskMath.ts): the service publishes no liquidation price and has no equity endpoint.
 */
import { z } from 'zod';
import { addressSchema, decimalOut } from '../fieldSchemas.js';

const unixMs = z.number().int().nonnegative();

/** An armed whole-position reduce-only trigger (from position-triggers): the position's TP or SL. */
export const PositionTriggerViewSchema = z.object({
  order_id: z.string(),
  /** The mark threshold that fires it. */
  trigger_price: decimalOut,
  /** The price it fires at (the bound of its market execution). */
  limit_price: decimalOut,
});
export type PositionTriggerView = z.infer<typeof PositionTriggerViewSchema>;

export const ProtectionStateSchema = z.enum(['armed', 'none', 'failed']);
/** A TP/SL that fired and ended without closing the position, as the order history says. */
export const TriggerFailureViewSchema = z.object({
  order_id: z.string(),
  trigger_price: decimalOut.nullable(),
  /** Its worst fill price (the bound it fired with). */
  limit_price: decimalOut,
  /** The service's reason code (no_liquidity_within_limit, ...). */
  reason_code: z.string(),
  /** When it ended (Unix ms). */
  at: unixMs,
});

/**
 * A trailing stop on the position (src/main/services/algos/trailing), as its record in the data folder
 * says: whether a process trails it now (the app or `perps position trail`), its distance, the stop it
 * moves and the best mark it has seen.
 */
export const TrailingViewSchema = z.object({
  /** "1.5%" or a price distance. */
  distance: z.string(),
  activate: decimalOut.nullable(),
  /** The armed stop's trigger price it trails (null: none known). */
  stop: decimalOut.nullable(),
  /** The best mark seen (a long's high, a short's low). */
  high_water: decimalOut.nullable(),
  /** "Trailing 1.5% · SL 3,120.5 · high 3,168". */
  summary: z.string(),
  /** A live process trails it now; false: the last level stays armed until it runs again. */
  running: z.boolean(),
  /** What happened while nothing trailed it, as said at its last start (null: nothing to say). */
  away: z.string().nullable(),
});
export type TrailingView = z.infer<typeof TrailingViewSchema>;

/** What the position view carries beyond the service's Position (spread into PositionViewSchema). */
export const POSITION_RISK_FIELDS = {
  /**
   * ESTIMATED liquidation price from size, entry, isolated margin and the market's
   * maintenance_margin_ratio, 8 places, rounded toward the mark; null when no positive mark liquidates it.
   */
  liquidation_price: decimalOut.nullable(),
  /** (mark - liq) / mark for a long, (liq - mark) / mark for a short: positive on the safe side; null without a mark or an estimate. */
  liquidation_distance: decimalOut.nullable(),
  /** The armed whole-position take-profit, or null. */
  tp: PositionTriggerViewSchema.nullable(),
  /** The armed whole-position stop-loss, or null. */
  sl: PositionTriggerViewSchema.nullable(),
  /** The position's trailing stop (absent or null: none trails it). */
  trailing: TrailingViewSchema.nullable().optional(),
  /** Why closeable is 0 when armed reduce-only triggers hold it ("Close cancels the armed TP/SL first"); null otherwise. */
  closeable_note: z.string().nullable(),
  // Issue 35: whether the stop and the take-profit protect the position (src/shared/orders/stopProtection.ts).
  /** armed, none, or failed: fired and ended unfilled (the mark gapped past its worst price). */
  sl_state: ProtectionStateSchema.optional(),
  tp_state: ProtectionStateSchema.optional(),
  /** Why it failed, for people ("no liquidity within 10%"); null unless failed. */
  sl_reason: z.string().nullable().optional(),
  tp_reason: z.string().nullable().optional(),
  /** The failed trigger (null unless failed). */
  sl_failure: TriggerFailureViewSchema.nullable().optional(),
  tp_failure: TriggerFailureViewSchema.nullable().optional(),
};

/** account:health — the account's figures, computed here (labelled so): the service has no equity endpoint. */
export const AccountHealthViewSchema = z.object({
  wallet: addressSchema,
  account_id: z.string(),
  /** The service's free balance: excludes posted margin, unrealized PnL and funds held by withdrawals in flight. */
  free_balance: decimalOut,
  /** Sum of the positions' isolated margin. */
  posted_margin: decimalOut,
  /** Sum of size x (mark - entry); null when a position has no mark. */
  unrealized_pnl: decimalOut.nullable(),
  /** free balance + posted margin + unrealized PnL (computed). */
  equity: decimalOut.nullable(),
  /** Sum of |size| x mark. */
  open_notional: decimalOut.nullable(),
  /** Sum of |size| x mark x maintenance_margin_ratio. */
  maintenance_margin: decimalOut.nullable(),
  /** maintenance margin / equity, a fraction; null when equity is not positive. */
  margin_ratio: decimalOut.nullable(),
  /** open notional / equity (a multiple); null when equity is not positive. */
  account_leverage: decimalOut.nullable(),
  /** What can be withdrawn now: the free balance. */
  withdrawable: decimalOut,
  /** Markets of positions the venue gave no mark for (the mark-based figures are then null). */
  unpriced_markets: z.array(z.string()),
  /** Always true: these figures are computed by Perps Desk, not reported by the service. */
  computed: z.literal(true),
  /** Says how equity is computed, for the panel and the command line. */
  note: z.string(),
  at: unixMs,
});
export type AccountHealthView = z.infer<typeof AccountHealthViewSchema>;

/** One position whose mark is within the user's distance (settings liquidation_warning_pct) of its estimate. */
export const RiskWarningSchema = z.object({
  position_id: z.string(),
  market: z.string(),
  side: z.enum(['LONG', 'SHORT']),
  size: decimalOut,
  mark: decimalOut,
  liquidation_price: decimalOut,
  /** As liquidation_distance of the position view. */
  distance: decimalOut,
});
export type RiskWarning = z.infer<typeof RiskWarningSchema>;

/**
 * riskWarning event: every position now within the warning distance (empty once none is: the banner
 * clears). Sent with each re-pricing while any is, and once when the last one leaves.
 */
export const RiskWarningEventSchema = z.object({
  warnings: z.array(RiskWarningSchema),
  /** The setting in force, in percent of the mark. */
  threshold_pct: z.number(),
  at: unixMs,
});
export type RiskWarningEvent = z.infer<typeof RiskWarningEventSchema>;

/** The warning distance of the settings: percent of the mark, default 10. */
export const LiquidationWarningPctSchema = z.number().gt(0, 'must be above 0').max(100, 'at most 100 (percent of the mark)');

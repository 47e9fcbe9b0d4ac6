/**
 * An alert as every process sees it (the app's store and IPC, the `perps alert` commands, the renderer's
 * panel and chart lines): what it watches, on which market, one-shot or repeating, with a note.
 *
 * Kinds and the value each one watches:
 *  - price_above / price_below: the venue's mark price crosses `level`;
 *  - move: the mark moves more than `pct` percent (either way) within `window_ms`;
 *  - funding_above / funding_below: the venue's hourly funding rate, a raw fraction as the venue and the
 *    service state it (0.0001 is 0.01 % an hour), crosses `level`;
 *  - pnl_above / pnl_below: the unrealized PnL (USDC) of the wallet's position in the market crosses `level`;
 *  - liq_distance_below: the distance from the mark to the position's liquidation estimate, in percent of
 *    the mark, falls below `level` (the liquidation warning, as an alert the user tunes).
 */
import { z } from 'zod';
import { addressSchema, decimalOut, marketSymbol } from '../fieldSchemas.js';

export const THRESHOLD_ALERT_KINDS = ['price_above', 'price_below', 'funding_above', 'funding_below', 'pnl_above', 'pnl_below', 'liq_distance_below'] as const;
export type ThresholdAlertKind = (typeof THRESHOLD_ALERT_KINDS)[number];
export const ALERT_KINDS = [...THRESHOLD_ALERT_KINDS, 'move'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Kinds that watch a wallet's position (they carry the wallet). */
export const POSITION_ALERT_KINDS: readonly AlertKind[] = ['pnl_above', 'pnl_below', 'liq_distance_below'];

/** Longest note kept with an alert: a reminder, not a document. */
export const MAX_ALERT_NOTE_LENGTH = 200;
/** The longest window of a move alert: a day of marks is what a desk keeps in memory per alert. */
export const MAX_MOVE_WINDOW_MS = 24 * 60 * 60 * 1000;
export const MIN_MOVE_WINDOW_MS = 1_000;

const note = z.string().max(MAX_ALERT_NOTE_LENGTH);

export const ThresholdRuleSchema = z.object({ kind: z.enum(THRESHOLD_ALERT_KINDS), level: decimalOut });
export const MoveRuleSchema = z.object({ kind: z.literal('move'), pct: decimalOut, window_ms: z.number().int().min(MIN_MOVE_WINDOW_MS).max(MAX_MOVE_WINDOW_MS) });
export const AlertRuleSchema = z.union([ThresholdRuleSchema, MoveRuleSchema]);
export type ThresholdRule = z.infer<typeof ThresholdRuleSchema>;
export type MoveRule = z.infer<typeof MoveRuleSchema>;
export type AlertRule = z.infer<typeof AlertRuleSchema>;

/** What a person asks for (validated by alertInput.ts before it is stored). */
export const AlertSpecSchema = z.object({
  market: marketSymbol,
  rule: AlertRuleSchema,
  repeat: z.boolean(),
  note,
  /** The wallet whose position a pnl / liq_distance alert watches; null for market alerts. */
  wallet: addressSchema.nullable(),
});
export type AlertSpec = z.infer<typeof AlertSpecSchema>;

/** An alert as stored and shown: the spec plus its life so far. */
export const AlertViewSchema = AlertSpecSchema.extend({
  id: z.string().regex(/^[0-9a-f]{12}$/),
  created_at: z.number().int().nonnegative(),
  /** active: watching; done: a one-shot that fired. */
  status: z.enum(['active', 'done']),
  /**
   * Crossing state of a threshold alert: true when the value was last seen on the near side (a crossing
   * fires), false once it fired or was first seen already past the level (it must come back first),
   * null before anything was seen. Move alerts keep their window in memory: always null.
   */
  armed: z.boolean().nullable(),
  fired_count: z.number().int().nonnegative(),
  last_fired_at: z.number().int().nonnegative().nullable(),
  last_fired_value: decimalOut.nullable(),
});
export type AlertView = z.infer<typeof AlertViewSchema>;

/** A firing as logged, toasted and notified. */
/**
 * Firings no rule makes: the desk's own, from what the service says (issue 35: a stop that fired and was
 * cancelled unfilled). Logged and announced like an alert's, assertively; never a kind a user adds.
 */
export const DESK_FIRING_KINDS = ['stop_failed'] as const;

export const AlertFiringSchema = z.object({
  at: z.number().int().nonnegative(),
  /** The profile whose alert fired (sim and mainnet share the data folder and its log). */
  profile: z.string(),
  id: z.string(),
  market: marketSymbol,
  kind: z.enum([...ALERT_KINDS, ...DESK_FIRING_KINDS]),
  /** The value that fired it (mark, funding rate, PnL, distance in %, or the move in %). */
  value: decimalOut,
  title: z.string(),
  message: z.string(),
  note,
  /** true when the alert is done (a one-shot). */
  done: z.boolean(),
});
export type AlertFiring = z.infer<typeof AlertFiringSchema>;

/** Price alerts are the ones drawn on the chart (and dragged there). */
export function isPriceAlert(a: { rule: AlertRule }): a is { rule: ThresholdRule & { kind: 'price_above' | 'price_below' } } {
  return a.rule.kind === 'price_above' || a.rule.kind === 'price_below';
}

/** Settings, notification preferences and the offline signer's identity: channels settings:* and notifications:*. */
import { z } from 'zod';
import { decimalIn, marketSymbol } from '../fieldSchemas.js';
import { MAX_STOP_TOLERANCE_BPS, MIN_STOP_TOLERANCE_BPS } from '../orders/stopTolerance.js';
import { PALETTES } from '../palette.js';
import { LiquidationWarningPctSchema } from './risk.js';

/** A positive USDC amount with no sign: the order-notional cap. */
const orderNotionalCap = decimalIn
  .refine((v) => /[1-9]/.test(v), 'must be greater than 0 (use null to turn the cap off)');

export const PaletteSchema = z.enum(PALETTES);

const stopToleranceBps = z.number().int().min(MIN_STOP_TOLERANCE_BPS).max(MAX_STOP_TOLERANCE_BPS);
export const SettingsSchema = z.object({
  /** Default tolerance for MARKET orders; null: each market's own slippage_bps. */
  default_slippage_bps: z.number().int().min(0).max(5000).nullable(),
  /** Leverage of an opening order that names none, on every market without its own default below. */
  default_leverage: z.number().int().min(1).max(1000),
  /** Per-market defaults, by market symbol; they win over default_leverage. */
  leverage_by_market: z.record(marketSymbol, z.number().int().min(1).max(1000)),
  /** Show the signing review before every order (off: the renderer may place right after preview). */
  confirm_orders: z.boolean(),
  /** Keys expiring within this many days are flagged and reported by keyExpiry events. */
  key_expiry_warning_days: z.number().int().min(1).max(90),
  theme: z.enum(['dark', 'light']),
  /**
   * The colours of buy/sell and profit/loss: the usual green/red, a colour-blind-safe blue/orange, or a
   * high-contrast set (brighter text, stronger borders). Applied as data-palette on the root element.
   */
  palette: PaletteSchema,
  /** Warn (riskWarning event, notification) when a position's mark is within this percent of its liquidation estimate. */
  liquidation_warning_pct: LiquidationWarningPctSchema,
  /**
   * The fat-finger cap (USDC): an order whose notional is above it needs an explicit confirmation (the
   * review's LARGE_ORDER; `--allow-large` on the command line). null, the default, is off.
   */
  max_order_notional: orderNotionalCap.nullable(),
  /**
   * How far past its trigger a fired stop-loss (plain, bracket, trailing) may fill, in basis points:
   * default 1000 (10%, the venue's stop-market tolerance). Take-profits keep the market's slippage_bps.
   */
  stop_tolerance_bps: stopToleranceBps,
  /** Per-market stop tolerances, by market symbol; they win over stop_tolerance_bps. */
  stop_tolerance_by_market: z.record(marketSymbol, stopToleranceBps),
});
export type Settings = z.infer<typeof SettingsSchema>;
export const SettingsPatchSchema = z.strictObject({
  default_slippage_bps: z.number().int().min(0).max(5000).nullable().optional(),
  default_leverage: z.number().int().min(1).max(1000).optional(),
  /** Replaces the whole map; a market absent from it falls back to default_leverage. */
  leverage_by_market: z.record(marketSymbol, z.number().int().min(1).max(1000)).optional(),
  confirm_orders: z.boolean().optional(),
  key_expiry_warning_days: z.number().int().min(1).max(90).optional(),
  theme: z.enum(['dark', 'light']).optional(),
  palette: PaletteSchema.optional(),
  liquidation_warning_pct: LiquidationWarningPctSchema.optional(),
  max_order_notional: orderNotionalCap.nullable().optional(),
  stop_tolerance_bps: stopToleranceBps.optional(),
  /** Replaces the whole map; a market absent from it falls back to stop_tolerance_bps. */
  stop_tolerance_by_market: z.record(marketSymbol, stopToleranceBps).optional(),
});

export const NotificationPrefsSchema = z.object({
  /** Native notification on each fill. */
  fills: z.boolean(),
  /** When a TP/SL trigger fires. */
  trigger_fires: z.boolean(),
  /** When a withdrawal completes (or ends otherwise). */
  withdrawals: z.boolean(),
  /** When a trading key enters the expiry warning window or expires. */
  key_expiry: z.boolean(),
  /** When a position's mark comes within the warning distance of its liquidation estimate (once per crossing). */
  liquidation_warning: z.boolean(),
  /** When one of the user's alerts fires (price, move, funding, PnL, liquidation distance). */
  alerts: z.boolean(),
  // Sounds the window plays (generated, no audio files), each off until the user turns it on.
  /** A short chime on each fill. */
  sound_fills: z.boolean(),
  /** A double tone when a TP/SL trigger fires. */
  sound_trigger_fires: z.boolean(),
  /** A falling alarm on a liquidation-risk warning. */
  sound_risk_warnings: z.boolean(),
  /** A bell when an alert fires. */
  sound_alerts: z.boolean(),
});
export type NotificationPrefs = z.infer<typeof NotificationPrefsSchema>;
export const NotificationPrefsPatchSchema = z.strictObject({
  fills: z.boolean().optional(),
  trigger_fires: z.boolean().optional(),
  withdrawals: z.boolean().optional(),
  key_expiry: z.boolean().optional(),
  liquidation_warning: z.boolean().optional(),
  alerts: z.boolean().optional(),
  sound_fills: z.boolean().optional(),
  sound_trigger_fires: z.boolean().optional(),
  sound_risk_warnings: z.boolean().optional(),
  sound_alerts: z.boolean().optional(),
});

/**
 * The offline signer's identity for the animated eth-sign-request QR code (Keystone-style signers need
 * the wallet's master fingerprint and derivation path). No fingerprint: no QR code, the file and
 * hex-paste paths still work.
 */
export const AirgapSettingsSchema = z.object({ fingerprint: z.string().nullable(), path: z.string() });
export type AirgapSettings = z.infer<typeof AirgapSettingsSchema>;
export const AirgapSettingsPatchSchema = z.strictObject({
  fingerprint: z.string().regex(/^[0-9a-fA-F]{8}$/, 'expected the master fingerprint: 8 hex characters').nullable().optional(),
  path: z.string().min(1).max(64).optional(),
});

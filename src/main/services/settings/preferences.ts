/**
 * The user's trading preferences, shared by the app and the command line (both read the same settings
 * file): default leverage (global and per market), default slippage, the confirmation switch, the key
 * expiry window, the theme and colour palette, the liquidation warning distance and the fat-finger cap on an order's
 * notional. Reads fill in defaults and ignore malformed stored values, so a hand-edited file cannot break
 * start-up; writes are validated, and a bad value changes nothing.
 */
import { SettingsSchema, type Settings } from '../../../shared/ipc.js';
import type { Market } from '../../../shared/protocol/index.js';
import { DEFAULT_STOP_TOLERANCE_BPS, stopToleranceBpsFor } from '../../../shared/orders/stopTolerance.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import { ValidationError } from '../errors.js';

const SETTINGS_KEY = 'app.settings';

export const DEFAULT_SETTINGS: Settings = {
  default_slippage_bps: null,
  default_leverage: 1,
  leverage_by_market: {},
  confirm_orders: true,
  key_expiry_warning_days: 14,
  theme: 'dark',
  palette: 'default',
  liquidation_warning_pct: 10,
  // Off until the user sets a cap: nobody's ordinary order needs a confirmation by default.
  max_order_notional: null,
  stop_tolerance_bps: DEFAULT_STOP_TOLERANCE_BPS,
  stop_tolerance_by_market: {},
};

export function readPreferences(store: SettingsStore): Settings {
  const parsed = SettingsSchema.partial().safeParse(store.get(SETTINGS_KEY));
  return { ...DEFAULT_SETTINGS, ...(parsed.success ? withoutUndefined(parsed.data) : {}) };
}

export function updatePreferences(store: SettingsStore, patch: Partial<Settings>): Settings {
  const result = SettingsSchema.safeParse({ ...readPreferences(store), ...withoutUndefined(patch) });
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ValidationError(issue?.message ?? 'invalid setting', { field: issue?.path.map(String).join('.') || 'settings' });
  }
  store.set(SETTINGS_KEY, result.data);
  return result.data;
}

/**
 * The leverage an opening order gets when it names none: the market's own default, else the global one,
 * else 1x; never above the market's max_leverage. One rule for the app's ticket and the command line, so
 * an order never signs leverage 0, which the service reads as the market's maximum.
 */
export function defaultLeverageFor(prefs: Pick<Settings, 'default_leverage' | 'leverage_by_market'>, market: Pick<Market, 'symbol' | 'max_leverage'>): number {
  const wanted = prefs.leverage_by_market[market.symbol] ?? prefs.default_leverage;
  return Math.max(1, Math.min(wanted, market.max_leverage));
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The tolerance a fired stop-loss on `symbol` fills within (bps): the market's own setting, else the global one. */
export function stopToleranceFor(store: SettingsStore, symbol: string): number {
  return stopToleranceBpsFor(readPreferences(store), symbol);
}

/**
 * Setting the default leverage of orders that name none (`perps config leverage`; the app's settings
 * share the same stored value). A default no market can take is refused, not stored and capped later: a
 * market's default may not exceed that market's max_leverage, and the global default may not exceed the
 * largest max_leverage of the markets the service lists. Both maxima come from GET /markets, never from a
 * constant here.
 */
import type { Market } from '../../../shared/protocol/index.js';
import type { LiveConfig } from '../liveConfig.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import { ValidationError } from '../errors.js';
import { DEFAULT_SETTINGS, readPreferences, updatePreferences } from './preferences.js';
import type { Settings } from '../../../shared/ipc.js';

export type LeverageDefaultChange = { market?: string | undefined } & ({ leverage: number } | { clear: true });

/**
 * Refuses a default above what it applies to allows, naming the maximum: one market's max_leverage, or
 * for the global default the largest max_leverage among `markets` (a default no market can take).
 */
export function checkLeverageDefault(leverage: number, scope: { market: Pick<Market, 'symbol' | 'max_leverage'> } | { markets: readonly Pick<Market, 'symbol' | 'max_leverage'>[] }): void {
  if (!Number.isInteger(leverage) || leverage < 1) throw new ValidationError(`must be a whole number of at least 1, got ${String(leverage)}`, { field: 'leverage' });
  if ('market' in scope) {
    const m = scope.market;
    if (leverage > m.max_leverage) {
      throw new ValidationError(`${leverage}x is above ${m.symbol}'s max_leverage ${m.max_leverage}x; nothing was stored`, { field: 'leverage', hint: `Give at most ${m.max_leverage}.` });
    }
    return;
  }
  if (scope.markets.length === 0) throw new ValidationError('the service lists no markets to check a default leverage against; nothing was stored', { field: 'leverage' });
  const highest = scope.markets.reduce((a, m) => (m.max_leverage > a.max_leverage ? m : a));
  if (leverage > highest.max_leverage) {
    throw new ValidationError(`${leverage}x is above every market's max_leverage (the highest is ${highest.max_leverage}x, on ${highest.symbol}); nothing was stored`, {
      field: 'leverage',
      hint: `Give at most ${highest.max_leverage}, or set one market's own default with --market.`,
    });
  }
}

/** Stores (or clears) a default leverage after checking it against the live markets (GET /markets). */
export async function setLeverageDefault(deps: { config: Pick<LiveConfig, 'markets' | 'market'>; settings: SettingsStore }, change: LeverageDefaultChange): Promise<Settings> {
  // An inactive market may still hold a default (it applies again once the market is back).
  const market = change.market !== undefined ? await deps.config.market(change.market, { allowInactive: true }) : undefined;
  if ('leverage' in change) checkLeverageDefault(change.leverage, market ? { market } : { markets: await deps.config.markets() });
  const prefs = readPreferences(deps.settings);
  if (market !== undefined) {
    const byMarket = { ...prefs.leverage_by_market };
    if ('leverage' in change) byMarket[market.symbol] = change.leverage;
    else delete byMarket[market.symbol];
    return updatePreferences(deps.settings, { leverage_by_market: byMarket });
  }
  return updatePreferences(deps.settings, { default_leverage: 'leverage' in change ? change.leverage : DEFAULT_SETTINGS.default_leverage });
}

/**
 * The app's settings patch (settings:set) under the same rule: a changed default_leverage is checked as
 * the global default, each new or changed entry of leverage_by_market against its own market. Entries
 * left as they were are not re-judged (a market's maximum may have dropped since; the order is capped).
 */
export async function checkLeveragePatch(config: Pick<LiveConfig, 'markets' | 'market'>, current: Pick<Settings, 'default_leverage' | 'leverage_by_market'>, patch: Partial<Pick<Settings, 'default_leverage' | 'leverage_by_market'>>): Promise<void> {
  if (patch.default_leverage !== undefined && patch.default_leverage !== current.default_leverage) {
    checkLeverageDefault(patch.default_leverage, { markets: await config.markets() });
  }
  for (const [symbol, leverage] of Object.entries(patch.leverage_by_market ?? {})) {
    if (current.leverage_by_market[symbol] === leverage) continue;
    checkLeverageDefault(leverage, { market: await config.market(symbol, { allowInactive: true }) });
  }
}

/**
 * Setting the stop tolerance (`perps config stop-tolerance`; the app's Settings share the stored value):
 * globally, or for one market, which must be a market the service lists (GET /markets), so a typo never
 * becomes a setting that silently applies to nothing.
 */
import type { LiveConfig } from '../liveConfig.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import type { Settings } from '../../../shared/ipc.js';
import { DEFAULT_STOP_TOLERANCE_BPS } from '../../../shared/orders/stopTolerance.js';
import { readPreferences, updatePreferences } from './preferences.js';

export type StopToleranceChange = { market?: string | undefined } & ({ bps: number } | { clear: true });

export async function setStopTolerance(deps: { config: Pick<LiveConfig, 'market'>; settings: SettingsStore }, change: StopToleranceChange): Promise<Settings> {
  if (change.market === undefined) {
    return updatePreferences(deps.settings, { stop_tolerance_bps: 'bps' in change ? change.bps : DEFAULT_STOP_TOLERANCE_BPS });
  }
  const market = await deps.config.market(change.market, { allowInactive: true });
  const byMarket = { ...readPreferences(deps.settings).stop_tolerance_by_market };
  if ('bps' in change) byMarket[market.symbol] = change.bps;
  else delete byMarket[market.symbol];
  return updatePreferences(deps.settings, { stop_tolerance_by_market: byMarket });
}

/** The app's settings patch: every new or changed per-market entry must name a listed market. */
export async function checkStopTolerancePatch(config: Pick<LiveConfig, 'market'>, current: Pick<Settings, 'stop_tolerance_by_market'>, patch: Partial<Pick<Settings, 'stop_tolerance_by_market'>>): Promise<void> {
  for (const [symbol, bps] of Object.entries(patch.stop_tolerance_by_market ?? {})) {
    if (current.stop_tolerance_by_market[symbol] === bps) continue;
    await config.market(symbol, { allowInactive: true });
  }
}

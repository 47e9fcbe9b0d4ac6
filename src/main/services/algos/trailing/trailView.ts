/**
 * The trailing stops of a wallet as the position views show them: one per market, only those still
 * trailing (an interrupted one included: its last level is armed and it resumes when run again).
 */
import { formatTrailDistance } from '../../../../shared/algos/trailing.js';
import type { TrailingView } from '../../../../shared/ipc/risk.js';
import type { TradingContext } from '../../orders/orderContext.js';
import { liveRunner } from '../runLock.js';
import { trailSummary } from './trailRunner.js';
import { trailStoreOf } from './trailStore.js';

export function trailingViews(ctx: Pick<TradingContext, 'profile'>, wallet: string): Map<string, TrailingView> {
  const store = trailStoreOf(ctx);
  const out = new Map<string, TrailingView>();
  for (const r of store.list(ctx.profile.name).records) {
    if (r.status !== 'trailing' || r.wallet.toLowerCase() !== wallet.toLowerCase() || out.has(r.market)) continue;
    out.set(r.market, {
      distance: formatTrailDistance(r.distance),
      activate: r.activate,
      stop: r.stop?.trigger_price ?? null,
      high_water: r.high_water,
      summary: trailSummary(r),
      running: liveRunner(store.dir, r.id) !== null,
      away: r.away,
    });
  }
  return out;
}

/**
 * The alerts' market feed without a venue socket (a profile with no WebSocket URL): the info API is read
 * at the start, then polled, the asset context joined to the service's market on venue_symbol (never
 * symbol), and not read at all while no alert watches market data.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startAlertFeed, type MarketObservation } from '../../../src/main/services/alerts/index.js';
import type { ServiceContext } from '../../../src/main/services/serviceContext.js';

afterEach(() => {
  vi.useRealTimers();
});

function fakeCtx(reads: { n: number }): ServiceContext {
  const market = { symbol: 'ETH-PERP', venue_symbol: 'ETH', venue_asset_index: 1, is_active: true };
  const meta = { universe: [{ name: 'BTC', szDecimals: 5, maxLeverage: 40 }, { name: 'ETH', szDecimals: 4, maxLeverage: 25 }] };
  const ctx = (mark: string) => ({ funding: '0.0000125', openInterest: '1', prevDayPx: '1', dayNtlVlm: '1', oraclePx: mark, markPx: mark });
  return {
    config: { markets: async () => [market] },
    venue: {
      metaAndAssetCtxs: async () => {
        reads.n++;
        return [meta, [ctx('60000'), ctx(String(3400 + reads.n))]];
      },
    },
  } as unknown as ServiceContext;
}

describe('alert feed (polling)', () => {
  it('reads at the start, polls while wanted, joins on venue_symbol, reads nothing while no alert wants it', async () => {
    vi.useFakeTimers();
    const reads = { n: 0 };
    const seen: MarketObservation[] = [];
    let wanted = true;
    const feed = await startAlertFeed({ ctx: fakeCtx(reads), socket: null, pollMs: 1_000, wanted: () => wanted, observe: (o) => seen.push(o), onError: (err) => { throw err; } });
    expect(seen.map((o) => [o.market, o.mark, o.funding])).toEqual([['ETH-PERP', '3401', '0.0000125']]);
    await vi.advanceTimersByTimeAsync(2_100);
    expect(reads.n).toBe(3);
    wanted = false;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reads.n).toBe(3);
    wanted = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reads.n).toBe(4);
    await feed.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reads.n).toBe(4);
    expect(seen.at(-1)).toMatchObject({ market: 'ETH-PERP', mark: '3404' });
  });
});

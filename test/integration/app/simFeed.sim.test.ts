/**
 * The app's simulator price setting and feed (issue 16), through the registered IPC handlers: "Prices:
 * simulated | live from the venue at URL" is validated, stored and applied by restarting the simulator;
 * the markets then show the venue's marks; a market frozen on refused data, an outage, and each recovery
 * reach the renderer as simFeed events (the banners); a venue that cannot be read leaves the simulator on its walk and says so.
 *
 * The simulator runs a manual clock (issue 37), which nothing here moves: following a venue is wall-clock
 * work by design (the upstream lives in real time; the follower's polls, its outage window and each
 * market's freeze are measured on the wall clock, src/sim/venue/follow/feedHealth.ts), so the waits below
 * are polls for the events the follower raises, not for simulated time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SimFeedView } from '../../../src/shared/ipc.js';
import { UpstreamVenue } from '../../sim/follow/upstreamVenue.js';
import { AppHarness } from './appHarness.js';

async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('simulator prices live from a venue, in the app', () => {
  let h: AppHarness;
  let upstream: UpstreamVenue;

  beforeAll(async () => {
    upstream = new UpstreamVenue();
    await upstream.start();
    upstream.setBook('ETH', [{ px: '3499.0', sz: '10.0', n: 3 }], [{ px: '3501.0', sz: '10.0', n: 3 }]);
    h = await AppHarness.start('simfeed');
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
    await upstream?.stop();
  });

  afterEach(() => upstream.comeBack());

  it('starts simulated; a bad URL is refused and changes nothing', async () => {
    expect(await h.call('settings:getSimPrices', {})).toEqual({ source: 'simulated' });
    expect(await h.call('settings:getSimFeed', {})).toMatchObject({ source: 'simulated', feed: null, error: null });
    const bad = await h.invoke('settings:setSimPrices', { source: 'venue', info_url: 'api.hyperliquid.xyz/info' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    expect(JSON.stringify(bad)).toContain('http or https URL');
    expect(await h.call('settings:getSimPrices', {})).toEqual({ source: 'simulated' });
  });

  it('follows the venue once set: its marks in the markets, walking markets named, outage and recovery as events', async () => {
    try {
      await followsTheVenue();
    } finally {
      // Simulated prices again, as the other tests start from (they may run after this one).
      await h.call('settings:setSimPrices', { source: 'simulated' });
    }
  }, 60_000);

  async function followsTheVenue(): Promise<void> {
    const set = await h.call('settings:setSimPrices', { source: 'venue', info_url: upstream.infoUrl });
    expect(set).toEqual({ source: 'venue', info_url: upstream.infoUrl });
    const feed = (await h.call('settings:getSimFeed', {}))!;
    expect(feed).toMatchObject({ source: 'venue', info_url: upstream.infoUrl, feed: 'live', error: null });
    expect(feed.walking).toEqual(
      expect.arrayContaining([
        { venue_symbol: 'WIF', reason: 'not listed by the upstream' },
        { venue_symbol: 'MATIC', reason: 'delisted upstream' },
      ]),
    );
    upstream.setCtx('ETH', { markPx: '3512.5' });
    await until(async () => (await h.call('markets:list', {})).markets.find((m) => m.symbol === 'ETH')?.mark, (m) => m === '3512.5', "the venue's ETH mark in the app");

    // A crossed ETH book freezes ETH alone: the renderer hears which market, why and since when (issue 26).
    h.events.length = 0;
    upstream.setBook('ETH', [{ px: '3600.0', sz: '10.0', n: 3 }], [{ px: '3400.0', sz: '10.0', n: 3 }]);
    const frozen = await until(() => h.eventsOf<SimFeedView>('simFeed').map((e) => e.payload), (list) => list.some((v) => v.paused_markets.length > 0), 'the frozen-market event');
    expect(frozen.find((v) => v.paused_markets.length > 0)!.paused_markets).toEqual([
      { venue_symbol: 'ETH', state: 'frozen', reason: expect.stringContaining('the book is crossed'), since: expect.any(Number) },
    ]);
    expect((await h.call('settings:getSimFeed', {}))!.feed).toBe('live');
    upstream.setBook('ETH', [{ px: '3512.0', sz: '10.0', n: 3 }], [{ px: '3513.0', sz: '10.0', n: 3 }]);
    await until(() => h.eventsOf<SimFeedView>('simFeed').map((e) => e.payload), (list) => list.at(-1)?.paused_markets.length === 0, 'ETH following again');

    h.events.length = 0;
    upstream.goDown();
    const down = await until(() => h.eventsOf<SimFeedView>('simFeed').map((e) => e.payload), (list) => list.some((v) => v.feed === 'down'), 'the outage event');
    expect(down.find((v) => v.feed === 'down')).toMatchObject({ source: 'venue', info_url: upstream.infoUrl, down_since: expect.any(Number) });
    upstream.comeBack();
    await until(() => h.eventsOf<SimFeedView>('simFeed').map((e) => e.payload), (list) => list.at(-1)?.feed === 'live', 'the recovery event', 20_000);
    expect((await h.call('settings:getSimFeed', {}))!.feed).toBe('live');
  }

  it('a venue that cannot be read leaves the prices simulated and says why', async () => {
    const unreachable = 'http://127.0.0.1:9/info';
    await h.call('settings:setSimPrices', { source: 'venue', info_url: unreachable });
    const feed = (await h.call('settings:getSimFeed', {}))!;
    expect(feed).toMatchObject({ source: 'simulated', info_url: unreachable });
    expect(feed.error).toContain(`the venue at ${unreachable} could not be followed`);
    expect(h.logs.some((l) => l.startsWith('warn') && l.includes('could not be followed'))).toBe(true);
    // The simulator still runs: the markets answer.
    expect((await h.call('markets:list', {})).markets.length).toBeGreaterThan(0);
    await h.call('settings:setSimPrices', { source: 'simulated' });
    expect(await h.call('settings:getSimFeed', {})).toMatchObject({ source: 'simulated', error: null });
  }, 60_000);
});

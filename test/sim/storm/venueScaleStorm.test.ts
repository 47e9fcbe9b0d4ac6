/**
 * The venue at real scale (issue 29, item 1): the 200-market configuration and storm mode, on the
 * venue module (manual clock: exact and deterministic), through the simulator's control API and
 * through `perps sim` on the command line.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSimConfig } from '../../../src/sim/config/load.js';
import { venueAssetConfig } from '../../../src/sim/config/markets.js';
import { VENUE_SCALE_MARKETS, venueScaleMarkets } from '../../../src/sim/config/venueScale.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { SimClock } from '../../../src/sim/runtime/clock.js';
import { SeededRandom } from '../../../src/sim/runtime/random.js';
import { VenueMarketData, parseStormFactor, type VenueFeedEvent } from '../../../src/sim/venue/index.js';
import { REPO_ROOT } from '../../support/paths.js';

const START = Date.UTC(2026, 0, 5, 9, 30, 0, 0);
const running: { stop(): unknown }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

/** A venue on the first `count` venue-scale markets (all 200 by default; building 200 histories takes seconds). */
function venueAtScale(seed: number, storm = 1, count = VENUE_SCALE_MARKETS): { venue: VenueMarketData; clock: SimClock; events: VenueFeedEvent[] } {
  const config = resolveSimConfig({ markets: venueScaleMarkets().slice(0, count) });
  const clock = new SimClock({ manual: true, start: START });
  const venue = new VenueMarketData({ assets: config.markets.map(venueAssetConfig), clock, random: new SeededRandom(seed), tickIntervalMs: config.timings.venue_tick_ms });
  running.push(venue);
  if (storm > 1) venue.setStorm(storm);
  const events: VenueFeedEvent[] = [];
  venue.onFeed((event) => events.push(event));
  return { venue, clock, events };
}

/** What subscribers saw, as text: the same run gives the same text. */
function transcript(venue: VenueMarketData, events: VenueFeedEvent[]): string {
  return JSON.stringify([events, venue.allMids(), venue.symbols().map((s) => venue.recentTrades(s))]);
}

describe('venue-scale markets', () => {
  it('are 200 valid markets with the venue tick rule, size decimals by price, and tiered leverage on the largest', () => {
    const markets = venueScaleMarkets();
    expect(markets).toHaveLength(VENUE_SCALE_MARKETS);
    expect(venueScaleMarkets()).toEqual(markets);
    const config = resolveSimConfig({ markets });
    expect(config.markets.map((m) => m.venue_asset_index)).toEqual([...Array(200).keys()]);
    expect(new Set(config.markets.map((m) => m.symbol)).size).toBe(200);
    for (const m of config.markets) {
      const tick = new Decimal(m.tick_size);
      const price = new Decimal(m.sim.initial_mark);
      // At most five significant figures, and at most 6 - szDecimals decimals (the venue's price rule).
      expect(tick.decimalPlaces(), m.symbol).toBeLessThanOrEqual(6 - m.sz_decimals);
      expect(price.div(tick).lt(100_000), m.symbol).toBe(true);
      expect(price.mod(tick).isZero(), m.symbol).toBe(true);
    }
    const prices = config.markets.map((m) => Number(m.sim.initial_mark));
    expect(Math.min(...prices)).toBeLessThanOrEqual(0.001);
    expect(Math.max(...prices)).toBeGreaterThan(10_000);
    expect(new Set(config.markets.map((m) => m.max_leverage))).toEqual(new Set([40, 25, 20, 10, 5, 3]));
    expect(new Set(config.markets.map((m) => m.sz_decimals)).size).toBeGreaterThanOrEqual(5);
    expect(config.markets.filter((m) => m.sim.margin_tiers).map((m) => m.symbol)).toEqual(['BTC', 'ETH', 'SOL', 'XRP']);
  });

  it('the simulator serves all 200 on /markets and on the venue, with their margin tables', async () => {
    const sim = await startSimulator({ port: 0, seed: 3, manualClock: true, markets: 'venue-scale' });
    running.push(sim);
    const markets = (await (await fetch(sim.urls.base_url + '/markets')).json()) as { data: unknown[] };
    expect(markets.data).toHaveLength(200);
    const meta = (await (await fetch(sim.urls.venue_info_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"meta"}' })).json()) as {
      universe: { name: string; marginTableId: number }[];
      marginTables: [number, { marginTiers: unknown[] }][];
    };
    expect(meta.universe).toHaveLength(200);
    const btc = meta.universe.find((a) => a.name === 'BTC')!;
    expect(meta.marginTables.find(([id]) => id === btc.marginTableId)![1].marginTiers).toHaveLength(2);
  });
});

describe('storm mode', () => {
  it('is deterministic under the seed, and another seed gives another storm', () => {
    const a = venueAtScale(11, 10);
    const b = venueAtScale(11, 10);
    const c = venueAtScale(12, 10, 20);
    for (const run of [a, b, c]) run.clock.advance(3_000);
    expect(transcript(a.venue, a.events)).toEqual(transcript(b.venue, b.events));
    expect(a.venue.storm()).toEqual(b.venue.storm());
    expect(a.venue.storm().marks).toBe(30 * 200);
    const first20 = (run: typeof a): string => JSON.stringify(run.venue.symbols().slice(0, 20).map((s) => run.venue.recentTrades(s)));
    expect(first20(c)).not.toEqual(first20(a));
  });

  it('10x: ten times the mark updates, at least ten times the trades, with bursts and liquidation cascades', () => {
    const calm = venueAtScale(21, 1, 40);
    const storm = venueAtScale(21, 10, 40);
    for (const run of [calm, storm]) run.clock.advance(10_000);
    const count = (events: VenueFeedEvent[], kind: VenueFeedEvent['kind']): number => events.filter((e) => e.kind === kind).length;
    expect(count(calm.events, 'marks')).toBe(10);
    expect(count(storm.events, 'marks')).toBe(100);
    expect(count(storm.events, 'trade')).toBeGreaterThanOrEqual(10 * count(calm.events, 'trade'));
    const stats = storm.venue.storm();
    expect(stats).toMatchObject({ factor: 10, tickIntervalMs: 100, ticks: 100, marks: 100 * 40 });
    expect(stats.bursts).toBeGreaterThan(0);
    expect(stats.liquidations).toBeGreaterThan(0);
    // Every trade is a valid print: positive, on its market's tick, in trade-id order.
    const tids = storm.events.flatMap((e) => (e.kind === 'trade' ? [e.trade.tid] : []));
    expect(tids).toEqual([...tids].sort((x, y) => x - y));
  });

  it('a calm run prices the same as before storms existed: the storm draws from its own stream', () => {
    const calm = venueAtScale(31, 1, 20);
    const stormedThenCalmed = venueAtScale(31, 10, 20);
    stormedThenCalmed.venue.setStorm(1);
    for (const run of [calm, stormedThenCalmed]) run.clock.advance(5_000);
    expect(stormedThenCalmed.venue.allMids()).toEqual(calm.venue.allMids());
  });

  it('refuses factors that are not whole numbers from 1 to 100', () => {
    expect(parseStormFactor('10x')).toBe(10);
    expect(parseStormFactor(3)).toBe(3);
    for (const bad of [0, '0x', 101, '1.5', 'ten', '10 x', '-2', '', null, '1e2', '010']) expect(() => parseStormFactor(bad), String(bad)).toThrow(/storm factor/);
    expect(() => venueAtScale(1, 1, 3).venue.setStorm(0)).toThrow(RangeError);
  });

  it('control API: POST /sim/storm sets it, GET reads it, hostile bodies are 400 and change nothing', async () => {
    const sim: RunningSimulator = await startSimulator({ port: 0, seed: 5, manualClock: true });
    running.push(sim);
    const post = (body: unknown) => fetch(sim.urls.control_url + '/storm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const bad of [{}, { factor: 0 }, { factor: 101 }, { factor: '1.5' }, { factor: 'storm' }, { factor: [10] }, { factor: null }]) {
      const res = await post(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(sim.venue.storm().factor).toBe(1);
    const res = await post({ factor: '10x' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { factor: number; tickIntervalMs: number } }).data).toMatchObject({ factor: 10, tickIntervalMs: 100 });
    const read = (await (await fetch(sim.urls.control_url + '/storm')).json()) as { data: { factor: number } };
    expect(read.data.factor).toBe(10);
  });

  it('perps sim --markets venue-scale --storm 10x starts storming at scale; a bad --storm or --markets exits 2', async () => {
    const bin = path.join(REPO_ROOT, 'bin/perps.js');
    const child = spawn(process.execPath, [bin, 'sim', '--port', '0', '--manual-clock', '--markets', 'venue-scale', '--storm', '10x'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
        readline.createInterface({ input: child.stdout }).once('line', resolve);
      });
      const urls = JSON.parse(line) as Record<string, string>;
      const storm = (await (await fetch(urls.control_url + '/storm')).json()) as { data: { factor: number } };
      expect(storm.data.factor).toBe(10);
      const markets = (await (await fetch(urls.base_url + '/markets')).json()) as { data: unknown[] };
      expect(markets.data).toHaveLength(200);
    } finally {
      child.removeAllListeners('exit');
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
    for (const args of [['--storm', '0'], ['--storm', 'x10'], ['--markets', 'huge']]) {
      const bad = spawn(process.execPath, [bin, 'sim', '--port', '0', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      bad.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => bad.once('exit', resolve));
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/storm factor|must be one of default, venue-scale/);
    }
  });
});

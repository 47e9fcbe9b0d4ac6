import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/sim/runtime/clock.js';
import { SeededRandom } from '../../../src/sim/runtime/random.js';
import { decodeColumn, encodeColumn, type BarColumn } from '../../../src/sim/venue/barColumns.js';
import { BarSeries, type BarSeriesState } from '../../../src/sim/venue/candles.js';
import { CANDLE_INTERVALS, CANDLE_INTERVAL_NAMES, VenueMarketData, parseVenueSnapshot, type VenueAssetConfig } from '../../../src/sim/venue/index.js';
import { ASSETS, START, makeVenue } from './fixtures.js';

const venues: VenueMarketData[] = [];
function venue(seed = 7, start = START, assets: VenueAssetConfig[] = ASSETS): { venue: VenueMarketData; clock: SimClock } {
  const made = makeVenue(seed, start, assets);
  venues.push(made.venue);
  return made;
}
afterEach(() => {
  for (const v of venues.splice(0)) v.stop();
});

function isTickMultiple(px: string, tick: string): boolean {
  return new Decimal(px).mod(tick).isZero();
}

function markPath(v: VenueMarketData, clock: SimClock, ticks: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < ticks; i++) {
    clock.advance(1000);
    out.push(ASSETS.map((a) => v.getMark(a.venueSymbol)).join('|'));
  }
  return out;
}

describe('price walk', () => {
  it('gives the same prices and history for the same seed, different ones for another seed', () => {
    const a = venue(11);
    const b = venue(11);
    const c = venue(12);
    expect(a.venue.candles('BTC', '1h', 0, START)).toEqual(b.venue.candles('BTC', '1h', 0, START));
    const pathA = markPath(a.venue, a.clock, 200);
    expect(markPath(b.venue, b.clock, 200)).toEqual(pathA);
    expect(markPath(c.venue, c.clock, 200)).not.toEqual(pathA);
    expect(a.venue.assetCtxs()).toEqual(b.venue.assetCtxs());
    // The walk actually moves.
    expect(new Set(pathA).size).toBeGreaterThan(100);
  });

  it('moves only when the manual clock advances, once per tick interval', async () => {
    const { venue: v, clock } = venue();
    const seen: [string, string, number][] = [];
    const off = v.onMark((symbol, mark, time) => seen.push([symbol, mark, time]));
    const before = v.getMark('BTC');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(seen).toEqual([]);
    expect(v.getMark('BTC')).toBe(before);
    clock.advance(999);
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(seen.map(([symbol]) => symbol)).toEqual(['BTC', 'ETH', 'kPEPE']);
    expect(seen.every(([, , time]) => time === START + 1000)).toBe(true);
    expect(seen[0]![1]).toBe(v.getMark('BTC'));
    clock.advance(5000);
    expect(seen).toHaveLength(18);
    off();
    clock.advance(1000);
    expect(seen).toHaveLength(18);
  });

  it('keeps every mark on its tick grid and positive', () => {
    const { venue: v, clock } = venue(3);
    for (let i = 0; i < 500; i++) {
      clock.advance(1000);
      for (const asset of ASSETS) {
        const mark = v.getMark(asset.venueSymbol);
        expect(isTickMultiple(mark, asset.tickSize)).toBe(true);
        expect(new Decimal(mark).gt(0)).toBe(true);
      }
    }
  });

  it('setMark rounds to the tick, notifies like a tick and keeps the walk going from there', () => {
    const { venue: v, clock } = venue();
    const seen: string[] = [];
    v.onMark((symbol, mark) => seen.push(`${symbol}=${mark}`));
    v.setMark('ETH', '3000.04');
    expect(v.getMark('ETH')).toBe('3000');
    expect(seen).toEqual(['ETH=3000']);
    clock.advance(1000);
    expect(new Decimal(v.getMark('ETH')).minus(3000).abs().lt(30)).toBe(true);
    expect(() => v.setMark('ETH', '-1')).toThrow(/positive decimal/);
    expect(() => v.setMark('ETH', '1e3')).toThrow(/positive decimal/);
    expect(() => v.setMark('DOGE', '1')).toThrow(/unknown venue symbol/);
  });

  it('rethrows a failing listener after notifying the others, and the walk continues', () => {
    const { venue: v, clock } = venue();
    const seen: string[] = [];
    v.onMark(() => {
      throw new Error('listener bug');
    });
    v.onMark((symbol) => seen.push(symbol));
    expect(() => clock.advance(1000)).toThrow(AggregateError);
    expect(seen).toEqual(['BTC', 'ETH', 'kPEPE']);
    const mark = v.getMark('BTC');
    expect(() => clock.advance(1000)).toThrow();
    expect(seen).toHaveLength(6);
    expect(v.getMark('BTC')).not.toBe(undefined);
    expect(mark).toBeTypeOf('string');
  });
});

describe('order book', () => {
  it('is never crossed, on the tick grid, and follows the mark on every tick', () => {
    const { venue: v, clock } = venue(5);
    for (let i = 0; i < 300; i++) {
      for (const asset of ASSETS) {
        const book = v.getBook(asset.venueSymbol);
        const mark = new Decimal(v.getMark(asset.venueSymbol));
        expect(book.asks).toHaveLength(asset.levels);
        expect(book.bids.length).toBeGreaterThan(0);
        const bestBid = new Decimal(book.bids[0]!.px);
        const bestAsk = new Decimal(book.asks[0]!.px);
        expect(bestBid.lt(bestAsk)).toBe(true);
        expect(bestBid.lte(mark) && bestAsk.gte(mark)).toBe(true);
        for (let j = 1; j < book.bids.length; j++) expect(new Decimal(book.bids[j]!.px).lt(book.bids[j - 1]!.px)).toBe(true);
        for (let j = 1; j < book.asks.length; j++) expect(new Decimal(book.asks[j]!.px).gt(book.asks[j - 1]!.px)).toBe(true);
        for (const level of [...book.bids, ...book.asks]) {
          expect(isTickMultiple(level.px, asset.tickSize)).toBe(true);
          expect(level.sz).toBe(new Decimal(asset.depthPerLevel).toFixed());
        }
      }
      clock.advance(1000);
    }
  });

  it('keeps one tick between the sides when the spread is zero', () => {
    const { venue: v } = venue();
    v.setMark('kPEPE', '0.012345');
    const book = v.getBook('kPEPE');
    expect(book.bids[0]!.px).toBe('0.012345');
    expect(book.asks[0]!.px).toBe('0.012346');
  });
});

describe('candles', () => {
  it('exist for about 500 intervals of every interval, contiguous and consistent', () => {
    const { venue: v, clock } = venue();
    clock.advance(10 * 60_000 + 123);
    for (const interval of CANDLE_INTERVAL_NAMES) {
      const width = CANDLE_INTERVALS[interval];
      const candles = v.candles('ETH', interval, 0, clock.now());
      expect(candles.length, interval).toBeGreaterThanOrEqual(500);
      candles.forEach((c, i) => {
        expect(c.T).toBe(c.t + width - 1);
        expect(c.t % width).toBe(0);
        expect(c.s).toBe('ETH');
        expect(c.i).toBe(interval);
        const [o, h, l, cl] = [c.o, c.h, c.l, c.c].map((x) => new Decimal(x)) as [Decimal, Decimal, Decimal, Decimal];
        expect(h.gte(Decimal.max(o, cl)), `${interval} ${c.t} high`).toBe(true);
        expect(l.lte(Decimal.min(o, cl)), `${interval} ${c.t} low`).toBe(true);
        expect(l.gt(0)).toBe(true);
        if (i > 0) {
          expect(c.t).toBe(candles[i - 1]!.t + width);
          // Each candle opens where the previous one closed: one continuous price path.
          expect(c.o).toBe(candles[i - 1]!.c);
        }
      });
      const last = candles[candles.length - 1]!;
      expect(last.t).toBeLessThanOrEqual(clock.now());
      expect(last.T).toBeGreaterThanOrEqual(clock.now());
      expect(last.c).toBe(v.getMark('ETH'));
    }
  });

  it('agree across intervals: five 1m candles make the 5m candle', () => {
    const { venue: v, clock } = venue();
    clock.advance(30 * 60_000);
    const fives = v.candles('BTC', '5m', clock.now() - 3 * 3_600_000, clock.now() - 10 * 60_000);
    expect(fives.length).toBeGreaterThan(30);
    for (const five of fives) {
      const ones = v.candles('BTC', '1m', five.t, five.T);
      expect(ones).toHaveLength(5);
      expect(ones[0]!.o).toBe(five.o);
      expect(ones[4]!.c).toBe(five.c);
      expect(Decimal.max(...ones.map((c) => c.h)).toFixed()).toBe(five.h);
      expect(Decimal.min(...ones.map((c) => c.l)).toFixed()).toBe(five.l);
      expect(ones.reduce((sum, c) => sum.plus(c.v), new Decimal(0)).toFixed()).toBe(five.v);
      expect(ones.reduce((sum, c) => sum + c.n, 0)).toBe(five.n);
    }
  });

  it('stay bounded and complete after a long run', () => {
    const { venue: v, clock } = venue();
    clock.advance(2 * 86_400_000 + 7_000);
    for (const interval of CANDLE_INTERVAL_NAMES) {
      const candles = v.candles('kPEPE', interval, 0, clock.now());
      expect(candles.length, interval).toBeGreaterThanOrEqual(500);
      expect(candles.length, interval).toBeLessThan(1600);
      for (let i = 1; i < candles.length; i++) expect(candles[i]!.t - candles[i - 1]!.t).toBe(CANDLE_INTERVALS[interval]);
    }
    const snapshot = v.snapshot();
    // Saved compact (columns) and plain (tuples): the two together are the series.
    for (const asset of snapshot.assets) {
      expect(Array.isArray(asset.bars)).toBe(false);
      expect(BarSeries.fromState(asset.bars as BarSeriesState).length).toBeLessThan(5000);
    }
  });
});

describe('trades, volume, funding and open interest', () => {
  it('recordTrade feeds candles, 24h volume and recent trades', () => {
    const { venue: v, clock } = venue();
    clock.advance(1000);
    const before = v.assetCtx('ETH');
    const candleBefore = v.currentCandle('ETH', '1m')!;
    const time = clock.now();
    const trade = v.recordTrade('ETH', '3400.1', '2.5', 'B', time);
    expect(trade).toMatchObject({ coin: 'ETH', side: 'B', px: '3400.1', sz: '2.5', time });
    expect(trade.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Number.isInteger(trade.tid)).toBe(true);
    const second = v.recordTrade('ETH', '3300', '1', 'A', time);
    expect(second.tid).toBe(trade.tid + 1);
    const after = v.assetCtx('ETH');
    expect(new Decimal(after.dayBaseVlm).minus(before.dayBaseVlm).toFixed()).toBe('3.5');
    expect(new Decimal(after.dayNtlVlm).minus(before.dayNtlVlm).toFixed()).toBe('11800.25');
    const candle = v.currentCandle('ETH', '1m')!;
    expect(candle.h).toBe('3400.1');
    expect(candle.c).toBe('3300');
    expect(candle.n).toBe(candleBefore.n + 2);
    // After the walk's own trades of the ticks before (walkTrades.ts), newest last.
    expect(v.recentTrades('ETH').slice(-2).map((t) => t.tid)).toEqual([trade.tid, second.tid]);
    expect(() => v.recordTrade('ETH', '0', '1', 'B', time)).toThrow(/px must be a positive/);
    expect(() => v.recordTrade('ETH', '1', '1', 'X' as 'B', time)).toThrow(/side/);
    expect(() => v.recordTrade('ETH', '1', '1', 'B', 0)).toThrow(RangeError);
  });

  it("the walk's background volume is the tape's: one trade per tick at the new mark, on the side the mark moved", () => {
    const { venue: v, clock } = venue();
    let trades = 0;
    for (let i = 0; i < 60; i++) {
      const mark = new Decimal(v.getMark('ETH'));
      const seen = new Set(v.recentTrades('ETH').map((t) => t.tid));
      const volume = () => new Decimal(v.currentCandle('ETH', '1d')!.v);
      const volumeBefore = volume();
      clock.advance(1000);
      const fresh = v.recentTrades('ETH').filter((t) => !seen.has(t.tid));
      expect(fresh.length).toBeLessThanOrEqual(1);
      const moved = volume().minus(volumeBefore);
      if (fresh.length === 0) {
        expect(moved.isZero()).toBe(true);
        continue;
      }
      trades++;
      const [t] = fresh;
      expect(Object.keys(t!).sort()).toEqual(['coin', 'hash', 'px', 'side', 'sz', 'tid', 'time', 'users']);
      expect(t).toMatchObject({ coin: 'ETH', px: v.getMark('ETH'), time: clock.now() });
      // The candle's volume grew by exactly the trade: the tape and the candles tell one story.
      expect(moved.toFixed()).toBe(new Decimal(t!.sz).toFixed());
      const now = new Decimal(t!.px);
      if (now.gt(mark)) expect(t!.side).toBe('B');
      if (now.lt(mark)) expect(t!.side).toBe('A');
    }
    expect(trades).toBeGreaterThan(30);
  });

  it('reports the price of 24h ago and the volume since then', () => {
    const { venue: v, clock } = venue();
    clock.advance(2 * 60_000 + 500);
    const ctx = v.assetCtx('BTC');
    const dayAgo = clock.now() - 86_400_000;
    const [candle] = v.candles('BTC', '1m', dayAgo, dayAgo);
    expect(ctx.prevDayPx).toBe(candle!.o);
    const volume = v
      .candles('BTC', '1m', dayAgo, clock.now())
      .filter((c) => c.t >= dayAgo)
      .reduce((sum, c) => sum.plus(c.v), new Decimal(0));
    expect(ctx.dayBaseVlm).toBe(volume.toFixed());
  });

  it('serves funding rates hourly and open interest as set', () => {
    const { venue: v, clock } = venue();
    expect(v.fundingRate('ETH')).toBe('-0.00002');
    clock.advance(3 * 3_600_000);
    v.setFundingRate('ETH', '0.00003');
    clock.advance(2 * 3_600_000);
    const history = v.fundingHistory('ETH', START - 2 * 3_600_000);
    expect(history.length).toBe(7);
    for (let i = 1; i < history.length; i++) expect(history[i]!.time - history[i - 1]!.time).toBe(3_600_000);
    expect(history.slice(0, 5).every((h) => h.fundingRate === '-0.00002')).toBe(true);
    expect(history.slice(5).every((h) => h.fundingRate === '0.00003')).toBe(true);
    expect(v.fundingRate('ETH')).toBe('0.00003');
    expect(v.fundingHistory('ETH', 0).length).toBe(500);
    v.setOpenInterest('ETH', '1234.5');
    expect(v.openInterest('ETH')).toBe('1234.5');
    expect(v.assetCtx('ETH').openInterest).toBe('1234.5');
    expect(() => v.setOpenInterest('ETH', '-1')).toThrow();
  });
});

describe('configuration', () => {
  it('orders the universe by venueAssetIndex', () => {
    const shuffled = [ASSETS[2]!, ASSETS[0]!, ASSETS[1]!];
    const { venue: v } = venue(1, START, shuffled);
    expect(v.meta().universe.map((u) => u.name)).toEqual(['BTC', 'ETH', 'kPEPE']);
    expect(v.symbols()).toEqual(['BTC', 'ETH', 'kPEPE']);
  });

  it('rejects gaps in asset indexes, duplicate symbols and invalid values', () => {
    const clock = new SimClock({ manual: true, start: START });
    const make = (assets: VenueAssetConfig[]): VenueMarketData => new VenueMarketData({ assets, clock, random: new SeededRandom(1) });
    expect(() => make([ASSETS[0]!, { ...ASSETS[1]!, venueAssetIndex: 2 }])).toThrow(/contiguous/);
    expect(() => make([ASSETS[0]!, { ...ASSETS[1]!, venueSymbol: 'BTC' }])).toThrow(/duplicate/);
    expect(() => make([{ ...ASSETS[0]!, tickSize: '0' }])).toThrow(/tickSize/);
    expect(() => make([{ ...ASSETS[0]!, initialMark: 'abc' }])).toThrow(/initialMark/);
    expect(() => make([{ ...ASSETS[0]!, depthPerLevel: '0.000001' }])).toThrow(/rounds to zero/);
    expect(clock.pending()).toBe(0);
  });
});

describe('snapshot and restore', () => {
  it('round-trips through JSON and continues with identical prices', () => {
    const original = venue(21);
    original.clock.advance(90_000);
    original.venue.recordTrade('BTC', '97010', '0.1', 'A', original.clock.now());
    original.venue.setOpenInterest('BTC', '42');
    original.clock.advance(500);
    const saved = JSON.parse(JSON.stringify(original.venue.snapshot())) as unknown;
    const expected = markPath(original.venue, original.clock, 150);
    const expectedCandles = original.venue.candles('BTC', '1m', 0, original.clock.now());

    // A fresh simulator started with another seed at the time the state was saved.
    const restored = venue(999, START + 90_500);
    restored.venue.restore(parseVenueSnapshot(saved));
    expect(restored.venue.getMark('BTC')).toBe(JSON.parse(JSON.stringify(saved)).assets[0].mark);
    expect(restored.venue.openInterest('BTC')).toBe('42');
    expect(markPath(restored.venue, restored.clock, 150)).toEqual(expected);
    expect(restored.venue.candles('BTC', '1m', 0, restored.clock.now())).toEqual(expectedCandles);
    expect(restored.venue.recentTrades('BTC')).toEqual(original.venue.recentTrades('BTC'));
    expect(restored.venue.snapshot()).toEqual(original.venue.snapshot());
  });

  it('rejects a malformed snapshot and keeps its state', () => {
    const { venue: v } = venue();
    const before = v.snapshot();
    expect(() => v.restore(parseVenueSnapshot({ version: 2 }))).toThrow(/invalid venue market data snapshot/);
    type Compact = { compact: Record<string, BarColumn> & { t0: number; ntl: unknown[] }; bars: unknown[] };
    const copy = () => JSON.parse(JSON.stringify(before)) as { version: number; assets: { bars: Compact }[] };
    const doubles = (values: number[]) => {
      const b = Buffer.alloc(values.length * 8);
      values.forEach((x, i) => b.writeDoubleLE(x, i * 8));
      return { f64: b.toString('base64') };
    };
    const values = (c: BarColumn) => Array.from(decodeColumn(c, null, 0));
    // A compact column one bar short, a price that is not a whole number of ticks, a negative volume, a lot
    // count past 2^53, a column that is not base64, a column that is a number's text.
    for (const [column, edit] of [
      ['o', (c: BarColumn) => encodeColumn(Float64Array.from(values(c).slice(1)))],
      ['o', (c: BarColumn) => doubles(values(c).map((x, i) => (i === 3 ? 12.5 : x)))],
      ['v', (c: BarColumn) => encodeColumn(Float64Array.from(values(c).map((x, i) => (i === 3 ? -1 : x))))],
      ['v', (c: BarColumn) => doubles(values(c).map((x, i) => (i === 3 ? 2 ** 60 : x)))],
      ['n', () => ({ i32: '!!!!' })],
      ['h', () => '34001'],
    ] as const) {
      const broken = copy();
      const compact = broken.assets[0]!.bars.compact as Record<string, unknown>;
      compact[column] = edit(compact[column] as BarColumn);
      expect(() => v.restore(parseVenueSnapshot(broken)), `${column}`).toThrow(/invalid venue market data snapshot/);
    }
    // The compact bars must end where the plain ones start, and a kept notional must be a bar's.
    const shifted = copy();
    shifted.assets[0]!.bars.compact.t0 += 60_000;
    expect(() => v.restore(parseVenueSnapshot(shifted))).toThrow(/not contiguous/);
    const stray = copy();
    stray.assets[0]!.bars.compact.ntl.push([stray.assets[0]!.bars.compact.t0 + 1, '5']);
    expect(() => v.restore(parseVenueSnapshot(stray))).toThrow(/no bar starts/);
    // A version 1 file (bars as tuples) with a bar missing.
    const v1 = copy();
    v1.version = 1;
    for (const asset of v1.assets) (asset as { bars: unknown }).bars = BarSeries.fromState(asset.bars as never).toJSON();
    ((v1.assets[0] as { bars: unknown }).bars as unknown[]).splice(10, 1);
    expect(() => v.restore(parseVenueSnapshot(v1))).toThrow(/not contiguous/);
    expect(v.snapshot()).toEqual(before);
  });

  it('restores a version 1 state file (bars as tuples): the same prices and candles, and its history compact again', () => {
    const original = venue(21);
    original.clock.advance(90_000);
    original.venue.recordTrade('BTC', '97010', '0.1', 'A', original.clock.now());
    const snapshot = JSON.parse(JSON.stringify(original.venue.snapshot())) as { version: number; assets: { bars: unknown }[] };
    const v1 = { ...snapshot, version: 1, assets: snapshot.assets.map((a) => ({ ...a, bars: BarSeries.fromState(a.bars as never).toJSON() })) };
    const expected = markPath(original.venue, original.clock, 150);
    const expectedCandles = original.venue.candles('BTC', '1m', 0, original.clock.now());
    const restored = venue(999, START + 90_000);
    restored.venue.restore(parseVenueSnapshot(v1));
    expect(markPath(restored.venue, restored.clock, 150)).toEqual(expected);
    expect(restored.venue.candles('BTC', '1m', 0, restored.clock.now())).toEqual(expectedCandles);
    // Saved again, it is version 2, its history compact (at least as much of it as in the simulator that
    // never restarted: bars it had made since, on the grid too, now compact with their notionals kept) and
    // the same bar for bar.
    const again = restored.venue.snapshot();
    const before = original.venue.snapshot();
    expect(again.version).toBe(2);
    const tuples = (s: typeof again) => s.assets.map((a) => BarSeries.fromState(a.bars as never).toJSON());
    expect(tuples(again)).toEqual(tuples(before));
    const compact = (s: typeof again) => s.assets.map((a) => BarSeries.fromState(a.bars as BarSeriesState).compactLength);
    for (const [i, n] of compact(again).entries()) expect(n).toBeGreaterThanOrEqual(compact(before)[i]!);
  });

  it("saves each market's compact history with its tick as the market's definition writes it, and restores on it", () => {
    // Written with a trailing zero, and with more digits than a double holds: printed back from the
    // double at its places they were 0.1 and 0.0000010000000000000002.
    const assets = ASSETS.map((a) => (a.venueSymbol === 'ETH' ? { ...a, tickSize: '0.10' } : a.venueSymbol === 'kPEPE' ? { ...a, tickSize: '0.0000010000000000000001' } : a));
    const original = venue(21, START, assets);
    original.clock.advance(90_000);
    const saved = JSON.parse(JSON.stringify(original.venue.snapshot())) as { assets: { venueSymbol: string; bars: BarSeriesState }[] };
    expect(saved.assets.map((a) => [a.venueSymbol, a.bars.compact?.tick])).toEqual(assets.map((a) => [a.venueSymbol, a.tickSize]));
    const restored = venue(999, START + 90_000, assets);
    restored.venue.restore(parseVenueSnapshot(saved));
    expect(restored.venue.snapshot()).toEqual(original.venue.snapshot());
    expect(restored.venue.candles('ETH', '1h', 0, START)).toEqual(original.venue.candles('ETH', '1h', 0, START));
  });

  it('a venue told the validated snapshot it is about to restore starts its markets flat instead of backfilling them', () => {
    const original = venue(21);
    original.clock.advance(90_000);
    const saved = JSON.parse(JSON.stringify(original.venue.snapshot())) as { assets: { venueSymbol: string }[] };
    saved.assets = saved.assets.filter((a) => a.venueSymbol !== 'kPEPE');
    const snapshot = parseVenueSnapshot(saved);
    const clock = new SimClock({ manual: true, start: START + 90_000 });
    const v = new VenueMarketData({ assets: ASSETS, clock, random: new SeededRandom(999), restoring: snapshot });
    venues.push(v);
    const now = clock.now();
    // One bar for each market the snapshot holds; the market it does not hold is backfilled as on a fresh start.
    expect(v.candles('BTC', '1m', 0, now)).toHaveLength(1);
    expect(v.candles('ETH', '1m', 0, now)).toHaveLength(1);
    expect(v.candles('kPEPE', '1m', 0, now).length).toBeGreaterThan(500);
    v.restore(snapshot);
    for (const symbol of ['BTC', 'ETH']) expect(v.candles(symbol, '1m', 0, now)).toEqual(original.venue.candles(symbol, '1m', 0, now));
  });

  it('refuses a snapshot newer than the clock', () => {
    const later = venue(7, START + 3_600_000);
    const { venue: v } = venue(7, START);
    expect(() => v.restore(parseVenueSnapshot(later.venue.snapshot()))).toThrow(/after the clock's time/);
  });
});

describe('margin tables (meta.marginTables, issue 29)', () => {
  const tiered = (tiers: VenueAssetConfig['marginTiers']): VenueAssetConfig[] =>
    ASSETS.map((asset) => (asset.venueSymbol === 'BTC' || asset.venueSymbol === 'ETH' ? { ...asset, maxLeverage: 40, marginTiers: tiers } : asset));

  it('tiered assets with equal tiers share one table numbered from 51; single-tier assets keep their leverage as id', () => {
    const { venue: v } = venue(7, START, tiered([
      { lowerBound: '0', maxLeverage: 40 },
      { lowerBound: '150000000', maxLeverage: 20 },
    ]));
    const meta = v.meta();
    expect(meta.universe.map((asset) => asset.marginTableId)).toEqual([51, 51, 10]);
    expect(meta.marginTables).toEqual([
      [10, { description: '', marginTiers: [{ lowerBound: '0.0', maxLeverage: 10 }] }],
      [51, { description: 'tiered 40x', marginTiers: [{ lowerBound: '0.0', maxLeverage: 40 }, { lowerBound: '150000000.0', maxLeverage: 20 }] }],
    ]);
  });

  it('refuses tiers that do not start at 0 with the maximum leverage or do not step down', () => {
    const make = (tiers: VenueAssetConfig['marginTiers']) => () => venue(7, START, tiered(tiers));
    expect(make([{ lowerBound: '10', maxLeverage: 40 }])).toThrow(/first margin tier must start at 0/);
    expect(make([{ lowerBound: '0', maxLeverage: 20 }])).toThrow(/first margin tier must start at 0 with maxLeverage 40/);
    expect(make([{ lowerBound: '0', maxLeverage: 40 }, { lowerBound: '0', maxLeverage: 20 }])).toThrow(/tier 1 must start above tier 0/);
    expect(make([{ lowerBound: '0', maxLeverage: 40 }, { lowerBound: '100', maxLeverage: 40 }])).toThrow(/tier 1 must start above tier 0 with a lower leverage/);
  });
});

/**
 * The backfilled price history is stored compactly (whole ticks and lots, issue 37): every answer the
 * venue gives from it (candleSnapshot of every interval, the WebSocket's live candle, 24h volume, the
 * price a day ago, the saved bars) is the same as with the Decimal-per-bar storage it replaced, through
 * live ticks, trades, late trades, hourly compactions, merges of aged bars and days-long gaps.
 */
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { Decimal as Exact } from '../../../src/shared/decimal/index.js';
import { SeededRandom } from '../../../src/sim/runtime/random.js';
import { BarSeries, MINUTE_MS, type BarTuple } from '../../../src/sim/venue/candles.js';
import { START } from './fixtures.js';
import { SCENARIO_MARKETS, answers, runScenario, scenarioDigest } from './candleScenario.js';

/** Digests of candleScenario.ts recorded with the Decimal-per-bar storage (commit c6a6bf3). */
const RECORDED = [
  '877fba083b50f0a011df519c92ab51130b5230e9df42300ae1d6a9fe0f14776a',
  '7f0cff62c34ed5f08eb71a1dbc3a9c76c178edd2e389e06b255b0089397f92a4',
  '2680ef2ea9c6e12c9e5ba8907de29a4440e146a1440ee0435d6decc7295a2c1d',
];

describe('compact candle storage', () => {
  it('answers exactly what the Decimal-per-bar storage answered', () => {
    const digests = SCENARIO_MARKETS.map((m, i) => scenarioDigest(m, START + i * 12_345_678, 40 + i));
    expect(digests).toEqual(RECORDED);
  }, 60_000);

  it('answers as a plain copy of itself (the state file form) does, step by step', () => {
    const m = SCENARIO_MARKETS[0]!;
    const compact = BarSeries.backfill({
      now: START,
      price: new Decimal(m.price),
      tick: new Decimal(m.tick),
      volatilityBps: m.volatilityBps,
      tickIntervalMs: 1000,
      depthPerLevel: new Decimal(m.depthPerLevel),
      szDecimals: m.szDecimals,
      random: new SeededRandom(7),
    });
    // fromJSON builds every bar as a plain Decimal bar: the storage before issue 37.
    const plain = BarSeries.fromJSON(compact.toJSON());
    const seen: string[] = [];
    runScenario(compact, START, 8, (b, now) => seen.push(answers(b, now)));
    let k = 0;
    runScenario(plain, START, 8, (b, now) => {
      expect(answers(b, now)).toBe(seen[k++]);
    });
    expect(k).toBe(seen.length);
  }, 60_000);

  it('a tick with more digits than a double holds gives prices of exactly whole ticks, volumes of exactly whole lots', () => {
    // 18 significant digits: k * tick in a double is off in the last ones (the simulator's Decimals hold 20).
    const tick = '0.00000123456789012345678';
    const bars = BarSeries.backfill({ now: START, price: new Decimal('0.0000037'), tick: new Decimal(tick), tickText: tick, volatilityBps: 0.1, tickIntervalMs: 1000, depthPerLevel: new Decimal('40'), szDecimals: 0, random: new SeededRandom(3) });
    const tuples = bars.toJSON() as BarTuple[];
    expect(tuples.length).toBeGreaterThan(1_000);
    for (const [, , o, h, l, c, v] of tuples) {
      // The app's Decimal (80 digits): decimal.js's default of 20 would round the check itself.
      for (const price of [o, h, l, c]) expect(new Exact(price).mod(tick).isZero(), price).toBe(true);
      expect(new Exact(v).isInteger(), v).toBe(true);
    }
  });
});

describe('a saved history restored on its grid (a restart from the state file)', () => {
  const gridOf = (m: (typeof SCENARIO_MARKETS)[number]) => ({ tick: m.tick, szDecimals: m.szDecimals });
  const backfilled = (m: (typeof SCENARIO_MARKETS)[number], seed: number) =>
    BarSeries.backfill({ now: START, price: new Decimal(m.price), tick: new Decimal(m.tick), volatilityBps: m.volatilityBps, tickIntervalMs: 1000, depthPerLevel: new Decimal(m.depthPerLevel), szDecimals: m.szDecimals, random: new SeededRandom(seed) });

  it('is compact again, and answers as the series it was saved from, step by step', () => {
    for (const [i, m] of SCENARIO_MARKETS.entries()) {
      const saved = backfilled(m, 11 + i);
      const restored = BarSeries.fromJSON(saved.toJSON(), gridOf(m));
      // Every bar but the newest (always a plain bar) comes back compact: a restart holds what a fresh start holds.
      expect(restored.compactLength).toBe(saved.length - 1);
      expect(restored.compactLength).toBeGreaterThan(3_000);
      const seen: string[] = [];
      runScenario(saved, START, 8, (b, now) => seen.push(answers(b, now)));
      let k = 0;
      runScenario(restored, START, 8, (b, now) => expect(answers(b, now)).toBe(seen[k++]));
      expect(k).toBe(seen.length);
    }
  }, 60_000);

  it('after live trading (merged notionals, late trades) it answers and saves as before the restart', () => {
    const m = SCENARIO_MARKETS[2]!;
    const series = backfilled(m, 5);
    let last = START;
    runScenario(series, START, 9, (_b, now) => (last = now));
    const text = series.toJSON();
    const restored = BarSeries.fromJSON(text, gridOf(m));
    expect(restored.compactLength).toBeGreaterThan(0);
    expect(restored.toJSON()).toEqual(text);
    expect(answers(restored, last)).toBe(answers(BarSeries.fromJSON(text), last));
  }, 60_000);

  it('an edited file: a price between ticks, a volume finer than a lot, a notional not at the mid are kept as written, never moved to the grid', () => {
    const m = SCENARIO_MARKETS[0]!; // tick 0.1, 4 size decimals
    const text = backfilled(m, 3).toJSON();
    const edited = text.map((b) => [...b] as typeof b);
    edited[40]![7] = '123.456789'; // a notional that is not volume x mid: kept beside the compact bar
    edited[50]![3] = (Number(edited[50]![3]) + 0.05).toFixed(2); // a high between ticks
    const restored = BarSeries.fromJSON(edited, gridOf(m));
    // Compact up to the first bar off the grid; that bar and the rest are plain, as written.
    expect(restored.compactLength).toBe(50);
    expect(restored.toJSON()).toEqual(BarSeries.fromJSON(edited).toJSON());
    expect(restored.toJSON()[40]![7]).toBe('123.456789');
    expect(restored.toJSON()[50]![3]).toBe(edited[50]![3]);
    const now = START + 60_000;
    expect(answers(restored, now)).toBe(answers(BarSeries.fromJSON(edited), now));

    const finer = text.map((b) => [...b] as typeof b);
    finer[7]![6] = `${finer[7]![6]}00001`.includes('.') ? `${finer[7]![6]}00001` : `${finer[7]![6]}.00001`; // below one lot
    const fromFiner = BarSeries.fromJSON(finer, gridOf(m));
    expect(fromFiner.compactLength).toBe(7);
    expect(fromFiner.toJSON()).toEqual(BarSeries.fromJSON(finer).toJSON());
  });

  it('a value is on the grid by its number, not its text: trailing zeros stay compact and save as the plain bar prints them; a notional is the mid when it equals it', () => {
    const m = SCENARIO_MARKETS[0]!; // tick 0.1, 4 size decimals
    const text = backfilled(m, 3).toJSON();
    const edited = text.map((b) => [...b] as typeof b);
    const padded = (x: string, tail = '000') => (x.includes('.') ? `${x}${tail}` : `${x}.${tail}`);
    edited[5]![2] = padded(edited[5]![2]); // the open, written with trailing zeros
    edited[6]![6] = padded(edited[6]![6]); // the volume
    edited[7]![7] = padded(edited[7]![7]); // the notional: still the mid
    edited[8]![7] = padded(edited[8]![7], '000000000000000000001'); // off the mid in its 30th digit: kept
    const restored = BarSeries.fromJSON(edited, gridOf(m));
    expect(restored.compactLength).toBe(text.length - 1);
    expect(restored.toJSON()).toEqual(BarSeries.fromJSON(edited).toJSON());
    expect(restored.toJSON()[5]![2]).toBe(text[5]![2]);
    expect(restored.toState().compact!.ntl).toEqual([[edited[8]![0], edited[8]![7]]]);

    // A mid notional past decimal.js's 20 digits is saved rounded, and that rounded text is the bar's mid;
    // the exact product, which the bar's Decimals never gave, is a notional kept as written.
    const t0 = text[0]![0];
    const [o, v] = ['1234567890.1', '123456789012'];
    const rounded = new Decimal(v).mul(new Decimal(o).plus(o).div(2));
    const exact = new (Decimal.clone({ precision: 60 }))(v).mul(o);
    expect(rounded.toFixed()).not.toBe(exact.toFixed());
    const wide = (ntl: string): BarTuple[] => [
      [t0, MINUTE_MS, o, o, o, o, v, ntl, 1],
      [t0 + MINUTE_MS, MINUTE_MS, o, o, o, o, '0', '0', 0],
    ];
    const grid = { tick: '0.1', szDecimals: 0 };
    const atMid = BarSeries.fromJSON(wide(rounded.toFixed()), grid);
    expect(atMid.compactLength).toBe(1);
    expect(atMid.toState().compact!.ntl).toEqual([]);
    expect(atMid.toJSON()).toEqual(wide(rounded.toFixed()));
    const asWritten = BarSeries.fromJSON(wide(exact.toFixed()), grid);
    expect(asWritten.compactLength).toBe(1);
    expect(asWritten.toState().compact!.ntl).toEqual([[t0, exact.toFixed()]]);
    expect(asWritten.toJSON()).toEqual(wide(exact.toFixed()));
  });
});

/**
 * A fixed run of one market's price history (backfill, live ticks, trades, late trades stamped into
 * closed bars, gaps, hourly and daily compactions) and everything the venue answers from it after each
 * phase: candleSnapshot of every interval over the whole history, the live candle of every interval (the
 * WebSocket candle channel), the 24h volume, the price a day ago and the saved bars. Its digest was
 * recorded with the Decimal-per-bar storage (before issue 37): any change of storage must answer the same.
 */
import { createHash } from 'node:crypto';
import Decimal from 'decimal.js';
import { SeededRandom } from '../../../src/sim/runtime/random.js';
import { BarSeries, CANDLE_INTERVAL_NAMES, DAY_MS, MINUTE_MS } from '../../../src/sim/venue/candles.js';

export interface ScenarioMarket {
  price: string;
  tick: string;
  szDecimals: number;
  depthPerLevel: string;
  volatilityBps: number;
}

export const SCENARIO_MARKETS: readonly ScenarioMarket[] = [
  { price: '3400', tick: '0.1', szDecimals: 4, depthPerLevel: '40', volatilityBps: 2 },
  { price: '0.0123456', tick: '0.0000001', szDecimals: 0, depthPerLevel: '250000', volatilityBps: 5 },
  { price: '97000', tick: '1', szDecimals: 5, depthPerLevel: '3', volatilityBps: 1 },
];

/** Everything answered from the series at `now`, as one text. */
export function answers(bars: BarSeries, now: number): string {
  const parts: unknown[] = [];
  for (const interval of CANDLE_INTERVAL_NAMES) {
    parts.push(bars.candles('X', interval, 0, Number.MAX_SAFE_INTEGER));
    parts.push(bars.candles('X', interval, now - 3 * DAY_MS, now - DAY_MS));
    parts.push(bars.currentCandle('X', interval));
  }
  const day = bars.volumeSince(now - DAY_MS);
  parts.push(day.base.toFixed(), day.notional.toFixed(), bars.priceAt(now - DAY_MS).toFixed(), bars.length, bars.toJSON());
  return JSON.stringify(parts);
}

/**
 * Runs the scenario on `bars` (built by backfill at `start`), calling `observe` after each phase with
 * the time. `bars` may be replaced by a copy (fromJSON of toJSON) at the same points by `copy`.
 */
export function runScenario(bars: BarSeries, start: number, seed: number, observe: (bars: BarSeries, now: number) => void): void {
  const random = new SeededRandom(seed);
  let now = start;
  observe(bars, now);
  const phases = [
    { steps: 200, gapMinutes: 0 }, // a few minutes of ticks and trades
    { steps: 400, gapMinutes: 90 }, // past an hour: a compaction
    { steps: 300, gapMinutes: 26 * 60 }, // over a day later: aged bars merge
    { steps: 300, gapMinutes: 3 * DAY_MS / MINUTE_MS }, // days later: the oldest days drop
  ];
  for (const phase of phases) {
    now += phase.gapMinutes * MINUTE_MS;
    for (let step = 0; step < phase.steps; step++) {
      now += random.int(1, 40) * 1000;
      const px = bars.priceAt(now).mul(1 + (random.next() - 0.5) / 500).toDecimalPlaces(7);
      const size = new Decimal(random.int(0, 5000)).div(1000);
      bars.apply(now, px, size, px.mul(size), 1);
      if (random.next() < 0.05) {
        // A trade stamped into a closed bar of the last day (an upstream's late print).
        const past = now - random.int(1, 23 * 60) * MINUTE_MS;
        const late = new Decimal(random.int(1, 999)).div(100);
        bars.apply(past, px, late, px.mul(late), 1);
      }
    }
    observe(bars, now);
  }
}

export function scenarioDigest(market: ScenarioMarket, start: number, seed: number): string {
  const bars = BarSeries.backfill({
    now: start,
    price: new Decimal(market.price),
    tick: new Decimal(market.tick),
    volatilityBps: market.volatilityBps,
    tickIntervalMs: 1000,
    depthPerLevel: new Decimal(market.depthPerLevel),
    szDecimals: market.szDecimals,
    random: new SeededRandom(seed),
  });
  const hash = createHash('sha256');
  runScenario(bars, start, seed + 1, (b, now) => hash.update(answers(b, now)));
  return hash.digest('hex');
}

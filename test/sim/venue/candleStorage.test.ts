/**
 * The backfilled price history is stored compactly (whole ticks and lots, issue 37): every answer the
 * venue gives from it (candleSnapshot of every interval, the WebSocket's live candle, 24h volume, the
 * price a day ago, the saved bars) is the same as with the Decimal-per-bar storage it replaced, through
 * live ticks, trades, late trades, hourly compactions, merges of aged bars and days-long gaps.
 */
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../src/sim/runtime/random.js';
import { BarSeries } from '../../../src/sim/venue/candles.js';
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
});

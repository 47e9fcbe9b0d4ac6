/**
 * The venue's 24h volume (issue 17, item 3): what a venue-info request asks of a market's bars
 * (BarSeries.volumeSince over the last 24 hours) with a day of history behind it, against the same on
 * a series with nothing behind it: kept as bars close, a request costs the same either way, where
 * summing a day of one-minute bars per request made it cost what the day holds.
 *
 * Each step applies a trade 10 s after the previous one (untimed: bars close and leave the window as in
 * a live run, and an hourly compaction merges aged bars, which is the bars' upkeep, not a request's
 * cost), then times READS reads of the 24h figures, as requests arriving between two trades would.
 * Every round starts from fresh series (built untimed: the history one by the venue's own backfill, the
 * floor one a single bar) and runs STEPS steps on both in lockstep, the two sides' reads interleaved
 * step by step (which goes first alternates), so a pause of the machine or of the garbage collector
 * falls on both alike. Gate: the median over rounds of history / floor, at most 1.5x.
 *
 *   npx tsx test/bench/venueVolumeBench.ts
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Decimal from 'decimal.js';
import { SeededRandom } from '../../src/sim/runtime/random.js';
import { BarSeries, DAY_MS, MINUTE_MS } from '../../src/sim/venue/candles.js';
import { formatResult, measureGates, type GateResult } from './measure.js';

const STEPS = 3_000;
const READS = 20;
const STEP_MS = 10_000;
/** A minute boundary, as the venue's clock would be at start. */
const START = Date.UTC(2026, 0, 15, 12, 0, 0);
const PRICE = new Decimal('3400');

function withHistory(): BarSeries {
  return BarSeries.backfill({
    now: START,
    price: PRICE,
    tick: new Decimal('0.1'),
    volatilityBps: 2,
    tickIntervalMs: 1000,
    depthPerLevel: new Decimal('40'),
    szDecimals: 4,
    random: new SeededRandom(17),
  });
}

/**
 * One bar holding what the history's last 24 hours hold: sums of the same magnitude (decimal.js costs
 * grow with digits), with nothing behind it.
 */
function withNothingBehind(): BarSeries {
  const day = withHistory().volumeSince(START - DAY_MS);
  return BarSeries.fromJSON([[START, MINUTE_MS, '3400', '3400', '3400', '3400', day.base.toFixed(), day.notional.toFixed(), 1]]);
}

/** STEPS trades on both series, each followed by READS timed 24h reads of each; ms spent reading each. */
function run(history: BarSeries, floor: BarSeries): { history: number; floor: number } {
  const size = new Decimal('0.5');
  const notional = size.mul(PRICE);
  const spent = { history: 0, floor: 0 };
  const checksums = { history: new Decimal(0), floor: new Decimal(0) };
  const reads = (bars: BarSeries, side: 'history' | 'floor', since: number): void => {
    const started = performance.now();
    for (let r = 0; r < READS; r++) checksums[side] = bars.volumeSince(since).base;
    spent[side] += performance.now() - started;
  };
  for (let i = 1; i <= STEPS; i++) {
    const now = START + i * STEP_MS;
    history.apply(now, PRICE, size, notional, 1);
    floor.apply(now, PRICE, size, notional, 1);
    if (i % 2 === 0) {
      reads(history, 'history', now - DAY_MS);
      reads(floor, 'floor', now - DAY_MS);
    } else {
      reads(floor, 'floor', now - DAY_MS);
      reads(history, 'history', now - DAY_MS);
    }
  }
  // The reads are used, so no engine can skip them; every trade of the run is in the last 24h.
  for (const side of ['history', 'floor'] as const) {
    if (checksums[side].lt(size.mul(STEPS))) throw new Error(`${side}: 24h volume ${checksums[side].toFixed()} misses trades`);
  }
  return spent;
}

export async function runVenueVolumeBench(options: { rounds?: number } = {}): Promise<GateResult[]> {
  // Warm-up (JIT): not counted.
  let round = run(withHistory(), withNothingBehind());
  return measureGates({
    rounds: options.rounds ?? 11,
    beforeRound: () => {
      round = run(withHistory(), withNothingBehind());
    },
    sides: { history: () => round.history, floor: () => round.floor },
    gates: [
      {
        name: 'venue 24h volume per request: a day of bars behind / nothing behind',
        of: (r) => r.history / r.floor,
        target: { op: '<=', value: 1.5 },
        detail: (m) => `median ${((m.history * 1000) / (STEPS * READS)).toFixed(2)}us vs ${((m.floor * 1000) / (STEPS * READS)).toFixed(2)}us per read`,
      },
    ],
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await runVenueVolumeBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed)) process.exitCode = 1;
}

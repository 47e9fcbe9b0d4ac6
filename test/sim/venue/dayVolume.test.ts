/**
 * The venue's 24h volume is kept as bars close (issue 17, item 3): the same figures as summing every bar
 * of the day from scratch, without reading a day of bars on every request.
 */
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../src/sim/runtime/random.js';
import { BarSeries, DAY_MS, MINUTE_MS, type BarTuple } from '../../../src/sim/venue/candles.js';
import { START } from './fixtures.js';

const Exact = Decimal.clone({ precision: 80 });

function series(seed: number, now = START): BarSeries {
  return BarSeries.backfill({
    now,
    price: new Decimal('3400'),
    tick: new Decimal('0.1'),
    volatilityBps: 2,
    tickIntervalMs: 1000,
    depthPerLevel: new Decimal('40'),
    szDecimals: 4,
    random: new SeededRandom(seed),
  });
}

/** What the venue reports, summed from scratch over the saved bars (exactly). */
function naive(bars: BarSeries, since: number): { base: string; notional: string } {
  let base = new Exact(0);
  let notional = new Exact(0);
  for (const [t, , , , , , v, ntl] of bars.toJSON() as BarTuple[]) {
    if (t < since) continue;
    base = base.plus(v);
    notional = notional.plus(ntl);
  }
  return { base: base.toFixed(), notional: notional.toFixed() };
}

function reported(bars: BarSeries, since: number): { base: string; notional: string } {
  const r = bars.volumeSince(since);
  return { base: r.base.toFixed(), notional: r.notional.toFixed() };
}

describe('24h volume kept as bars close', () => {
  it('matches a from-scratch sum through ticks, late trades, gaps, compactions and older windows', () => {
    const random = new SeededRandom(99);
    const bars = series(5);
    let now = START;
    for (let step = 0; step < 2500; step++) {
      const roll = random.next();
      if (roll < 0.02) now += random.int(1, 300) * MINUTE_MS; // a gap (a state file restored later)
      else now += random.int(1, 90) * 1000;
      const px = new Decimal(3000 + random.int(0, 800));
      const size = new Decimal(random.int(0, 5000)).div(1000);
      bars.apply(now, px, size, px.mul(size), 1);
      if (random.next() < 0.1) {
        // A trade stamped into an already closed bar of the last day.
        const past = now - random.int(1, 23 * 60) * MINUTE_MS;
        const late = new Decimal(random.int(1, 999)).div(100);
        bars.apply(past, px, late, px.mul(late), 1);
      }
      if (random.next() < 0.2) {
        // Mostly the venue's own question (now - 24h); now and then an older window, which merging can reach.
        const since = random.next() < 0.9 ? now - DAY_MS : now - random.int(24, 30) * 3_600_000;
        expect(reported(bars, since), `step ${step}`).toEqual(naive(bars, since));
      }
    }
  });

  it('reads only the bars that changed since the last request, not the whole day', () => {
    // Plain bars (the state file's form), whose volume reads can be counted; the backfill's compact
    // bars go through the same window code (candleStorage.test.ts shows both answer alike).
    const bars = BarSeries.fromJSON(series(8).toJSON());
    const now = START + 30_000;
    bars.apply(now, new Decimal('3400'), new Decimal('1'), new Decimal('3400'), 1);
    // Count every read of a bar's volume from here on.
    let reads = 0;
    for (const bar of (bars as unknown as { bars: { v: Decimal }[] }).bars) {
      let v = bar.v;
      Object.defineProperty(bar, 'v', {
        get: () => {
          reads++;
          return v;
        },
        set: (value: Decimal) => {
          v = value;
        },
      });
    }
    bars.volumeSince(now - DAY_MS);
    // The first request sums the day once (about 1,440 one-minute bars).
    expect(reads).toBeGreaterThan(1_000);
    for (let minute = 1; minute <= 5; minute++) {
      const t = now + minute * MINUTE_MS;
      bars.apply(t, new Decimal('3401'), new Decimal('2'), new Decimal('6802'), 1);
      reads = 0;
      const day = bars.volumeSince(t - DAY_MS);
      // One bar closed, about one left the window, and the live bar: a handful of reads.
      expect(reads, `minute ${minute}`).toBeLessThanOrEqual(4);
      expect({ base: day.base.toFixed(), notional: day.notional.toFixed() }).toEqual(naive(bars, t - DAY_MS));
    }
  });
});

/**
 * The store's per-account logs and nonce sets (issue 17, item 2): pages of a log are exactly what
 * filtering every row newest first gives (market, from/to, offset, limit, hidden rows, rows dropped by
 * retention, rows out of time order), and a nonce set answers exactly as a set of strings does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccountLog, type LogQuery } from '../../../src/sim/state/accountLog.js';
import { NonceSet } from '../../../src/sim/state/nonceSet.js';

interface Row {
  id: number;
  market: string;
  time: number;
  hidden: boolean;
}

const keys = { market: (r: Row) => r.market, time: (r: Row) => r.time };

/** The reference: every kept row, newest first, filtered one by one. */
function naive(rows: readonly Row[], q: LogQuery, hiddenSince: number | null): { ids: number[]; total: number } {
  const matching = [...rows]
    .reverse()
    .filter((r) => (q.market === null || r.market === q.market) && (q.from === null || r.time >= q.from) && (q.to === null || r.time <= q.to) && !(hiddenSince !== null && r.hidden));
  const end = q.limit === null ? matching.length : q.offset + q.limit;
  return { ids: matching.slice(q.offset, end).map((r) => r.id), total: matching.length };
}

const market = fc.constantFrom('BTC', 'ETH', 'SOL');

describe('account log pages', () => {
  it('match filtering every row, in time order or not, with hidden and dropped rows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ market, step: fc.integer({ min: 0, max: 3 }), back: fc.boolean() }), { maxLength: 300 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 40 }),
        fc.option(fc.integer({ min: 20, max: 200 }), { nil: null }),
        fc.array(
          fc.record({
            market: fc.option(market, { nil: null }),
            from: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
            to: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
            offset: fc.integer({ min: 0, max: 320 }),
            limit: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (specs, disorder, lag, keep, queries) => {
          const log = new AccountLog<Row>(keys);
          const kept: Row[] = [];
          let time = 0;
          specs.forEach((spec, id) => {
            // A row out of time order now and then (only when asked): the log must notice and still answer right.
            time = disorder && spec.back ? Math.max(0, time - 5) : time + spec.step;
            const row = { id, market: spec.market, time, hidden: false };
            log.append(row);
            kept.push(row);
            if (keep !== null) {
              log.trimTo(keep);
              while (kept.length > keep) kept.shift();
            }
          });
          // Hidden rows (orders inside their persist lag) are only ever among the newest `lag` ms.
          const now = time;
          const since = now - lag + 1;
          for (const r of kept) r.hidden = r.time >= since && (r.id * 7919) % 3 === 0;
          for (const q of queries) {
            for (const hidden of [null, since]) {
              const page = log.page(q, hidden === null ? undefined : { since: hidden, hides: (r) => r.hidden });
              expect({ ids: page.rows.map((r) => r.id), total: page.total }).toEqual(naive(kept, q, hidden));
            }
          }
          expect(log.size).toBe(kept.length);
          expect([...log.rows()].map((r) => r.id)).toEqual(kept.map((r) => r.id));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('account log retention', () => {
  it('drops thousands of the oldest rows from the log and its market index alike', () => {
    const log = new AccountLog<Row>(keys);
    const kept: Row[] = [];
    for (let id = 0; id < 5_000; id++) {
      const row = { id, market: id % 3 === 0 ? 'BTC' : 'ETH', time: id, hidden: false };
      log.append(row);
      kept.push(row);
      log.trimTo(150);
    }
    const last = kept.slice(-150);
    for (const q of [
      { market: null, from: null, to: null, offset: 0, limit: 200 },
      { market: 'BTC', from: null, to: null, offset: 3, limit: 20 },
      { market: 'ETH', from: 4_900, to: 4_950, offset: 0, limit: null },
    ]) {
      const page = log.page(q);
      expect({ ids: page.rows.map((r) => r.id), total: page.total }).toEqual(naive(last, q, null));
    }
  });
});

describe('nonce set', () => {
  it('answers as a set of the same strings: in order, out of order, repeated, and beyond 2^53', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 1_700_000_000_000, max: 1_700_000_005_000 }).map(String),
            fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 70n }).map(String),
            fc.integer({ min: 1, max: 50 }).map(String),
          ),
          { maxLength: 3_000 },
        ),
        fc.array(fc.integer({ min: 1_699_999_999_990, max: 1_700_000_005_010 }).map(String), { maxLength: 200 }),
        (added, probes) => {
          const set = new NonceSet();
          const reference = new Set<string>();
          for (const n of added) {
            expect(set.has(n)).toBe(reference.has(n));
            set.add(n);
            reference.add(n);
          }
          for (const p of [...probes, ...added]) expect(set.has(p), p).toBe(reference.has(p));
          expect(set.size).toBe(reference.size);
          expect(new Set(set.values())).toEqual(reference);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps a numeric nonce in 8 bytes: a million of them fit in a few megabytes', () => {
    const set = new NonceSet();
    const base = 1_770_000_000_000;
    for (let i = 0; i < 1_000_000; i++) set.add(String(base + i));
    const sorted = (set as unknown as { sorted: Float64Array }).sorted;
    // All but the last batch are in the sorted array (8 bytes each); the rest wait in a small set.
    expect(sorted.length).toBeGreaterThan(870_000);
    expect(set.size).toBe(1_000_000);
    expect(set.has(String(base))).toBe(true);
    expect(set.has(String(base + 999_999))).toBe(true);
    expect(set.has(String(base - 1))).toBe(false);
  });
});

/**
 * The whole-record check of a stored TWAP (src/shared/algos/twap/twapRecord.ts checkTwapRecord): examples of
 * the damage issue #26 names, then properties over random healthy records: every one passes and
 * round-trips through JSON unchanged, and every mutation that breaks an invariant (a negative fill, an
 * index out of place, a duplicated slice, a forged client order id, a negative or changed size, a fill
 * above what was sent, an order claimed twice) is caught.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/index.js';
import { checkTwapRecord, pendingSliceRecord, sliceClientOrderId, sliceIndexOfClientOrderId, type TwapRecord, type TwapSliceRecord } from '../../src/shared/algos/twap/twapRecord.js';

const ID = 'a1b2c3d4e5f6';

function slice(i: number, size: string, over: Partial<TwapSliceRecord> = {}): TwapSliceRecord {
  return { ...pendingSliceRecord(ID, i, 1_000 + i * 5_000, size), ...over };
}

function filled(i: number, size: string): TwapSliceRecord {
  return slice(i, size, { status: 'filled', sent_size: size, limit_price: '3417', nonce: String(i + 1), sent_at: 1_000 + i * 5_000, order_id: `o-${i}`, filled_size: size, avg_fill_price: '3400', fills: [{ tid: `t-${i}`, price: '3400', size, time: 1_001 + i * 5_000 }] });
}

function record(slices: TwapSliceRecord[], total = slices.reduce((a, s) => a.plus(s.size), new Decimal(0)).toFixed()): TwapRecord {
  return {
    version: 1,
    id: ID,
    profile: 'sim',
    wallet: '0x' + '1'.repeat(40),
    market: 'ETH',
    side: 'BUY',
    total_size: total,
    reduce_only: false,
    slippage_bps: 50,
    leverage: 5,
    duration_ms: slices.length * 5_000,
    interval_ms: 5_000,
    randomize_time_pct: 0,
    randomize_size_pct: 0,
    seed: 1,
    arrival_mark: '3400',
    allow_large: false,
    created_at: 1_000,
    status: 'running',
    requested: null,
    stop_reason: null,
    stop_detail: null,
    slices,
    notes: [],
    updated_at: 2_000,
  };
}

function problems(r: unknown): string {
  const c = checkTwapRecord(r);
  if (c.ok) throw new Error('expected the record to be refused');
  return c.problems.join('\n');
}

describe('TWAP record check: the damage of issue #26', () => {
  it('a healthy record passes', () => {
    expect(checkTwapRecord(record([filled(0, '0.01'), slice(1, '0.01')])).ok).toBe(true);
  });

  it('item 10: a negative filled_size on a finished slice', () => {
    expect(problems(record([{ ...filled(0, '0.01'), filled_size: '-0.48' }, slice(1, '0.01')]))).toMatch(/slice 1 has filled_size -0\.48 \(must not be negative\)/);
  });

  it('item 11: slice indices that do not match their positions', () => {
    expect(problems(record([slice(0, '0.01', { index: 1 }), slice(1, '0.01', { index: 0 })]))).toMatch(/slice 1 says it is index 1, but it is at position 0/);
    expect(problems(record([slice(0, '0.01'), slice(1, '0.01', { index: 7 })]))).toMatch(/slice 2 says it is index 7/);
  });

  it('item 12: a forged client order id, a duplicated index, a negative slice size', () => {
    expect(problems(record([slice(0, '0.01', { status: 'sending', sent_size: '0.01', limit_price: '3417', nonce: '1', sent_at: 1_000, client_order_id: 'by-hand-1' }), slice(1, '0.01')]))).toMatch(
      /slice 1 carries client order id 'by-hand-1', not 'twap-a1b2c3d4e5f6-0'/,
    );
    // The filled slice copied: 0.02 filled after one 0.01 was sent.
    const dup = problems(record([filled(0, '0.01'), filled(0, '0.01')], '0.02'));
    expect(dup).toMatch(/slice 2 says it is index 0, but it is at position 1/);
    expect(dup).toMatch(/order o-0 is claimed by more than one slice/);
    expect(problems(record([slice(0, '-0.01'), slice(1, '0.03')], '0.02'))).toMatch(/slice 1 has size -0\.01 \(must be above 0\)/);
  });

  it('the slices must add up to the target; a record that is not one is refused by its schema', () => {
    expect(problems(record([slice(0, '0.01'), slice(1, '0.01')], '0.03'))).toMatch(/the slice sizes add up to 0\.02, not the target 0\.03/);
    expect(problems({ ...record([slice(0, '0.01')]), slices: 'none' })).toMatch(/^slices: /);
    expect(problems(null)).toMatch(/^record: /);
    // Text from the file is cut short in what is shown.
    expect(problems(record([slice(0, '0.01', { client_order_id: 'x'.repeat(100_000) }), slice(1, '0.01')]))).toMatch(/^slice 1 carries client order id 'x{40}…', not /);
  });

  it("client order ids: only this TWAP's own form names a slice", () => {
    expect(sliceIndexOfClientOrderId(ID, sliceClientOrderId(ID, 12))).toBe(12);
    for (const other of ['twap-a1b2c3d4e5f7-0', 'twap-a1b2c3d4e5f6-01', 'twap-a1b2c3d4e5f6-', 'by-hand', `twap-${ID}-0 `]) expect(sliceIndexOfClientOrderId(ID, other)).toBeNull();
  });
});

// ---- properties -----------------------------------------------------------------------------------------

const sliceState = fc.constantFrom('pending', 'filled', 'partial', 'unfilled', 'sending', 'sent', 'missed', 'skipped', 'rejected', 'unsent');

/** A healthy record: 2..30 slices of 1..500 thousandths, each in some state its runner could leave it in. */
const healthy = fc.array(fc.tuple(fc.integer({ min: 1, max: 500 }), sliceState, fc.integer({ min: 1, max: 500 })), { minLength: 2, maxLength: 30 }).map((parts) =>
  record(
    parts.map(([units, state, part], i) => {
      const size = new Decimal(units).div(1000).toFixed();
      const sent = new Decimal(Math.min(units, part)).div(1000).toFixed();
      if (state === 'filled') return filled(i, size);
      if (state === 'partial' || state === 'unfilled') {
        const f = state === 'partial' ? new Decimal(sent).div(2).toFixed() : '0';
        return { ...filled(i, size), status: state, sent_size: sent, filled_size: f, avg_fill_price: state === 'partial' ? '3400' : null, fills: state === 'partial' ? [{ tid: `t-${i}`, price: '3400', size: f, time: 9 }] : [] };
      }
      if (state === 'sending') return slice(i, size, { status: 'sending', sent_size: sent, limit_price: '3417', nonce: '5', sent_at: 7 });
      if (state === 'sent') return slice(i, size, { status: 'sent', sent_size: sent, limit_price: '3417', nonce: '5', sent_at: 7, order_id: `o-${i}` });
      return slice(i, size, { status: state, reason: state === 'pending' ? null : 'x' });
    }),
  ),
);

type Mutation = (r: TwapRecord, k: number) => TwapRecord;
const at = (r: TwapRecord, k: number) => k % r.slices.length;
const withSlice = (r: TwapRecord, k: number, change: (s: TwapSliceRecord) => TwapSliceRecord): TwapRecord => ({ ...r, slices: r.slices.map((s, i) => (i === at(r, k) ? change(s) : s)) });

const MUTATIONS: Record<string, Mutation> = {
  'negative filled_size': (r, k) => withSlice(r, k, (s) => ({ ...s, filled_size: '-0.5' })),
  'index off its position': (r, k) => withSlice(r, k, (s) => ({ ...s, index: s.index + 1 + (k % 3) })),
  'two slices swapped': (r, k) => {
    const i = at(r, k);
    const j = (i + 1) % r.slices.length;
    const slices = [...r.slices];
    [slices[i], slices[j]] = [slices[j]!, slices[i]!];
    return { ...r, slices };
  },
  'a slice duplicated': (r, k) => {
    const slices = [...r.slices];
    slices.splice(at(r, k) + 1, 0, r.slices[at(r, k)]!);
    return { ...r, slices };
  },
  'a forged client order id': (r, k) => withSlice(r, k, (s) => ({ ...s, client_order_id: `twap-${r.id}-${s.index + 1}` })),
  'a negative size, the sum kept': (r, k) => {
    const i = at(r, k);
    const j = (i + 1) % r.slices.length;
    const s = new Decimal(r.slices[i]!.size);
    return { ...r, slices: r.slices.map((x, n) => (n === i ? { ...x, size: s.neg().toFixed() } : n === j ? { ...x, size: new Decimal(x.size).plus(s.mul(2)).toFixed() } : x)) };
  },
  'the target changed': (r, k) => ({ ...r, total_size: new Decimal(r.total_size).plus(new Decimal(k + 1).div(1000)).toFixed() }),
  'a fill above what was sent': (r, k) => withSlice(r, k, (s) => ({ ...s, sent_size: s.sent_size ?? null, filled_size: new Decimal(s.sent_size ?? '0').plus('0.001').toFixed() })),
  'an order claimed twice': (r) => ({ ...r, slices: r.slices.map((s, n) => (n < 2 ? { ...s, status: 'sent' as const, sent_size: s.size, limit_price: '1', nonce: '1', sent_at: 1, order_id: 'same', filled_size: '0', fills: [], avg_fill_price: null } : s)) }),
};

describe('TWAP record check: properties', () => {
  it('every healthy record passes and round-trips through JSON unchanged', () => {
    fc.assert(
      fc.property(healthy, (r) => {
        const c = checkTwapRecord(JSON.parse(JSON.stringify(r)));
        expect(c.ok).toBe(true);
        if (c.ok) expect(c.record).toEqual(r);
      }),
    );
  });

  it('every mutation that breaks an invariant is caught', () => {
    fc.assert(
      fc.property(healthy, fc.constantFrom(...Object.keys(MUTATIONS)), fc.nat(), (r, name, k) => {
        const c = checkTwapRecord(JSON.parse(JSON.stringify(MUTATIONS[name]!(r, k))));
        expect(c.ok, name).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

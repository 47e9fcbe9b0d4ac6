/**
 * The chase's pure rules: where it rests (inside the spread, whole ticks, never crossing), when it moves
 * (away by a tick or more, at most once per interval), the max distance, the phases, the book it reads,
 * its flags and its record's whole-record check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, isMultipleOf } from '../../../src/shared/decimal/index.js';
import {
  chasePhase,
  chaseTarget,
  checkChaseBook,
  checkChaseRecord,
  damagedChaseSummary,
  distanceMoved,
  maxDistanceReached,
  nextDeadlineIn,
  parseChaseFlags,
  parseMaxDistance,
  remainingSize,
  repriceDecision,
  wouldTake,
  type ChaseRecord,
} from '../../../src/shared/algos/chase/index.js';

const TICK = '0.1';

describe('chaseTarget', () => {
  it('rests at the best bid (buy) or ask (sell), or offset ticks inside the spread', () => {
    expect(chaseTarget('BUY', { bid: '3398.3', ask: '3401.7' }, 0, TICK)).toBe('3398.3');
    expect(chaseTarget('BUY', { bid: '3398.3', ask: '3401.7' }, 2, TICK)).toBe('3398.5');
    expect(chaseTarget('SELL', { bid: '3398.3', ask: '3401.7' }, 0, TICK)).toBe('3401.7');
    expect(chaseTarget('SELL', { bid: '3398.3', ask: '3401.7' }, 3, TICK)).toBe('3401.4');
  });

  it('never crosses: a large offset stops one tick short of the other side', () => {
    expect(chaseTarget('BUY', { bid: '100.0', ask: '100.3' }, 50, TICK)).toBe('100.2');
    expect(chaseTarget('SELL', { bid: '100.0', ask: '100.3' }, 50, TICK)).toBe('100.1');
    // A one-tick spread: the offset has no room; the order stays at its own best.
    expect(chaseTarget('BUY', { bid: '100.0', ask: '100.1' }, 3, TICK)).toBe('100');
  });

  it('puts an off-grid best on the grid toward its own side', () => {
    expect(chaseTarget('BUY', { bid: '100.05', ask: '100.37' }, 0, TICK)).toBe('100');
    expect(chaseTarget('SELL', { bid: '100.05', ask: '100.37' }, 0, TICK)).toBe('100.4');
  });

  it('property: on the grid, post-only never at or through the other side, offset respected when there is room', () => {
    const tick = fc.constantFrom('0.1', '0.5', '1', '0.01', '0.25');
    fc.assert(
      fc.property(tick, fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 30 }), fc.constantFrom('BUY' as const, 'SELL' as const), (t, bidSteps, spreadSteps, offset, side) => {
        const bid = new Decimal(t).mul(bidSteps);
        const ask = bid.plus(new Decimal(t).mul(spreadSteps));
        const best = { bid: bid.toFixed(), ask: ask.toFixed() };
        const px = chaseTarget(side, best, offset, t)!;
        expect(px).not.toBeNull();
        expect(isMultipleOf(px, t)).toBe(true);
        expect(wouldTake(side, px, best)).toBe(false);
        const inside = Math.min(offset, spreadSteps - 1);
        const expected = side === 'BUY' ? bid.plus(new Decimal(t).mul(inside)) : ask.minus(new Decimal(t).mul(inside));
        expect(new Decimal(px).eq(expected)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('repriceDecision', () => {
  it('moves only away by a whole tick, at most once per interval', () => {
    expect(repriceDecision('BUY', '100', '100.1', TICK, 10_000, null, 1_000)).toEqual({ move: true, to: '100.1', ticks: 1 });
    expect(repriceDecision('BUY', '100', '100', TICK, 10_000, null, 1_000)).toEqual({ move: false, why: 'in_place' });
    expect(repriceDecision('BUY', '100', '99.9', TICK, 10_000, null, 1_000)).toEqual({ move: false, why: 'toward' });
    expect(repriceDecision('SELL', '100', '99.7', TICK, 10_000, 9_400, 1_000)).toEqual({ move: false, why: 'too_soon', waitMs: 400 });
    expect(repriceDecision('SELL', '100', '99.7', TICK, 10_400, 9_400, 1_000)).toEqual({ move: true, to: '99.7', ticks: 3 });
    expect(repriceDecision('SELL', '100', '100.2', TICK, 10_400, 9_400, 1_000)).toEqual({ move: false, why: 'toward' });
  });

  it('property: a move is always away and never sooner than the interval after the last', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 1, max: 5_000 }), fc.constantFrom('BUY' as const, 'SELL' as const), (cur, tgt, since, interval, side) => {
        const d = repriceDecision(side, new Decimal(cur).div(10).toFixed(), new Decimal(tgt).div(10).toFixed(), TICK, 100_000, 100_000 - since, interval);
        if (d.move) {
          expect(since).toBeGreaterThanOrEqual(interval);
          expect(side === 'BUY' ? tgt > cur : tgt < cur).toBe(true);
        }
      }),
    );
  });
});

describe('max distance, phases', () => {
  it('measures from where it started, away only; a percent of the start or a price', () => {
    expect(distanceMoved('BUY', '100', '101.5').toFixed()).toBe('1.5');
    expect(distanceMoved('BUY', '100', '99').toFixed()).toBe('0');
    expect(distanceMoved('SELL', '100', '99').toFixed()).toBe('1');
    expect(maxDistanceReached('BUY', { kind: 'percent', value: '0.5' }, '3400', '3416.9')).toBe(false);
    expect(maxDistanceReached('BUY', { kind: 'percent', value: '0.5' }, '3400', '3417')).toBe(true);
    expect(maxDistanceReached('SELL', { kind: 'price', value: '5' }, '3400', '3395')).toBe(true);
    expect(maxDistanceReached('SELL', null, '3400', '1')).toBe(false);
  });

  it('times out, crosses after --taker-after, and knows the next deadline', () => {
    expect(chasePhase(1_000, 1_500, 5_000, 2_000)).toBe('maker');
    expect(chasePhase(1_000, 3_000, 5_000, 2_000)).toBe('taker');
    expect(chasePhase(1_000, 6_000, 5_000, 2_000)).toBe('timed_out');
    expect(chasePhase(1_000, 1e12, null, null)).toBe('maker');
    expect(nextDeadlineIn(1_000, 1_500, 5_000, 2_000)).toBe(1_500);
    expect(nextDeadlineIn(1_000, 3_500, 5_000, 2_000)).toBe(2_500);
    expect(nextDeadlineIn(1_000, 3_500, null, null)).toBeNull();
    expect(remainingSize('0.05', '0.02')).toBe('0.03');
  });
});

describe('checkChaseBook', () => {
  const good = { coin: 'ETH', time: 5, levels: [[{ px: '99.9', sz: '1', n: 1 }, { px: '99.8', sz: '1', n: 1 }], [{ px: '100.1', sz: '1', n: 1 }]] };
  it('reads the best bid and ask of a whole, sane book', () => {
    expect(checkChaseBook(good, 'ETH')).toEqual({ ok: true, best: { bid: '99.9', ask: '100.1' }, time: 5 });
  });
  it('refuses a crossed, unsorted, empty, foreign or malformed book', () => {
    const bad: [unknown, RegExp][] = [
      [{ ...good, coin: 'BTC' }, /not ETH/],
      [{ ...good, levels: [[{ px: '100.2', sz: '1', n: 1 }], [{ px: '100.1', sz: '1', n: 1 }]] }, /crossed/],
      [{ ...good, levels: [[{ px: '99.8', sz: '1', n: 1 }, { px: '99.9', sz: '1', n: 1 }], [{ px: '100.1', sz: '1', n: 1 }]] }, /not falling/],
      [{ ...good, levels: [[], [{ px: '100.1', sz: '1', n: 1 }]] }, /no bids/],
      [{ ...good, levels: [[{ px: '-1', sz: '1', n: 1 }], [{ px: '100.1', sz: '1', n: 1 }]] }, /positive price/],
      [{ ...good, levels: [[{ px: '99', sz: '0', n: 1 }], [{ px: '100.1', sz: '1', n: 1 }]] }, /positive size/],
      [{ ...good, levels: [[{ px: 'NaN', sz: '1', n: 1 }], [{ px: '100.1', sz: '1', n: 1 }]] }, /positive price/],
      [{ ...good, time: -1 }, /no time/],
      [null, /not an object/],
    ];
    for (const [book, why] of bad) {
      const r = checkChaseBook(book, 'ETH');
      expect(r.ok, JSON.stringify(book)).toBe(false);
      if (!r.ok) expect(r.problem).toMatch(why);
    }
  });
});

describe('parseChaseFlags', () => {
  it('reads every flag, with the defaults', () => {
    expect(parseChaseFlags({})).toEqual({ offset_ticks: 0, max_distance: null, timeout_ms: null, interval_ms: 1_000, taker_after_ms: null, on_limit: 'leave' });
    expect(parseChaseFlags({ offsetTicks: '2', maxDistance: '0.5%', timeout: '5m', interval: '2s', takerAfter: '1m', onLimit: 'cancel' })).toEqual({
      offset_ticks: 2,
      max_distance: { kind: 'percent', value: '0.5' },
      timeout_ms: 300_000,
      interval_ms: 2_000,
      taker_after_ms: 60_000,
      on_limit: 'cancel',
    });
    expect(parseMaxDistance('12.5')).toEqual({ kind: 'price', value: '12.5' });
  });
  it('refuses bad input, naming the flag, never rounding', () => {
    const bad: [Parameters<typeof parseChaseFlags>[0], RegExp][] = [
      [{ timeout: '300' }, /^timeout: '300' is not a duration: a number needs a unit/],
      [{ interval: '0s' }, /^interval: must be at least 1s/],
      [{ offsetTicks: '1.5' }, /^offset-ticks:/],
      [{ offsetTicks: '-1' }, /^offset-ticks:/],
      [{ offsetTicks: '1001' }, /^offset-ticks: at most 1000/],
      [{ maxDistance: '0%' }, /^max-distance: must be greater than 0/],
      [{ maxDistance: '100%' }, /^max-distance: a percent must be below 100%/],
      [{ maxDistance: '1e3' }, /^max-distance:/],
      [{ maxDistance: '%' }, /^max-distance:/],
      [{ onLimit: 'keep' }, /^on-limit: 'keep' is not one of leave, cancel/],
      [{ timeout: '1m', takerAfter: '1m' }, /^taker-after: must be shorter than --timeout/],
    ];
    for (const [flags, why] of bad) expect(() => parseChaseFlags(flags), JSON.stringify(flags)).toThrow(why);
  });
});

describe('checkChaseRecord', () => {
  const base: ChaseRecord = {
    version: 1,
    id: 'a1b2c3d4e5f6',
    profile: 'sim',
    wallet: '0x' + '1'.repeat(40),
    market: 'ETH',
    coin: 'ETH',
    side: 'BUY',
    size: '0.05',
    leverage: 5,
    offset_ticks: 0,
    max_distance: { kind: 'percent', value: '0.5' },
    timeout_ms: 300_000,
    interval_ms: 1_000,
    taker_after_ms: null,
    on_limit: 'leave',
    status: 'working',
    end_reason: null,
    start_best: '3398.3',
    started_at: 1,
    order: { order_id: 'o1', client_order_id: 'chase-a1b2c3d4e5f6-1', price: '3398.3', size: '0.05', kind: 'post', filled_size: '0', sent_at: 1 },
    moving: null,
    filled_before: '0',
    sends: 1,
    moves: 0,
    last_move_at: null,
    cancel_sent_at: null,
    notes: [],
    created_at: 1,
    updated_at: 1,
  };
  it('passes a record as written', () => {
    expect(checkChaseRecord(base)).toEqual({ ok: true, record: base });
  });
  it('refuses a record whose parts disagree, or that is not one', () => {
    const bad: [unknown, RegExp][] = [
      [{ ...base, filled_before: '0.04', order: { ...base.order!, filled_size: '0.02' } }, /filled 0.06 of 0.05/],
      [{ ...base, order: { ...base.order!, client_order_id: 'chase-ffffffffffff-1' } }, /not one of this chase's sends/],
      [{ ...base, order: { ...base.order!, client_order_id: 'chase-a1b2c3d4e5f6-2' } }, /not one of this chase's sends/],
      [{ ...base, sends: 2, moving: { client_order_id: 'chase-a1b2c3d4e5f6-2', from_order_id: 'o9', to_price: '3399', size: '0.05', sent_at: 2, new_order_id: null } }, /does not modify the live order/],
      [{ ...base, status: 'done' }, /done without a reason/],
      [{ ...base, end_reason: 'filled' }, /working with an end reason/],
      [{ ...base, size: '-1' }, /size: must be greater than 0/],
      [{ ...base, size: 'lots', filled_before: 'x', max_distance: { kind: 'percent', value: 'far' } }, /size: expected a decimal string/],
      [{ ...base, max_distance: { kind: 'percent', value: '150' } }, /below 100/],
      [{ ...base, taker_after_ms: 300_000 }, /taker_after_ms is not before timeout_ms/],
      [{ ...base, extra: 1, version: 2 }, /version/],
      ['{}', /record/],
    ];
    for (const [raw, why] of bad) {
      const c = checkChaseRecord(raw);
      expect(c.ok, JSON.stringify(raw)).toBe(false);
      if (!c.ok) expect(c.problems.join('; ')).toMatch(why);
    }
  });
  it('a damaged record still tells which it was, field by field', () => {
    expect(damagedChaseSummary({ ...base, size: 'x' })).toEqual({ profile: 'sim', wallet: base.wallet, market: 'ETH' });
    expect(damagedChaseSummary({ profile: 7 })).toEqual({ profile: null, wallet: null, market: null });
  });
});

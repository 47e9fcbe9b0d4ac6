/**
 * The pure rules of the risk limits (src/shared/risk): the day's PnL since the reset, the drawdown from
 * the day's peak, the trading day itself, the room left, and the order check, as cases and as fast-check
 * properties. The property that matters most: an order that only reduces exposure is never refused,
 * whatever the limits, the lockout or the day.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { dayStartOf, nextResetAfter } from '../../../src/shared/risk/riskDay.js';
import { NO_LIMITS, type RiskLimits } from '../../../src/shared/risk/riskLimits.js';
import { checkOrder, drawdownPct, nextPeak, onlyReduces, pnlSinceReset, roomLeft, type RiskLeg } from '../../../src/shared/risk/riskRules.js';

const D = (x: string | number) => new Decimal(x);
const cents = (max: number) => fc.integer({ min: -max * 100, max: max * 100 }).map((n) => D(n).div(100));
const positiveCents = (max: number) => fc.integer({ min: 1, max: max * 100 }).map((n) => D(n).div(100));
const DAY = 86_400_000;

describe('the trading day', () => {
  it('starts at the reset time (UTC) at or before now and ends a day later', () => {
    const t = Date.UTC(2026, 11, 6, 0, 46);
    expect(dayStartOf(t, '00:00')).toBe(Date.UTC(2026, 11, 6));
    expect(dayStartOf(t, '08:30')).toBe(Date.UTC(2026, 11, 5, 8, 30));
    expect(nextResetAfter(t, '08:30')).toBe(Date.UTC(2026, 11, 6, 8, 30));
    expect(dayStartOf(Date.UTC(2026, 11, 6, 8, 30), '08:30')).toBe(Date.UTC(2026, 11, 6, 8, 30));
  });

  it('property: the day contains now and lasts 24 h', () => {
    fc.assert(
      fc.property(fc.integer({ min: DAY, max: 4_000_000_000_000 }), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), (now, h, m) => {
        const reset = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
        const start = dayStartOf(now, reset);
        expect(start).toBeLessThanOrEqual(now);
        expect(nextResetAfter(now, reset)).toBe(start + DAY);
        expect(nextResetAfter(now, reset)).toBeGreaterThan(now);
        expect(new Date(start).getUTCHours() * 60 + new Date(start).getUTCMinutes()).toBe(h * 60 + m);
      }),
    );
  });
});

describe('PnL since the reset', () => {
  // Times cluster around the reset too, where an off-by-some-ms rule would show.
  const when = fc.oneof(fc.integer({ min: 0, max: 2 * DAY }), fc.integer({ min: DAY - 5000, max: DAY + 5000 }));
  const fill = fc.record({ filled_at: when, fee: positiveCents(50).map(String), closed_pnl: fc.option(cents(1000).map(String), { nil: undefined }) });
  const payment = fc.record({ settled_at: when, payment: cents(20).map(String) });

  it('counts closed PnL less fees and funding at or after the reset, plus unrealized now', () => {
    const pnl = pnlSinceReset(
      DAY,
      [
        { filled_at: DAY - 1, fee: '1', closed_pnl: '-500' },
        { filled_at: DAY, fee: '0.5', closed_pnl: '-40' },
        { filled_at: DAY + 5, fee: '0.25' },
      ],
      [{ settled_at: DAY + 10, payment: '-1.25' }, { settled_at: 10, payment: '-100' }],
      D('-10'),
    );
    expect(pnl.toFixed()).toBe('-52');
  });

  it('property: what happened before the reset never counts; each later fill adds closed PnL less its fee', () => {
    fc.assert(
      fc.property(fc.array(fill, { maxLength: 30 }), fc.array(payment, { maxLength: 10 }), cents(1000), fill, (fills, payments, unrealized, extra) => {
        const base = pnlSinceReset(DAY, fills, payments, unrealized);
        const onlyToday = pnlSinceReset(DAY, fills.filter((f) => f.filled_at >= DAY), payments.filter((p) => p.settled_at >= DAY), unrealized);
        expect(base.eq(onlyToday)).toBe(true);
        const withExtra = pnlSinceReset(DAY, [...fills, extra], payments, unrealized);
        const delta = extra.filled_at >= DAY ? D(extra.closed_pnl ?? 0).minus(extra.fee) : D(0);
        expect(withExtra.minus(base).eq(delta)).toBe(true);
      }),
    );
  });
});

describe('drawdown from the peak', () => {
  it('cases', () => {
    expect(drawdownPct(D(1000), D(950)).toFixed()).toBe('5');
    expect(drawdownPct(D(1000), D(1100)).toFixed()).toBe('0');
    expect(nextPeak(null, D(5)).toFixed()).toBe('5');
    expect(nextPeak(D(7), D(5)).toFixed()).toBe('7');
  });

  it('property: a running peak makes the drawdown 0 at a new high, within 0..100 for non-negative equity, and larger as equity falls', () => {
    fc.assert(
      fc.property(fc.array(positiveCents(100_000), { minLength: 1, maxLength: 40 }), (equities) => {
        let peak: Decimal | null = null;
        for (const e of equities) {
          peak = nextPeak(peak, e);
          const dd = drawdownPct(peak, e);
          expect(dd.gte(0) && dd.lte(100)).toBe(true);
          if (e.eq(peak)) expect(dd.isZero()).toBe(true);
          expect(peak.gte(e)).toBe(true);
          const lower = e.div(2);
          expect(drawdownPct(peak, lower).gt(dd)).toBe(true);
        }
      }),
    );
  });
});

describe('room left', () => {
  it('reads as the header and `perps limits show` say it, with a warning under a quarter', () => {
    const limits = { daily_loss: '100', max_drawdown: '5' };
    const rooms = roomLeft(limits, { pnl: D('-62'), drawdown: D('2.9') });
    expect(rooms.map((r) => r.text)).toEqual(['Daily loss: 38 of 100 USD left', 'Drawdown: 2.1 of 5% left']);
    expect(rooms.map((r) => r.warning)).toEqual([false, false]);
    expect(roomLeft(limits, { pnl: D('-80'), drawdown: D('4') }).map((r) => r.warning)).toEqual([true, true]);
    expect(roomLeft(limits, { pnl: D('-300'), drawdown: D('9') }).map((r) => r.left)).toEqual(['0', '0']);
  });
});

const MARKETS = ['BTC', 'ETH', 'SOL'];
const limitValue = fc.option(positiveCents(5000).map((d) => d.toFixed()), { nil: null });
const limitsArb: fc.Arbitrary<RiskLimits> = fc.record({
  daily_loss: limitValue,
  max_drawdown: fc.option(fc.integer({ min: 1, max: 100 }).map(String), { nil: null }),
  max_position_notional: limitValue,
  max_total_notional: limitValue,
  max_order_notional: limitValue,
  max_leverage: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
  max_orders_per_minute: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
  markets: fc.dictionary(fc.constantFrom(...MARKETS), fc.record({ max_position_notional: limitValue, max_leverage: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }) })),
});
const marks = new Map(MARKETS.map((m, i) => [m, D([60000, 3000, 150][i]!)]));
const leg = (over: Partial<RiskLeg>): RiskLeg => ({ market: 'BTC', side: 'BUY', size: D('0.1'), notional: D(6000), reduce_only: false, attached: false, leverage: 5, ...over });

describe('the order check', () => {
  const base = { book: { positions: new Map<string, Decimal>(), marks }, ordersLastMinute: 0, lockout: null, day: null };

  it('refuses each limit by name, its value and what the order would make it', () => {
    const at = (limits: Partial<RiskLimits>, l: RiskLeg, extra: object = {}) => checkOrder({ ...base, limits: { ...NO_LIMITS, ...limits }, legs: [l], ...extra });
    expect(at({ max_order_notional: '1000' }, leg({}))).toMatchObject({ ok: false, code: 'RISK_LIMIT', limit: 'max_order_notional', value: '1000', would_be: '6000' });
    expect(at({ max_leverage: 3 }, leg({}))).toMatchObject({ code: 'RISK_LIMIT', limit: 'max_leverage', value: '3', would_be: '5' });
    expect(at({ markets: { BTC: { max_leverage: 2, max_position_notional: null } } }, leg({}))).toMatchObject({ limit: 'markets.BTC.max_leverage' });
    expect(at({ max_position_notional: '5000' }, leg({}))).toMatchObject({ limit: 'max_position_notional', would_be: '6000' });
    expect(at({ max_total_notional: '7000' }, leg({}), { book: { positions: new Map([['ETH', D(1)]]), marks } })).toMatchObject({ limit: 'max_total_notional', would_be: '9000' });
    expect(at({ max_orders_per_minute: 3 }, leg({}), { ordersLastMinute: 3 })).toMatchObject({ limit: 'max_orders_per_minute', would_be: '4' });
    expect(at({ max_order_notional: '1000' }, leg({}), { lockout: { at: 0, until: 99, reason: 'x', limit: 'daily_loss' } })).toMatchObject({ code: 'RISK_LOCKOUT', until: 99 });
    expect(at({ daily_loss: '100' }, leg({}), { day: { pnl: D(-100), drawdown: D(0) } })).toMatchObject({ code: 'RISK_LOCKOUT' });
    expect(at({ max_order_notional: '6000' }, leg({}))).toEqual({ ok: true });
  });

  it('a plain leg that shrinks a position is a close; one that flips it opens', () => {
    const positions = new Map([['BTC', D('0.5')]]);
    expect(onlyReduces([leg({ side: 'SELL', size: D('0.5') })], positions)).toBe(true);
    expect(onlyReduces([leg({ side: 'SELL', size: D('0.6') })], positions)).toBe(false);
    expect(onlyReduces([leg({ side: 'BUY', size: D('0.1') })], positions)).toBe(false);
  });

  it('property: an order that only reduces (reduce-only, attached TP/SL, or shrinking) is never refused, whatever the limits, lockout or day', () => {
    const reducingLeg = fc.record({
      market: fc.constantFrom(...MARKETS),
      side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
      size: positiveCents(100),
      notional: positiveCents(10_000_000),
      reduce_only: fc.constant(true),
      attached: fc.boolean(),
      leverage: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }),
    });
    fc.assert(
      fc.property(
        limitsArb,
        fc.array(reducingLeg, { minLength: 1, maxLength: 5 }),
        fc.dictionary(fc.constantFrom(...MARKETS), cents(1000)),
        fc.boolean(),
        fc.integer({ min: 0, max: 1000 }),
        cents(100_000),
        (limits, legs, pos, locked, recent, pnl) => {
          const verdict = checkOrder({
            limits,
            legs,
            book: { positions: new Map(Object.entries(pos)), marks },
            ordersLastMinute: recent,
            lockout: locked ? { at: 0, until: 1, reason: 'daily_loss', limit: 'daily_loss' } : null,
            day: { pnl, drawdown: D(99) },
          });
          expect(verdict).toEqual({ ok: true });
        },
      ),
    );
  });

  it('property: a plain leg that closes part or all of a position is never refused either', () => {
    fc.assert(
      fc.property(limitsArb, fc.constantFrom(...MARKETS), positiveCents(1000), fc.integer({ min: 1, max: 100 }), fc.boolean(), (limits, market, held, share, long) => {
        const size = held.mul(share).div(100);
        const positions = new Map([[market, long ? held : held.neg()]]);
        const verdict = checkOrder({ limits, legs: [leg({ market, side: long ? 'SELL' : 'BUY', size, notional: size.mul(marks.get(market)!), leverage: 100 })], book: { positions, marks }, ordersLastMinute: 1000, lockout: { at: 0, until: 1, reason: 'x', limit: 'max_drawdown' }, day: { pnl: D(-1e9), drawdown: D(100) } });
        expect(verdict).toEqual({ ok: true });
      }),
    );
  });

  it('property: with no limit set and no lockout, every order passes', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ market: fc.constantFrom(...MARKETS), side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'), size: positiveCents(100), notional: positiveCents(1e7), reduce_only: fc.boolean(), attached: fc.boolean(), leverage: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }) }), { minLength: 1, maxLength: 5 }), (legs) => {
        expect(checkOrder({ limits: NO_LIMITS, legs, book: { positions: new Map(), marks }, ordersLastMinute: null, lockout: null, day: null })).toEqual({ ok: true });
      }),
    );
  });
});

/**
 * The scale ladder (src/shared/orders/scaleLadder.ts): examples a trader can check by hand, then
 * properties over random markets and inputs: every price on the tick and inside the range, prices
 * strictly monotone from `from` to `to`, the total exactly the size asked for, every size within one size
 * step of its exact share (so the skew holds within rounding), and every leg at or above min_order_value
 * unless the error names the smallest leg.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/index.js';
import { ScaleLadderError, scaleLadder, type ScaleMarket } from '../../src/shared/orders/scaleLadder.js';

const ETH: ScaleMarket = { symbol: 'ETH', tick_size: '0.1', px_decimals: 1, sz_decimals: 3, min_order_value: '10' };

function refusal(fn: () => unknown): ScaleLadderError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ScaleLadderError);
    return err as ScaleLadderError;
  }
  throw new Error('expected a ScaleLadderError');
}

describe('scale ladder: examples', () => {
  it('five equal legs from 3000 down to 2900', () => {
    const legs = scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 5, totalSize: '1' });
    expect(legs.map((l) => l.price)).toEqual(['3000', '2975', '2950', '2925', '2900']);
    expect(legs.map((l) => l.size)).toEqual(['0.2', '0.2', '0.2', '0.2', '0.2']);
    expect(legs[0]!.notional).toBe('600');
  });

  it('a skew of 3: the last leg is three times the first, the total exact', () => {
    const legs = scaleLadder(ETH, { side: 'SELL', from: '3100', to: '3200', count: 3, totalSize: '1.2', skew: '3' });
    // weights 1, 2, 3 of 6
    expect(legs.map((l) => l.size)).toEqual(['0.2', '0.4', '0.6']);
    expect(legs.map((l) => l.price)).toEqual(['3100', '3150', '3200']);
  });

  it('rounding: leftover size steps go to the legs that lost most, the total stays exact', () => {
    const legs = scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2990', count: 3, totalSize: '1' });
    expect(legs.map((l) => l.size)).toEqual(['0.334', '0.333', '0.333']);
    const odd = scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2990', count: 4, totalSize: '1' });
    // The ends are the prices given, the inner rungs go to the nearest tick.
    expect(odd.map((l) => l.price)).toEqual(['3000', '2996.7', '2993.3', '2990']);
  });

  it('the smallest leg below min_order_value is named', () => {
    const e = refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 4, totalSize: '0.02', skew: '3' }));
    expect(e.errorCode).toBe('SCALE_LEG_BELOW_MIN');
    expect(e.field).toBe('total_size');
    // weights 1, 5/3, 7/3, 3 of 8: the first leg gets 0.0025 -> 0.002 (+ leftover) at 3000
    expect(e.message).toMatch(/^the smallest leg, 1 of 4 \(BUY 0\.00[23] at 3000\), is worth [\d.]+ USDC, below ETH's min_order_value 10$/);
    // Reduce-only ladders are exempt, as the service exempts reduce-only legs.
    expect(scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 4, totalSize: '0.02', skew: '3', reduceOnly: true })).toHaveLength(4);
  });

  it('refuses what cannot be a ladder, naming the field', () => {
    expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2999.8', count: 4, totalSize: '1' }))).toMatchObject({ errorCode: 'SCALE_RANGE_TOO_NARROW', field: 'count' });
    expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '3000.1', count: 3, totalSize: '1' })).message).toMatch(/2 distinct prices/);
    expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '3000', count: 2, totalSize: '1' })).field).toBe('to_price');
    expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 1, totalSize: '1' })).field).toBe('count');
    expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 21, totalSize: '1' })).field).toBe('count');
    expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 3, totalSize: '1.0001' })).message).toMatch(/more than 3 decimal places/);
    expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 3, totalSize: '1', skew: '0' })).field).toBe('skew');
    expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 3, totalSize: '1', skew: '1e3' })).field).toBe('skew');
    expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '-1', to: '2900', count: 3, totalSize: '1' })).field).toBe('from_price');
    expect(refusal(() => scaleLadder({ ...ETH, min_order_value: '0' }, { side: 'BUY', from: '3000', to: '2900', count: 20, totalSize: '0.01' })).errorCode).toBe('SCALE_LEG_TOO_SMALL');
  });
});

// ---- properties ---------------------------------------------------------------------------------------

const marketArb = fc.record({
  tickExp: fc.integer({ min: -4, max: 1 }),
  tickMant: fc.constantFrom(1, 2, 5),
  sz_decimals: fc.integer({ min: 0, max: 5 }),
  minValue: fc.constantFrom('0', '1', '10'),
});

const inputArb = fc.record({
  market: marketArb,
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  base: fc.integer({ min: 100, max: 5_000_000 }),
  spanTicks: fc.integer({ min: 1, max: 5_000 }),
  up: fc.boolean(),
  count: fc.integer({ min: 2, max: 20 }),
  totalSteps: fc.integer({ min: 1, max: 10_000_000 }),
  skewTenths: fc.integer({ min: 1, max: 1000 }),
  reduceOnly: fc.boolean(),
  /** Which end, if any, lies a third of a tick off the grid. */
  offTick: fc.constantFrom(null, null, null, null, 'from' as const, 'to' as const),
});

type Generated = typeof inputArb extends fc.Arbitrary<infer T> ? T : never;

function build(x: Generated) {
  const tick = new Decimal(x.market.tickMant).mul(new Decimal(10).pow(x.market.tickExp));
  const market: ScaleMarket = {
    symbol: 'X',
    tick_size: tick.toFixed(),
    px_decimals: Math.max(0, -x.market.tickExp),
    sz_decimals: x.market.sz_decimals,
    min_order_value: x.market.minValue,
  };
  // Ends on the tick, or one of them a third of a tick off it (which must be refused, never rounded).
  const third = tick.div(3).toDecimalPlaces(8);
  const onFrom = tick.mul(x.base);
  const onTo = x.up ? onFrom.plus(tick.mul(x.spanTicks)) : onFrom.minus(tick.mul(Math.min(x.spanTicks, x.base - 1)));
  const from = x.offTick === 'from' ? onFrom.plus(third) : onFrom;
  const to = x.offTick === 'to' ? onTo.plus(third) : onTo;
  const step = new Decimal(1).div(new Decimal(10).pow(x.market.sz_decimals));
  const input = {
    side: x.side,
    from: from.toFixed(),
    to: to.toFixed(),
    count: x.count,
    totalSize: step.mul(x.totalSteps).toFixed(),
    skew: new Decimal(x.skewTenths).div(10).toFixed(),
    reduceOnly: x.reduceOnly,
  };
  return { market, input, tick, step, from, to };
}

describe('scale ladder: off-tick ends are refused, never rounded (issue 26.15)', () => {
  it.each([
    ['BUY', 'from', '3300.001', '3200', 'from_price', '3300 and 3300.1'],
    ['BUY', 'to', '3300', '3200.555', 'to_price', '3200.5 and 3200.6'],
    ['SELL', 'from', '3200.04', '3300', 'from_price', '3200 and 3200.1'],
    ['SELL', 'to', '3200', '3299.95', 'to_price', '3299.9 and 3300'],
  ] as const)('%s ladder, off-tick %s end: refused naming the tick and the valid prices either side', (side, _end, from, to, field, around) => {
    const e = refusal(() => scaleLadder(ETH, { side, from, to, count: 5, totalSize: '1' }));
    expect(e).toMatchObject({ errorCode: 'PRICE_OFF_TICK', field });
    expect(e.message).toContain(`is not a multiple of ETH's tick_size 0.1: the nearest valid prices are ${around}`);
  });

  it('refuses lenient decimal text in every field (the one grammar)', () => {
    for (const bad of ['1.', '.5', '5 ', ' 5', '1e3', '+1', '007']) {
      expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: bad, to: '2900', count: 3, totalSize: '1' })).field).toBe('from_price');
      expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: bad, count: 3, totalSize: '1' })).field).toBe('to_price');
      expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 3, totalSize: bad })).field).toBe('total_size');
      expect(refusal(() => scaleLadder(ETH, { side: 'BUY', from: '3000', to: '2900', count: 3, totalSize: '1', skew: bad })).field).toBe('skew');
    }
  });
});

describe('scale ladder: properties', () => {
  it('legs on tick and in range, prices strictly monotone, total exact, sizes within a step of their share, legs above the minimum', () => {
    let built = 0;
    fc.assert(
      fc.property(inputArb, (x) => {
        const { market, input, tick, step, from, to } = build(x);
        let legs;
        try {
          legs = scaleLadder(market, input);
        } catch (err) {
          if (!(err instanceof ScaleLadderError)) throw err;
          // The only refusals a well-formed input can meet, each a true statement about it.
          if (x.offTick !== null) {
            // An off-tick end is refused before anything else about the ladder, naming its field and
            // the two valid prices that bracket it.
            expect(err.errorCode).toBe('PRICE_OFF_TICK');
            const end = x.offTick === 'from' ? from : to;
            expect(err.field).toBe(x.offTick === 'from' ? 'from_price' : 'to_price');
            const [, below, above] = /nearest valid prices are ([\d.]+) and ([\d.]+)$/.exec(err.message)!;
            expect(new Decimal(below!).lt(end) && new Decimal(above!).gt(end)).toBe(true);
            expect(new Decimal(above!).minus(below!).eq(tick)).toBe(true);
          } else if (err.errorCode === 'SCALE_RANGE_TOO_NARROW') {
            const span = to.minus(from).abs().div(tick).floor().toNumber();
            expect(span + 1).toBeLessThanOrEqual(input.count + 1);
          } else if (err.errorCode === 'SCALE_LEG_BELOW_MIN') {
            expect(input.reduceOnly).toBe(false);
            const value = new Decimal(/is worth ([\d.]+) USDC/.exec(err.message)![1]!);
            expect(value.lt(market.min_order_value)).toBe(true);
          } else {
            expect(err.errorCode).toBe('SCALE_LEG_TOO_SMALL');
          }
          return;
        }
        built++;
        expect(x.offTick).toBeNull();
        expect(legs).toHaveLength(input.count);
        // The ends are exactly the prices given.
        expect(legs[0]!.price).toBe(from.toFixed());
        expect(legs.at(-1)!.price).toBe(to.toFixed());
        const prices = legs.map((l) => new Decimal(l.price));
        const sizes = legs.map((l) => new Decimal(l.size));
        const lo = Decimal.min(from, to);
        const hi = Decimal.max(from, to);
        for (const p of prices) {
          expect(p.mod(tick).isZero(), `${p} on tick ${tick}`).toBe(true);
          expect(p.gte(lo) && p.lte(hi), `${p} in [${lo}, ${hi}]`).toBe(true);
        }
        for (let i = 1; i < prices.length; i++) {
          if (x.up) expect(prices[i]!.gt(prices[i - 1]!)).toBe(true);
          else expect(prices[i]!.lt(prices[i - 1]!)).toBe(true);
        }
        expect(sizes.reduce((a, s) => a.plus(s), new Decimal(0)).eq(input.totalSize)).toBe(true);
        const skew = new Decimal(input.skew);
        const weights = sizes.map((_, i) => new Decimal(1).plus(skew.minus(1).mul(i).div(input.count - 1)));
        const sum = weights.reduce((a, w) => a.plus(w), new Decimal(0));
        sizes.forEach((s, i) => {
          expect(s.mod(step).isZero()).toBe(true);
          expect(s.gt(0)).toBe(true);
          const exact = new Decimal(input.totalSize).mul(weights[i]!).div(sum);
          expect(s.minus(exact).abs().lt(step), `leg ${i}: ${s} vs exact ${exact}`).toBe(true);
        });
        // The skew within rounding: the exact ratio lies between the ratios one step either way.
        const [first, last] = [sizes[0]!, sizes[sizes.length - 1]!];
        const low = Decimal.max(last.minus(step), 0).div(first.plus(step));
        expect(skew.gte(low)).toBe(true);
        if (first.gt(step)) expect(skew.lte(last.plus(step).div(first.minus(step)))).toBe(true);
        if (!input.reduceOnly) for (const l of legs) expect(new Decimal(l.notional).gte(market.min_order_value)).toBe(true);
        for (const l of legs) expect(new Decimal(l.notional).eq(new Decimal(l.price).mul(l.size))).toBe(true);
      }),
      { numRuns: 1500, seed: 15 },
    );
    // Most generated inputs must actually build a ladder, or the properties above prove little.
    expect(built).toBeGreaterThan(600);
  });
});

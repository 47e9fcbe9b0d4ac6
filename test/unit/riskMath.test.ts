/**
 * The risk arithmetic (src/shared/protocol/riskMath.ts) on cases, and as properties checked against the
 * simulator's own engine (src/sim/positions/ledger.ts): the closed-form liquidation estimate is exactly
 * where the simulator's liquidation check flips (a mark at the estimate survives, one unit of the 8th
 * place past it is liquidated), and the position an order leaves is what the simulator books, rounding
 * included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/index.js';
import {
  accountHealth,
  applyFill,
  isLiquidatedAt,
  liquidationDistance,
  liquidationForDisplay,
  liquidationPrice,
  positionAfterFills,
  type OrderFill,
} from '../../src/shared/protocol/riskMath.js';
import { isLiquidatable, liquidationPrice as simLiquidationPrice, marginRateFor, tradeEffect, type PositionState as SimPosition } from '../../src/sim/positions/ledger.js';

const D = (s: string | number) => new Decimal(s);
const UNIT = D('0.00000001');
const market = { max_leverage: 20, initial_margin_ratio: '0.05', maintenance_margin_ratio: '0.025' };

/** A decimal of at most `places` places in (0, max]: an integer count of the smallest unit. */
const positive = (max: number, places: number) => fc.integer({ min: 1, max: max * 10 ** places }).map((n) => D(n).div(10 ** places));

const simPos = (size: Decimal, entry: Decimal, margin: Decimal): SimPosition => ({ size, entry, margin });

describe('liquidation price, closed form', () => {
  it('long and short on a worked case', () => {
    // (1 x 100 - 10) / (1 x 0.95) = 94.7368421052..., rounded up (toward the mark) to 8 places.
    expect(liquidationPrice({ size: '1', entry_price: '100', isolated_margin: '10' }, '0.05')!.toFixed()).toBe('94.73684211');
    // (10 + 1 x 100) / (1 x 1.05) = 104.7619047619..., rounded down (toward the mark).
    expect(liquidationPrice({ size: '-1', entry_price: '100', isolated_margin: '10' }, '0.05')!.toFixed()).toBe('104.76190476');
    // Exact results are not moved by the rounding: (2 x 50 - 10) / (2 x 0.9) = 50.
    expect(liquidationPrice({ size: '2', entry_price: '50', isolated_margin: '10' }, '0.1')!.toFixed()).toBe('50');
  });

  it('none when no positive mark liquidates: a long margined for its whole notional, or no position', () => {
    expect(liquidationPrice({ size: '1', entry_price: '100', isolated_margin: '100' }, '0.05')).toBeNull();
    expect(liquidationPrice({ size: '1', entry_price: '100', isolated_margin: '150' }, '0.05')).toBeNull();
    expect(liquidationPrice({ size: '0', entry_price: '100', isolated_margin: '10' }, '0.05')).toBeNull();
    // A short always has one: a high enough mark eats any margin.
    expect(liquidationPrice({ size: '-1', entry_price: '100', isolated_margin: '1000' }, '0.05')!.toFixed()).toBe('1047.61904761');
  });

  it('refuses a maintenance ratio outside [0, 1) and malformed decimals', () => {
    expect(() => liquidationPrice({ size: '1', entry_price: '100', isolated_margin: '10' }, '1')).toThrow(/maintenance_margin_ratio/);
    expect(() => liquidationPrice({ size: '1', entry_price: '100', isolated_margin: '10' }, '-0.1')).toThrow(/maintenance_margin_ratio/);
    expect(() => liquidationPrice({ size: '1e3', entry_price: '100', isolated_margin: '10' }, '0.05')).toThrow(/size/);
  });

  it('agrees with the simulator: a mark at the estimate survives, one unit past it is liquidated (long and short)', () => {
    fc.assert(
      fc.property(positive(1000, 4), positive(200_000, 2), fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 5000 }), fc.boolean(), (qty, entry, marginPermille, mmrBp, long) => {
        const size = long ? qty : qty.neg();
        const margin = qty.mul(entry).mul(marginPermille).div(1000).toDecimalPlaces(6, Decimal.ROUND_HALF_UP);
        const mmr = D(mmrBp).div(10_000);
        const pos = simPos(size, entry, margin);
        const liq = liquidationPrice({ size, entry_price: entry, isolated_margin: margin }, mmr);
        if (liq === null) {
          // Never liquidated at a positive mark: check far below and far above the entry.
          expect(long).toBe(true);
          for (const mark of [UNIT, entry.div(1000), entry, entry.mul(1000)]) expect(isLiquidatable(pos, mark, mmr)).toBe(false);
          expect(simLiquidationPrice(pos, mmr)).toBeNull();
          return;
        }
        expect(isLiquidatable(pos, liq, mmr)).toBe(false);
        const past = long ? liq.minus(UNIT) : liq.plus(UNIT);
        if (past.gt(0)) expect(isLiquidatable(pos, past, mmr)).toBe(true);
        // The simulator's own figure rounds half-up; they differ by at most that last unit.
        expect(liq.minus(simLiquidationPrice(pos, mmr)!).abs().lte(UNIT)).toBe(true);
        // riskMath's check is the simulator's.
        expect(isLiquidatedAt({ size, entry_price: entry, isolated_margin: margin }, past, mmr)).toBe(past.gt(0) ? isLiquidatable(pos, past, mmr) : false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('distance to liquidation', () => {
  it('a fraction of the mark, positive on the safe side', () => {
    expect(liquidationDistance('1', '100', '90')!.toFixed()).toBe('0.1');
    expect(liquidationDistance('-1', '100', '125')!.toFixed()).toBe('0.25');
    expect(liquidationDistance('1', '80', '90')!.toFixed()).toBe('-0.125');
    expect(liquidationDistance('1', '100', null)).toBeNull();
    expect(() => liquidationDistance('1', '0', '90')).toThrow(/mark/);
  });

  it('rounded for display toward the mark, never promising more room', () => {
    expect(liquidationForDisplay('1', '94.73684211', 2).toFixed()).toBe('94.74');
    expect(liquidationForDisplay('-1', '104.76190476', 2).toFixed()).toBe('104.76');
    expect(liquidationForDisplay('1', '94.731', 2).toFixed()).toBe('94.74');
  });
});

describe('account health', () => {
  it('equity = free + posted margin + uPnL; maintenance, margin ratio and leverage from the marks', () => {
    const h = accountHealth('1000', [
      { market: 'BTC', size: '0.1', entry_price: '60000', isolated_margin: '600', mark: '61000', maintenance_margin_ratio: '0.025' },
      { market: 'ETH', size: '-2', entry_price: '3000', isolated_margin: '1200', mark: '3100', maintenance_margin_ratio: '0.05' },
    ]);
    // uPnL: 0.1 x 1000 + (-2) x 100 = -100; equity 1000 + 1800 - 100 = 2700.
    expect(h.unrealized_pnl!.toFixed()).toBe('-100');
    expect(h.posted_margin.toFixed()).toBe('1800');
    expect(h.equity!.toFixed()).toBe('2700');
    // notional 6100 + 6200 = 12300; maintenance 152.5 + 310 = 462.5.
    expect(h.open_notional!.toFixed()).toBe('12300');
    expect(h.maintenance_margin!.toFixed()).toBe('462.5');
    expect(h.margin_ratio!.toDecimalPlaces(8).toFixed()).toBe(D('462.5').div(2700).toDecimalPlaces(8).toFixed());
    expect(h.account_leverage!.toDecimalPlaces(8).toFixed()).toBe(D('12300').div(2700).toDecimalPlaces(8).toFixed());
    expect(h.withdrawable.toFixed()).toBe('1000');
    expect(h.unpriced_markets).toEqual([]);
  });

  it('no positions: equity is the free balance, no leverage; an unpriced position leaves the mark-based figures out', () => {
    const flat = accountHealth('50', []);
    expect([flat.equity!.toFixed(), flat.maintenance_margin!.toFixed(), flat.account_leverage!.toFixed(), flat.margin_ratio!.toFixed()]).toEqual(['50', '0', '0', '0']);
    const unpriced = accountHealth('50', [{ market: 'SOL', size: '1', entry_price: '100', isolated_margin: '10', mark: null, maintenance_margin_ratio: '0.05' }]);
    expect(unpriced).toMatchObject({ equity: null, unrealized_pnl: null, maintenance_margin: null, margin_ratio: null, account_leverage: null, unpriced_markets: ['SOL'] });
    expect(unpriced.posted_margin.toFixed()).toBe('10');
    // Equity at or below zero has no meaningful ratio.
    const broke = accountHealth('0', [{ market: 'SOL', size: '1', entry_price: '100', isolated_margin: '10', mark: '80', maintenance_margin_ratio: '0.05' }]);
    expect(broke.equity!.toFixed()).toBe('-10');
    expect([broke.margin_ratio, broke.account_leverage]).toEqual([null, null]);
  });
});

describe('the position an order leaves', () => {
  it('opens, adds (weighted entry), reduces (margin released pro rata) and flips', () => {
    const open = applyFill(null, { side: 'BUY', size: '2', price: '100', leverage: 10 }, market)!;
    expect([open.size.toFixed(), open.entry_price.toFixed(), open.isolated_margin.toFixed()]).toEqual(['2', '100', '20']);
    const added = applyFill(open, { side: 'BUY', size: '1', price: '130', leverage: 10 }, market)!;
    expect([added.size.toFixed(), added.entry_price.toFixed(), added.isolated_margin.toFixed()]).toEqual(['3', '110', '33']);
    const reduced = applyFill(added, { side: 'SELL', size: '1', price: '90', leverage: 0, reduce_only: true }, market)!;
    expect([reduced.size.toFixed(), reduced.entry_price.toFixed(), reduced.isolated_margin.toFixed()]).toEqual(['2', '110', '22']);
    // Reduce-only never flips: capped at the position.
    expect(applyFill(reduced, { side: 'SELL', size: '5', price: '90', leverage: 0, reduce_only: true }, market)).toBeNull();
    // ...and does nothing without an opposite position.
    expect(applyFill(null, { side: 'SELL', size: '5', price: '90', leverage: 0, reduce_only: true }, market)).toBeNull();
    const flipped = applyFill(reduced, { side: 'SELL', size: '3', price: '100', leverage: 5 }, market)!;
    expect([flipped.size.toFixed(), flipped.entry_price.toFixed(), flipped.isolated_margin.toFixed()]).toEqual(['-1', '100', '20']);
  });

  it('leverage 0 reads as max_leverage, and the IMR floor binds above it', () => {
    expect(applyFill(null, { side: 'BUY', size: '1', price: '100', leverage: 0 }, market)!.isolated_margin.toFixed()).toBe('5');
    expect(applyFill(null, { side: 'BUY', size: '1', price: '100', leverage: 50 }, market)!.isolated_margin.toFixed()).toBe('5');
  });

  it('carries the liquidation estimate of the resulting position; null when flat', () => {
    const after = positionAfterFills({ size: '1', entry_price: '100', isolated_margin: '10' }, [{ side: 'BUY', size: '1', price: '110', leverage: 10 }], { ...market, maintenance_margin_ratio: '0.05' })!;
    expect(after.size.toFixed()).toBe('2');
    expect(after.entry_price.toFixed()).toBe('105');
    expect(after.isolated_margin.toFixed()).toBe('21');
    expect(after.liquidation_price!.toFixed()).toBe(liquidationPrice(after, '0.05')!.toFixed());
    expect(positionAfterFills({ size: '-1', entry_price: '100', isolated_margin: '10' }, [{ side: 'BUY', size: '1', price: '90', leverage: 0, reduce_only: true }], market)).toBeNull();
  });

  it('books every fill exactly as the simulator does, rounding included', () => {
    const fill = fc.record({
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      size: positive(50, 4),
      price: positive(100_000, 2),
      leverage: fc.integer({ min: 0, max: 40 }),
      reduce_only: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.option(fc.tuple(positive(50, 4), fc.boolean(), positive(100_000, 2), fc.integer({ min: 1, max: 3000 }))), fc.array(fill, { minLength: 1, maxLength: 4 }), (start, fills) => {
        let sim: SimPosition | null = null;
        if (start) {
          const [qty, long, entry, permille] = start;
          sim = simPos(long ? qty : qty.neg(), entry, qty.mul(entry).mul(permille).div(1000).toDecimalPlaces(6, Decimal.ROUND_HALF_UP));
        }
        let ours = sim ? { size: sim.size, entry_price: sim.entry, isolated_margin: sim.margin } : null;
        for (const f of fills as OrderFill[]) {
          // The simulator's execution: a reduce-only order is capped at the opposite position, then booked.
          let qty = D(f.size.toString());
          if (f.reduce_only) {
            const opposite = sim !== null && (f.side === 'BUY' ? sim.size.isNegative() : sim.size.isPositive());
            qty = opposite ? Decimal.min(qty, sim!.size.abs()) : D(0);
          }
          if (qty.gt(0)) {
            const rate = marginRateFor(f.leverage, market.max_leverage, D(market.initial_margin_ratio));
            sim = tradeEffect(sim, f.side, qty, D(f.price.toString()), rate, D('0.0005')).next;
            // What the simulator stores: entry to 8 places, margin to 6 (positions.ts savePosition).
            if (sim) sim = { size: sim.size, entry: sim.entry.toDecimalPlaces(8, Decimal.ROUND_HALF_UP), margin: sim.margin.toDecimalPlaces(6, Decimal.ROUND_HALF_UP) };
          }
          ours = applyFill(ours, f, market);
          if (sim === null) expect(ours).toBeNull();
          else expect([ours!.size.toFixed(), ours!.entry_price.toFixed(), ours!.isolated_margin.toFixed()]).toEqual([sim.size.toFixed(), sim.entry.toFixed(), sim.margin.toFixed()]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

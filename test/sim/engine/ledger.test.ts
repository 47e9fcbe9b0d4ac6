import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { isLiquidatable, liquidationPrice, marginRateFor, maxRemovable, tradeEffect } from '../../../src/sim/positions/ledger.js';

const D = (s: string) => new Decimal(s);
const rate = D('0.1');
const fee = D('0.001');

describe('position ledger', () => {
  it('opens a long posting margin and paying the fee', () => {
    const e = tradeEffect(null, 'BUY', D('2'), D('100'), rate, fee);
    expect(e.parts).toHaveLength(1);
    expect(e.parts[0]).toMatchObject({ kind: 'open', dir: 'Open Long', closedPnl: null });
    expect(e.parts[0]!.balanceDelta.toFixed()).toBe('-20.2');
    expect(e.required.toFixed()).toBe('20.2');
    expect(e.next).toMatchObject({ size: D('2'), entry: D('100'), margin: D('20') });
  });

  it('averages the entry when adding', () => {
    const e = tradeEffect({ size: D('2'), entry: D('100'), margin: D('20') }, 'BUY', D('2'), D('110'), rate, fee);
    expect(e.next!.entry.toFixed()).toBe('105');
    expect(e.next!.margin.toFixed()).toBe('42');
  });

  it('closes part of a short with realized PnL and releases its share of margin', () => {
    const e = tradeEffect({ size: D('-4'), entry: D('100'), margin: D('40') }, 'BUY', D('1'), D('90'), rate, fee);
    expect(e.parts).toHaveLength(1);
    const p = e.parts[0]!;
    expect(p).toMatchObject({ kind: 'close', dir: 'Close Short' });
    expect(p.closedPnl!.toFixed()).toBe('10');
    // released 10 + pnl 10 - fee 0.09
    expect(p.balanceDelta.toFixed()).toBe('19.91');
    expect(e.next!.size.toFixed()).toBe('-3');
    expect(e.next!.margin.toFixed()).toBe('30');
  });

  it('flips through zero as a close part then an open part', () => {
    const e = tradeEffect({ size: D('1'), entry: D('100'), margin: D('10') }, 'SELL', D('3'), D('100'), rate, fee);
    expect(e.parts.map((p) => p.dir)).toEqual(['Close Long', 'Open Short']);
    expect(e.next!.size.toFixed()).toBe('-2');
    expect(e.next!.margin.toFixed()).toBe('20');
  });

  it('caps a close loss at the released margin (isolated)', () => {
    const e = tradeEffect({ size: D('1'), entry: D('100'), margin: D('10') }, 'SELL', D('1'), D('50'), rate, fee);
    expect(e.parts[0]!.balanceDelta.toFixed()).toBe('0');
    expect(e.next).toBeNull();
    // The fill says what was realized: closed_pnl - fee is the cash the account lost (the 10 of margin).
    const part = e.parts[0]!;
    expect(part.closedPnl!.minus(part.fee).toFixed()).toBe('-10');
    expect(part.fee.toFixed()).toBe('0.05');
  });

  it('computes liquidation price, liquidation test and removable margin consistently', () => {
    const pos = { size: D('1'), entry: D('100'), margin: D('10') };
    const mmr = D('0.05');
    const liq = liquidationPrice(pos, mmr)!;
    expect(isLiquidatable(pos, liq.plus('0.01'), mmr)).toBe(false);
    expect(isLiquidatable(pos, liq.minus('0.01'), mmr)).toBe(true);
    const short = { size: D('-1'), entry: D('100'), margin: D('10') };
    const liqShort = liquidationPrice(short, mmr)!;
    expect(liqShort.gt(100)).toBe(true);
    expect(isLiquidatable(short, liqShort.plus('0.01'), mmr)).toBe(true);
    expect(maxRemovable(pos, D('100'), D('0.05')).toFixed()).toBe('5');
    expect(maxRemovable(pos, D('90'), D('0.05')).toFixed()).toBe('0');
  });

  it('takes the stricter of leverage and initial margin ratio', () => {
    expect(marginRateFor(0, 20, D('0.05')).toFixed()).toBe('0.05');
    expect(marginRateFor(4, 20, D('0.05')).toFixed()).toBe('0.25');
    expect(marginRateFor(50, 20, D('0.05')).toFixed()).toBe('0.05');
  });
});

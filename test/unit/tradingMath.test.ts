/**
 * The shared money arithmetic of an order (src/shared/protocol/tradingMath.ts), which the services'
 * prepare step, the app's ticket and the command line all use: notional, maker or taker, fee estimate and
 * initial margin, checked on cases and as properties over many decimal inputs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/index.js';
import { crossesMark, feeEstimate, feeKindOf, feeRateOf, initialMargin, initialMarginRate, orderNotional } from '../../src/shared/protocol/tradingMath.js';
import { defaultLeverageFor } from '../../src/main/services/settings/preferences.js';

const market = { max_leverage: 20, initial_margin_ratio: '0.05', maker_fee_rate: '0.0002', taker_fee_rate: '0.0005' };

describe('trading maths', () => {
  it('notional is |size| x price, exactly', () => {
    expect(orderNotional('0.1', '60000.5').toFixed()).toBe('6000.05');
    expect(orderNotional('-2', '3000').toFixed()).toBe('6000');
  });

  it('maker or taker: post-only and resting limits are makers; market, IOC, triggers and crossing limits take', () => {
    const limit = (side: 'BUY' | 'SELL', price: string, tif: 'GTC' | 'IOC' | 'ALO') => ({ order_type: 'LIMIT' as const, side, time_in_force: tif, limit_price: price });
    expect(feeKindOf(limit('BUY', '99', 'GTC'), '100')).toBe('maker');
    expect(feeKindOf(limit('BUY', '100', 'GTC'), '100')).toBe('taker');
    expect(feeKindOf(limit('SELL', '100', 'GTC'), '100')).toBe('taker');
    expect(feeKindOf(limit('SELL', '101', 'GTC'), '100')).toBe('maker');
    expect(feeKindOf(limit('BUY', '120', 'ALO'), '100')).toBe('maker');
    expect(feeKindOf(limit('BUY', '90', 'IOC'), '100')).toBe('taker');
    expect(feeKindOf(limit('BUY', '120', 'GTC'), null)).toBe('maker');
    expect(feeKindOf({ order_type: 'MARKET', side: 'BUY', time_in_force: 'IOC', limit_price: '101' }, '100')).toBe('taker');
    expect(feeKindOf({ order_type: 'TRIGGER', side: 'SELL', limit_price: '95' }, '100')).toBe('taker');
    expect(crossesMark('BUY', '100', '100')).toBe(true);
  });

  it('fee = notional x the rate of its kind', () => {
    expect(feeEstimate(orderNotional('2', '2900'), feeRateOf(market, 'maker')).toFixed()).toBe('1.16');
    expect(feeRateOf(market, 'taker').toFixed()).toBe('0.0005');
  });

  it('initial margin is notional x max(1/leverage, IMR); leverage 0 reads as max_leverage; reduce-only posts none', () => {
    expect(initialMargin('1000', 10, market, false).toFixed()).toBe('100');
    expect(initialMargin('1000', 50, { ...market, max_leverage: 50 }, false).toFixed()).toBe('50');
    expect(initialMarginRate(0, { max_leverage: 40, initial_margin_ratio: '0.01' }).toFixed()).toBe('0.025');
    expect(initialMargin('1000', 10, market, true).toFixed()).toBe('0');
  });

  it('properties: margin never below notional x IMR, never above the notional at 1x; fees scale with size', () => {
    const dec = fc.integer({ min: 1, max: 10_000_000 }).map((n) => new Decimal(n).div(1000));
    fc.assert(
      fc.property(dec, fc.integer({ min: 1, max: 20 }), (notional, lev) => {
        const m = initialMargin(notional, lev, market, false);
        return m.gte(notional.mul(market.initial_margin_ratio)) && m.lte(notional) && m.eq(notional.mul(Decimal.max(new Decimal(1).div(lev), '0.05')));
      }),
    );
    fc.assert(fc.property(dec, dec, (size, price) => feeEstimate(orderNotional(size.mul(2), price), '0.0005').eq(feeEstimate(orderNotional(size, price), '0.0005').mul(2))));
  });

  it('default leverage: the market default, else the global one, capped by max_leverage, at least 1', () => {
    const prefs = { default_leverage: 5, leverage_by_market: { ETH: 12 } };
    expect(defaultLeverageFor(prefs, { symbol: 'BTC', max_leverage: 20 })).toBe(5);
    expect(defaultLeverageFor(prefs, { symbol: 'ETH', max_leverage: 10 })).toBe(10);
    expect(defaultLeverageFor({ default_leverage: 1, leverage_by_market: {} }, { symbol: 'SOL', max_leverage: 3 })).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { loadSimConfig } from '../../../src/sim/config/load.js';
import { MarketTable } from '../../../src/sim/config/markets.js';
import { priceSizeReason } from '../../../src/sim/orders/validation.js';
import { groupReason, wrongSideReason } from '../../../src/sim/orders/brackets.js';
import { triggerCrossed, triggerDirection } from '../../../src/sim/orders/model.js';
import type { OrderLeg } from '../../../src/shared/protocol/index.js';

const table = new MarketTable(loadSimConfig());
const wif = table.get('WIF')!;
const btc = table.get('BTC')!;
const base = { reduce_only: false, whole_position: false, trigger_price: null };

describe('price and size rules', () => {
  it('checks tick before px_decimals, sizes, minimum and ceiling', () => {
    expect(priceSizeReason(wif, { ...base, size: '10', limit_price: '2.5' })).toBeNull();
    // 4 places is within px_decimals but not on the 0.0005 tick.
    expect(priceSizeReason(wif, { ...base, size: '10', limit_price: '2.5001' })).toBe('price_off_tick');
    expect(priceSizeReason(wif, { ...base, size: '10.05', limit_price: '2.5' })).toBe('size_too_many_decimals');
    expect(priceSizeReason(wif, { ...base, size: '1', limit_price: '2.5' })).toBe('min_order_value');
    expect(priceSizeReason(wif, { ...base, size: '1', limit_price: '2.5', reduce_only: true })).toBeNull();
    expect(priceSizeReason(wif, { ...base, size: '50000', limit_price: '2.5' })).toBe('max_notional');
    expect(priceSizeReason(btc, { ...base, size: '1000', limit_price: '100000' })).toBeNull();
    expect(priceSizeReason(wif, { ...base, size: '0', limit_price: '2.5' })).toBe('invalid_size');
    expect(priceSizeReason(wif, { ...base, size: '0', limit_price: '2.5', reduce_only: true, whole_position: true, trigger_price: '2.6' })).toBeNull();
  });
});

describe('trigger geometry', () => {
  it('fires SL against the position and TP in its favour', () => {
    expect(triggerDirection('SELL', { trigger_price: '1', is_market: true, tpsl: 'SL' })).toBe('down');
    expect(triggerDirection('SELL', { trigger_price: '1', is_market: true, tpsl: 'TP' })).toBe('up');
    expect(triggerDirection('BUY', { trigger_price: '1', is_market: true, tpsl: 'SL' })).toBe('up');
    expect(triggerDirection('BUY', { trigger_price: '1', is_market: true, tpsl: 'TP' })).toBe('down');
    expect(triggerCrossed('SELL', { trigger_price: '100', is_market: true, tpsl: 'SL' }, new Decimal('100'))).toBe(true);
    expect(triggerCrossed('SELL', { trigger_price: '100', is_market: true, tpsl: 'SL' }, new Decimal('101'))).toBe(false);
  });
});

describe('bracket groups', () => {
  const leg = (over: Partial<OrderLeg>): OrderLeg =>
    ({ market: 'BTC', side: 'BUY', size: '1', limit_price: '100', order_type: 'LIMIT', time_in_force: 'GTC', client_order_id: 'x', nonce: '1', signature: '0x', ...over }) as OrderLeg;
  const child = (tpsl: 'TP' | 'SL', price: string, over: Partial<OrderLeg> = {}): OrderLeg =>
    leg({ side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: price, is_market: true, tpsl }, ...over });

  it('decides parent, children and sides', () => {
    const ref = new Decimal('100');
    expect(groupReason(leg({}), [child('TP', '110'), child('SL', '90')], ref)).toBeNull();
    expect(groupReason(leg({ reduce_only: true }), [child('TP', '110')], ref)).toBe('bracket_parent_invalid');
    expect(groupReason(leg({ order_type: 'TRIGGER' }), [child('TP', '110')], ref)).toBe('bracket_parent_invalid');
    expect(groupReason(leg({}), [child('TP', '110'), child('TP', '120')], ref)).toBe('bracket_child_invalid');
    expect(groupReason(leg({}), [child('TP', '110', { side: 'BUY' })], ref)).toBe('bracket_child_invalid');
    expect(groupReason(leg({}), [child('TP', '110', { market: 'ETH' })], ref)).toBe('bracket_child_invalid');
    expect(groupReason(leg({}), [child('TP', '90')], ref)).toBe('bracket_tp_wrong_side');
    expect(groupReason(leg({}), [child('SL', '110')], ref)).toBe('bracket_sl_wrong_side');
    expect(wrongSideReason('SELL', ref, [{ tpsl: 'TP', trigger_price: '90' }, { tpsl: 'SL', trigger_price: '110' }])).toBeNull();
  });
});

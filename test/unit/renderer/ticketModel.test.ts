/**
 * The order ticket's checks and the intent it sends: the tick rule on limit prices only (a trigger or
 * bracket level needs just px_decimals), off-tick reported as off-tick, the shared maths for notional, fee
 * and margin (the numbers main's review shows), and the intent kinds (single, bracket).
 */
import { describe, expect, it } from 'vitest';
import { afterPlaced, checkTicket, initialTicket, toIntent, type TicketState } from '../../../src/renderer/src/features/orderTicket/ticketModel.js';
import type { MarketView } from '../../../src/shared/ipc.js';
import { OrderIntentSchema } from '../../../src/shared/orders/intents.js';

const BTC = {
  symbol: 'BTC',
  venue_symbol: 'BTC',
  joined: true,
  is_active: true,
  only_isolated: true,
  mark: '60000',
  oracle: '60000',
  mid: '60000',
  prev_day_px: '60000',
  change_24h: '0',
  funding_rate: '0',
  open_interest: '1',
  day_volume: '1',
  max_leverage: 20,
  display_max_leverage: 20,
  tick_size: '0.5',
  sz_decimals: 4,
  px_decimals: 1,
  min_order_value: '10',
  max_notional: '0',
  max_open_orders: 50,
  maker_fee_rate: '0.0002',
  taker_fee_rate: '0.0005',
  initial_margin_ratio: '0.05',
  maintenance_margin_ratio: '0.025',
  slippage_bps: 50,
} satisfies MarketView;

const ticket = (patch: Partial<TicketState>): TicketState => ({ ...initialTicket(2), ...patch });

describe('ticket checks', () => {
  it('the tick rule is on the limit price only; an off-tick price with too many places is off-tick', () => {
    expect(checkTicket(ticket({ type: 'LIMIT', size: '0.1', price: '59000.3' }), BTC, '60000').errors.price).toMatch(/tick size 0.5/);
    expect(checkTicket(ticket({ type: 'LIMIT', size: '0.1', price: '59000.25' }), BTC, '60000').errors.price).toMatch(/tick size 0.5/);
    const trigger = checkTicket(ticket({ type: 'TRIGGER', size: '0.1', triggerPrice: '55000.3', tpsl: 'SL', side: 'SELL' }), BTC, '60000');
    expect(trigger.errors.triggerPrice).toBeUndefined();
    expect(checkTicket(ticket({ type: 'TRIGGER', size: '0.1', triggerPrice: '55000.35', tpsl: 'SL', side: 'SELL' }), BTC, '60000').errors.triggerPrice).toMatch(/decimal places/);
    const bracket = checkTicket(ticket({ type: 'LIMIT', size: '0.1', price: '59000', bracket: true, tp: '65000.3', sl: '55000.1' }), BTC, '60000');
    expect(bracket.errors.tp).toBeUndefined();
    expect(bracket.errors.sl).toBeUndefined();
  });

  it('notional, fee and margin come from the shared maths: margin at max(1/leverage, IMR), none reduce-only', () => {
    const c = checkTicket(ticket({ type: 'LIMIT', size: '0.1', price: '59000', leverage: 50 }), { ...BTC, max_leverage: 50 }, '60000');
    expect(c.notional!.toFixed()).toBe('5900');
    expect(c.feeKind).toBe('maker');
    expect(c.fee!.toFixed()).toBe('1.18');
    // 1/50 = 2% is under the 5% initial margin ratio: the ratio binds.
    expect(c.margin!.toFixed()).toBe('295');
    const ro = checkTicket(ticket({ type: 'LIMIT', size: '0.1', price: '61000', side: 'SELL', reduceOnly: true }), BTC, '60000');
    expect(ro.margin!.toFixed()).toBe('0');
    expect(checkTicket(ticket({ type: 'LIMIT', size: '0.1', price: '60500' }), BTC, '60000').feeKind).toBe('taker');
  });
});

describe('the intent the ticket sends', () => {
  it('a single order, or a bracket when levels are set; both valid for the contract', () => {
    const single = toIntent(ticket({ type: 'MARKET', size: '0.1', leverage: 3 }), BTC, 40);
    expect(single).toEqual({ kind: 'single', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.1', leverage: 3, time_in_force: 'IOC', slippage_bps: 40 });
    const bracket = toIntent(ticket({ type: 'LIMIT', size: '0.1', price: '59000', tif: 'ALO', bracket: true, sl: '55000' }), BTC, null);
    expect(bracket).toEqual({ kind: 'bracket', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', leverage: 2, limit_price: '59000', time_in_force: 'ALO', sl: { trigger_price: '55000' } });
    const trigger = toIntent(ticket({ type: 'TRIGGER', side: 'SELL', closeWhole: true, triggerPrice: '55000', tpsl: 'SL' }), BTC, null);
    expect(trigger).toMatchObject({ kind: 'single', order_type: 'TRIGGER', size: '0', reduce_only: true, trigger: { trigger_price: '55000', tpsl: 'SL' } });
    expect(trigger).not.toHaveProperty('leverage');
    for (const i of [single, bracket, trigger]) expect(OrderIntentSchema.safeParse(i).success).toBe(true);
  });

  it('a price typed before switching to Market is never sent as the market order (issue 35.3): no limit_price, the bound from the mark', () => {
    const single = toIntent(ticket({ type: 'MARKET', size: '0.1', price: '90000' }), BTC, null);
    expect(single).toMatchObject({ order_type: 'MARKET', time_in_force: 'IOC' });
    expect(single).not.toHaveProperty('limit_price');
    const bracket = toIntent(ticket({ type: 'MARKET', size: '0.1', price: '90000', bracket: true, sl: '55000' }), BTC, null);
    expect(bracket).toMatchObject({ kind: 'bracket', order_type: 'MARKET' });
    expect(bracket).not.toHaveProperty('limit_price');
  });
});

describe('after a successful place', () => {
  it('size and TP/SL are cleared, so the same order or bracket cannot be placed again by a second click', () => {
    const placed = ticket({ side: 'SELL', type: 'LIMIT', tif: 'ALO', size: '0.1', price: '61000', leverage: 4, bracket: true, tp: '55000', sl: '65000' });
    const next = afterPlaced(placed);
    expect(next).toMatchObject({ side: 'SELL', type: 'LIMIT', tif: 'ALO', price: '61000', leverage: 4, size: '', tp: '', sl: '', bracket: false });
    const check = checkTicket(next, BTC, '60000');
    expect(check.ok).toBe(false);
    expect(check.errors.size).toBe('Enter a size');
    // A whole-position trigger has no size to clear: its trigger (and fire) price go, so it cannot repeat either.
    const trigger = afterPlaced(ticket({ type: 'TRIGGER', side: 'SELL', tpsl: 'SL', closeWhole: true, triggerPrice: '55000', price: '54900' }));
    expect(trigger).toMatchObject({ type: 'TRIGGER', side: 'SELL', tpsl: 'SL', closeWhole: true, triggerPrice: '', price: '' });
    expect(checkTicket(trigger, BTC, '60000').ok).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FillSchema, ListedOrderSchema, OrderRecordSchema, PositionSchema } from '../../../src/shared/protocol/index.js';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { readyTrader, startTestSim, type Api, type LegSpec, type Trader } from './helpers.js';

let sim: RunningSimulator;
let api: Api;
let t: Trader;

beforeEach(async () => {
  ({ sim, api } = await startTestSim());
  t = await readyTrader(api, 11);
});
afterEach(async () => {
  await sim.stop();
});

const marketBuy = (size: string, bound = '98000'): LegSpec => ({ market: 'BTC', side: 'BUY', size, limit_price: bound, order_type: 'MARKET', time_in_force: 'IOC' });
const limit = (side: 'BUY' | 'SELL', size: string, price: string, tif: 'GTC' | 'IOC' | 'ALO' = 'GTC'): LegSpec => ({
  market: 'BTC',
  side,
  size,
  limit_price: price,
  order_type: 'LIMIT',
  time_in_force: tif,
});

describe('order progression and fills', () => {
  it('takes a MARKET leg through SUBMITTED -> ACCEPTED -> EXECUTING -> FILLED, then shows the position after the lag', async () => {
    const leg = await t.placeOne(marketBuy('0.01'));
    expect(leg.status).toBe('SUBMITTED');
    expect((await t.order(leg.order_id)).status).toBe('SUBMITTED');
    await api.advance(100);
    expect((await t.order(leg.order_id)).status).toBe('ACCEPTED');
    await api.advance(100);
    expect((await t.order(leg.order_id)).status).toBe('EXECUTING');
    await api.advance(50);
    const done = OrderRecordSchema.parse(await t.order(leg.order_id));
    expect(done.status).toBe('FILLED');
    expect(done.avg_fill_price).toBe('97005');
    // The fill settled but /positions still lags.
    expect(await t.positions()).toEqual([]);
    await api.advance(200);
    const [pos] = await t.positions();
    expect(PositionSchema.parse(pos)).toMatchObject({ market: 'BTC', size: '0.01', entry_price: '97005', closeable: '0.01', status: 'OPEN', version: 1 });
    expect(pos.isolated_margin).toBe('24.25125');
    expect(await t.balance()).toBe('99975.312227');
    const fills = await t.fills();
    expect(fills.total).toBe(1);
    expect(FillSchema.parse(fills.fills[0])).toMatchObject({ price: '97005', size: '0.01', fee: '0.436523', dir: 'Open Long', is_liquidation: false, order_id: leg.order_id });
    expect(fills.fills[0].closed_pnl).toBeNull();
  });

  it('closes with realized PnL and a Close Long fill', async () => {
    await t.placeOne(marketBuy('0.01'));
    await api.advance(1000);
    await api.mark('BTC', '98000');
    const close = await t.placeOne({ market: 'BTC', side: 'SELL', size: '0.01', limit_price: '97000', order_type: 'MARKET', time_in_force: 'IOC', reduce_only: true });
    expect(close.status).toBe('SUBMITTED');
    await api.advance(1000);
    expect((await t.order(close.order_id)).status).toBe('FILLED');
    const fills = (await t.fills()).fills;
    expect(fills[0]).toMatchObject({ dir: 'Close Long', price: '97995', closed_pnl: '9.9' });
    expect(await t.positions()).toEqual([]);
  });

  it('fills an IOC only within its bound: PARTIALLY_FILLED_CANCELLED', async () => {
    // Depth is 2.5 BTC per level with 9-dollar steps: a bound two levels up fills 7.5 of 10.
    const leg = await t.placeOne(limit('BUY', '10', '97023', 'IOC'));
    await api.advance(1000);
    const o = await t.order(leg.order_id);
    expect(o.status).toBe('PARTIALLY_FILLED_CANCELLED');
    expect(o.filled_size).toBe('7.5');
    for (const f of (await t.fills()).fills) expect(Number(f.price)).toBeLessThanOrEqual(97023);
  });

  it('rests a GTC limit (listed open) and fills it as maker when the mark crosses', async () => {
    const leg = await t.placeOne(limit('BUY', '0.01', '96000'));
    await api.advance(100);
    expect((await t.order(leg.order_id)).status).toBe('ACCEPTED');
    const open = await t.openOrders();
    expect(open.total).toBe(1);
    expect(ListedOrderSchema.parse(open.orders[0])).toMatchObject({ order_id: leg.order_id, side: 'buy', status: 'open', order_type: 'LIMIT', time_in_force: 'GTC', is_modifying: false });
    await api.mark('BTC', '95990');
    await api.advance(50);
    expect((await t.order(leg.order_id)).status).toBe('FILLED');
    const [fill] = (await t.fills()).fills;
    expect(fill).toMatchObject({ price: '96000', fee: '0.144', liquidity: 'maker' });
  });

  it('rejects a crossing post-only order after submit with post_only_would_take', async () => {
    const leg = await t.placeOne(limit('BUY', '0.01', '97010', 'ALO'));
    expect(leg.status).toBe('SUBMITTED');
    await api.advance(100);
    const o = await t.order(leg.order_id);
    expect(o).toMatchObject({ status: 'REJECTED', reason: 'post_only_would_take' });
    const hist = await t.history();
    expect(hist.orders[0]).toMatchObject({ status: 'rejected', reason: 'post_only_would_take' });
  });

  it('writes one history row per status change, newest first', async () => {
    const leg = await t.placeOne(limit('BUY', '0.01', '96000'));
    await api.advance(100);
    await api.mark('BTC', '95990');
    await api.advance(100);
    const rows = (await t.history()).orders.filter((r: { order_id: string }) => r.order_id === leg.order_id);
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['filled', 'open']);
    for (const r of rows) ListedOrderSchema.parse(r);
  });

  it('hides new orders during the persist lag', async () => {
    await api.control('/chaos', { persist_lag_ms: 300 });
    const leg = await t.placeOne(limit('BUY', '0.01', '96000'));
    expect((await t.order(leg.order_id)).http).toBe(404);
    await api.advance(300);
    expect((await t.order(leg.order_id)).status).toBe('ACCEPTED');
  });
});

describe('validation (400) and business rejections (200)', () => {
  it('answers 400 naming the field', async () => {
    const good = await t.leg(limit('BUY', '0.01', '96000'));
    const cases: [unknown, string][] = [
      [{ account_id: t.accountId, orders: [] }, 'orders'],
      [{ account_id: t.accountId, orders: Array(21).fill(good) }, 'orders'],
      [{ account_id: t.wallet, orders: [good] }, 'account_id'],
      [{ account_id: t.accountId, orders: [{ ...good, client_order_id: undefined }] }, 'orders[0].client_order_id'],
      [{ account_id: t.accountId, orders: [{ ...good, size: '0.010' }] }, 'orders[0].size'],
      [{ account_id: t.accountId, orders: [{ ...good, time_in_force: undefined }] }, 'orders[0].time_in_force'],
      [{ account_id: t.accountId, orders: [{ ...good, order_type: 'LIQUIDATION' }] }, 'orders[0].order_type'],
      [{ account_id: t.accountId, orders: [good, { ...good, nonce: '1' }] }, 'orders[1].client_order_id'],
      [{ account_id: t.accountId, orders: [{ ...good, parent_client_order_id: 'nope' }] }, 'orders[0].parent_client_order_id'],
    ];
    for (const [body, field] of cases) {
      const r = await api.post('/orders', body);
      expect(r.status, field).toBe(400);
      expect(r.body.error.code).toBe('INVALID_REQUEST');
      expect(r.body.error.message.startsWith(field), r.body.error.message).toBe(true);
    }
    const entry = await t.leg({ ...marketBuy('0.01'), client_order_id: 'e1' });
    const badChild = await t.leg({ market: 'BTC', side: 'SELL', size: '0.01', limit_price: '99000', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '99000', is_market: true, tpsl: 'TP' }, parent_client_order_id: 'e1' });
    const r = await api.post('/orders', { account_id: t.accountId, orders: [entry, badChild] });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('orders[1].size');
  });

  it('rejects legs individually with reasons; success is true only when all are SUBMITTED', async () => {
    const r = await t.place([
      limit('BUY', '0.01', '96000'),
      limit('BUY', '0.01', '96000.5'),
      limit('BUY', '0.0001', '96000'),
      { ...marketBuy('0.01'), time_in_force: 'ALO' },
      { ...limit('BUY', '1', '0.5'), market: 'NOPE' },
      { market: 'MATIC', side: 'BUY', size: '100', limit_price: '0.38', order_type: 'LIMIT', time_in_force: 'GTC' },
      { market: 'BTC', side: 'SELL', size: '0.01', limit_price: '90000', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '90000', is_market: false, tpsl: 'SL' } },
      { market: 'BTC', side: 'SELL', size: '0.01', limit_price: '97500', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '97500', is_market: true, tpsl: 'SL' } },
      { market: 'ETH', side: 'BUY', size: '2000', limit_price: '3000', order_type: 'LIMIT', time_in_force: 'GTC' },
      limit('BUY', '0.000001', '96000'),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(false);
    expect(r.body.data.map((l: { status: string; reason?: string }) => l.reason ?? l.status)).toEqual([
      'SUBMITTED',
      'price_off_tick',
      'min_order_value',
      'market_order_must_be_ioc',
      'unknown_market',
      'market_inactive',
      'trigger_limit_not_supported',
      'trigger_past_mark',
      'max_notional',
      'size_too_many_decimals',
    ]);
    for (const leg of r.body.data) expect(typeof leg.order_id).toBe('string');
  });

  it('accepts the max_notional "0" sentinel as no ceiling and exempts reduce-only legs from min_order_value', async () => {
    const big = await t.placeOne(limit('BUY', '50', '90000'));
    expect(big.status).toBe('SUBMITTED');
    const tiny = await t.placeOne({ ...limit('SELL', '0.00001', '99000'), reduce_only: true });
    expect(tiny.status).toBe('SUBMITTED');
  });

  it('caps open orders per market, counting resting orders, armed triggers and legs awaiting entry', async () => {
    const { sim: s2, api: a2 } = await startTestSim(undefined);
    try {
      const w = await readyTrader(a2, 12);
      // WIF allows 5 open orders.
      const rest = (p: string): LegSpec => ({ market: 'WIF', side: 'BUY', size: '10', limit_price: p, order_type: 'LIMIT', time_in_force: 'GTC' });
      const r = await w.place([
        rest('2'),
        rest('2.1'),
        { ...rest('2.2'), client_order_id: 'entry' },
        { market: 'WIF', side: 'SELL', size: '0', limit_price: '2', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '2.1', is_market: true, tpsl: 'SL' }, parent_client_order_id: 'entry' },
        rest('2.3'),
        rest('2.4'),
      ]);
      expect(r.body.data.map((l: { status: string; reason?: string }) => l.reason ?? l.status)).toEqual(['SUBMITTED', 'SUBMITTED', 'SUBMITTED', 'SUBMITTED', 'SUBMITTED', 'max_open_orders']);
      // An IOC does not rest and does not count.
      expect((await w.placeOne({ ...rest('2'), time_in_force: 'IOC' })).status).toBe('SUBMITTED');
    } finally {
      await s2.stop();
    }
  });
});

describe('triggers and brackets', () => {
  const sl = (price: string, size = '0'): LegSpec => ({
    market: 'BTC',
    side: 'SELL',
    size,
    limit_price: String(Number(price) - 500),
    order_type: 'TRIGGER',
    reduce_only: true,
    trigger: { trigger_price: price, is_market: true, tpsl: 'SL' },
  });

  it('fires an armed SL when the mark crosses, lists it as triggered, and closes the position', async () => {
    await t.placeOne(marketBuy('0.01'));
    await api.advance(1000);
    const trig = await t.placeOne(sl('96000'));
    expect(trig.status).toBe('SUBMITTED');
    expect((await t.triggers()).total).toBe(1);
    expect((await t.triggers()).orders[0]).toMatchObject({ trigger_direction: 'down', tpsl: 'sl', is_trigger_market: true, status: 'open' });
    // The armed trigger blocks a reduce-only close and zeroes closeable.
    expect((await t.positions())[0].closeable).toBe('0');
    const blocked = await t.placeOne({ market: 'BTC', side: 'SELL', size: '0.01', limit_price: '96000', order_type: 'MARKET', time_in_force: 'IOC', reduce_only: true });
    expect(blocked).toMatchObject({ status: 'REJECTED', reason: 'close_trigger_coexistence' });
    await api.mark('BTC', '95999');
    expect((await t.order(trig.order_id)).status).toBe('ACCEPTED');
    expect((await t.history()).orders[0]).toMatchObject({ order_id: trig.order_id, status: 'triggered' });
    await api.advance(1000);
    const done = await t.order(trig.order_id);
    expect(done.status).toBe('FILLED');
    expect(done.size).toBe('0.01');
    expect(await t.positions()).toEqual([]);
  });

  it('runs a bracket: legs wait in PENDING_PARENT, arm on the entry fill, and one replaces an armed whole-position trigger', async () => {
    await t.placeOne(marketBuy('0.01'));
    await api.advance(1000);
    const old = await t.placeOne(sl('95000'));
    const r = await t.place([
      { ...marketBuy('0.01'), client_order_id: 'entry' },
      { market: 'BTC', side: 'SELL', size: '0', limit_price: '98500', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '99000', is_market: true, tpsl: 'TP' }, parent_client_order_id: 'entry' },
      { ...sl('96000'), parent_client_order_id: 'entry' },
    ]);
    expect(r.body.success).toBe(true);
    const [entry, tp, stop] = r.body.data;
    expect((await t.order(tp.order_id)).status).toBe('PENDING_PARENT');
    const open = await t.openOrders();
    const tpRow = open.orders.find((o: { order_id: string }) => o.order_id === tp.order_id);
    expect(tpRow).toMatchObject({ status: 'open', parent_order_id: entry.order_id });
    expect((await t.triggers()).orders.map((o: { order_id: string }) => o.order_id)).toEqual([old.order_id]);
    await api.advance(250);
    expect((await t.order(entry.order_id)).status).toBe('FILLED');
    await api.advance(200);
    expect((await t.order(tp.order_id)).status).toBe('SUBMITTED');
    expect((await t.order(stop.order_id)).status).toBe('SUBMITTED');
    expect(await t.order(old.order_id)).toMatchObject({ status: 'CANCELLED', reason: 'bracket_replaced' });
    const triggers = await t.triggers();
    expect(triggers.total).toBe(2);
    for (const row of triggers.orders) expect(row.parent_order_id).toBeUndefined();
  });

  it('rejects every leg of a bracket group with the same reason', async () => {
    const r = await t.place([
      limit('BUY', '0.01', '96000'),
      { ...limit('BUY', '0.01', '96000'), client_order_id: 'e' },
      { market: 'BTC', side: 'SELL', size: '0', limit_price: '95000', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '95500', is_market: true, tpsl: 'TP' }, parent_client_order_id: 'e' },
    ]);
    expect(r.body.data.map((l: { status: string; reason?: string }) => l.reason ?? l.status)).toEqual(['SUBMITTED', 'bracket_tp_wrong_side', 'bracket_tp_wrong_side']);
  });

  it('cancels pending legs with bracket_parent_not_filled when an unfilled entry is cancelled', async () => {
    const r = await t.place([
      { ...limit('BUY', '0.01', '96000'), client_order_id: 'e' },
      { ...sl('95000'), parent_client_order_id: 'e' },
    ]);
    const [entry, leg] = r.body.data;
    await api.advance(100);
    const modify = await t.modify(leg.order_id, { limit_price: '94000', size: '0', trigger_price: '94500' });
    expect(modify.body.data).toMatchObject({ status: 'REJECTED', reason: 'modify_not_modifiable' });
    const c = await t.cancel(entry.order_id, 'LIMIT');
    expect(c.body.data.status).toBe('SUBMITTED');
    await api.advance(100);
    expect((await t.order(entry.order_id)).status).toBe('CANCELLED');
    expect(await t.order(leg.order_id)).toMatchObject({ status: 'CANCELLED', reason: 'bracket_parent_not_filled' });
  });
});

describe('modify and cancel', () => {
  it('modifies a resting limit: new id in PENDING_MODIFY, old id dead, then swapped', async () => {
    const leg = await t.placeOne(limit('BUY', '0.01', '96000', 'ALO'));
    await api.advance(100);
    const reuse = await t.modify(leg.order_id, { limit_price: '95000', size: '0.02', client_order_id: (await t.order(leg.order_id)).client_order_id });
    expect(reuse.status).toBe(400);
    const m = await t.modify(leg.order_id, { limit_price: '95000', size: '0.02' });
    expect(m.status).toBe(200);
    const newId = m.body.data.order_id;
    expect(newId).not.toBe(leg.order_id);
    expect((await t.order(newId)).status).toBe('PENDING_MODIFY');
    const rows = (await t.openOrders()).orders;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ order_id: leg.order_id, is_modifying: true });
    expect((await t.cancel(leg.order_id, 'LIMIT')).body.data).toMatchObject({ status: 'REJECTED', reason: 'order_replaced' });
    await api.advance(100);
    expect(await t.order(leg.order_id)).toMatchObject({ status: 'CANCELLED', reason: 'modified' });
    expect(await t.order(newId)).toMatchObject({ status: 'ACCEPTED', limit_price: '95000', size: '0.02', time_in_force: 'ALO' });
  });

  it('drops a trigger modify that races the fire, keeping the original', async () => {
    await t.placeOne(marketBuy('0.01'));
    await api.advance(1000);
    const trig = await t.placeOne({ market: 'BTC', side: 'SELL', size: '0', limit_price: '95500', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '96000', is_market: true, tpsl: 'SL' } });
    const m = await t.modify(trig.order_id, { limit_price: '95000', size: '0', trigger_price: '95500' });
    expect(m.body.data.status).toBe('SUBMITTED');
    await api.mark('BTC', '95900');
    await api.advance(1000);
    expect((await t.order(trig.order_id)).status).toBe('FILLED');
    expect(await t.order(m.body.data.order_id)).toMatchObject({ status: 'CANCELLED', reason: 'modify_dropped' });
  });

  it('cancel-batch fails only the leg with a bad signature and answers 200 success:false', async () => {
    const a = await t.placeOne(limit('BUY', '0.01', '96000'));
    const b = await t.placeOne(limit('BUY', '0.01', '95000'));
    await api.advance(100);
    const good = await t.cancelBody(a.order_id, 'LIMIT');
    const bad = await t.cancelBody(b.order_id, 'LIMIT');
    bad.signature = (await t.cancelBody(a.order_id, 'LIMIT')).signature;
    const r = await api.post('/orders/cancel-batch', {
      account: t.wallet,
      cancels: [
        { order_id: a.order_id, order_type: 'LIMIT', nonce: good.nonce, signature: good.signature },
        { order_id: b.order_id, order_type: 'LIMIT', nonce: bad.nonce, signature: bad.signature },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(false);
    expect(r.body.data[0]).toMatchObject({ status: 'SUBMITTED' });
    expect(r.body.data[1]).toMatchObject({ status: 'FAILED', reason: 'invalid_signature' });
    await api.advance(100);
    expect((await t.order(a.order_id)).status).toBe('CANCELLED');
    expect((await t.order(b.order_id)).status).toBe('ACCEPTED');
    const wrongType = await t.cancel(b.order_id, 'TRIGGER');
    expect(wrongType.body.data).toMatchObject({ status: 'REJECTED', reason: 'order_type_mismatch' });
  });

  it('answers 409 to a replayed order nonce', async () => {
    const leg = await t.leg(limit('BUY', '0.01', '96000'));
    expect((await t.place([leg])).status).toBe(200);
    expect((await t.place([{ ...leg, client_order_id: 'other' }])).status).toBe(409);
  });
});

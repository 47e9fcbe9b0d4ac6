import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { readyTrader, startTestSim, type Api, type LegSpec, type Trader } from './helpers.js';

let sim: RunningSimulator;
let api: Api;
let t: Trader;

beforeEach(async () => {
  ({ sim, api } = await startTestSim());
  t = await readyTrader(api, 51, '1000000');
});
afterEach(async () => {
  await sim.stop();
});

const tp = (price: string, parent = 'entry'): LegSpec => ({
  market: 'BTC',
  side: 'SELL',
  size: '0',
  limit_price: String(Number(price) - 500),
  order_type: 'TRIGGER',
  reduce_only: true,
  trigger: { trigger_price: price, is_market: true, tpsl: 'TP' },
  parent_client_order_id: parent,
});
const sl = (price: string, parent = 'entry'): LegSpec => ({ ...tp(price, parent), trigger: { trigger_price: price, is_market: true, tpsl: 'SL' } });

describe('bracket edge cases', () => {
  it('arms the legs when a partly filled entry is cancelled', async () => {
    // A GTC buy 10 at 97014 takes two ask levels (5 BTC) and rests the rest.
    const r = await t.place([{ market: 'BTC', side: 'BUY', size: '10', limit_price: '97014', order_type: 'LIMIT', time_in_force: 'GTC', client_order_id: 'entry' }, tp('99000'), sl('95000')]);
    const [entry, up, down] = r.body.data;
    await api.advance(250);
    const e = await t.order(entry.order_id);
    expect(e.status).toBe('ACCEPTED');
    expect(e.filled_size).toBe('5');
    expect((await t.order(up.order_id)).status).toBe('PENDING_PARENT');
    await t.cancel(entry.order_id, 'LIMIT');
    await api.advance(100);
    expect(await t.order(entry.order_id)).toMatchObject({ status: 'PARTIALLY_FILLED_CANCELLED', filled_size: '5' });
    await api.advance(200);
    expect((await t.order(up.order_id)).status).toBe('SUBMITTED');
    expect((await t.order(down.order_id)).status).toBe('SUBMITTED');
    expect((await t.triggers()).total).toBe(2);
  });

  it('cancels the legs with bracket_no_position when the entry only reduced an opposite position', async () => {
    await t.placeOne({ market: 'BTC', side: 'SELL', size: '1', limit_price: '96000', order_type: 'MARKET', time_in_force: 'IOC' });
    await api.advance(1000);
    const r = await t.place([{ market: 'BTC', side: 'BUY', size: '0.5', limit_price: '98000', order_type: 'MARKET', time_in_force: 'IOC', client_order_id: 'entry' }, tp('99000')]);
    await api.advance(1000);
    expect(await t.order(r.body.data[1].order_id)).toMatchObject({ status: 'CANCELLED', reason: 'bracket_no_position' });
  });

  it('cancels the legs with bracket_parent_missing when the entry could not be routed (FAILED)', async () => {
    await api.control('/order-outcome', { next: true, outcome: 'FAILED' });
    const r = await t.place([{ market: 'BTC', side: 'BUY', size: '0.5', limit_price: '98000', order_type: 'MARKET', time_in_force: 'IOC', client_order_id: 'entry' }, sl('95000')]);
    await api.advance(100);
    expect((await t.order(r.body.data[0].order_id)).status).toBe('FAILED');
    expect(await t.order(r.body.data[1].order_id)).toMatchObject({ status: 'CANCELLED', reason: 'bracket_parent_missing' });
  });

  it('re-checks pending legs when the entry is modified, and moves them to the new id', async () => {
    const r = await t.place([{ market: 'BTC', side: 'BUY', size: '0.5', limit_price: '96000', order_type: 'LIMIT', time_in_force: 'GTC', client_order_id: 'entry' }, tp('97000'), sl('95000')]);
    const [entry, up] = r.body.data;
    await api.advance(100);
    const wrong = await t.modify(entry.order_id, { limit_price: '97500', size: '0.5' });
    expect(wrong.body.data).toMatchObject({ status: 'REJECTED', reason: 'bracket_tp_wrong_side' });
    const wrongSl = await t.modify(entry.order_id, { limit_price: '94000', size: '0.5' });
    expect(wrongSl.body.data).toMatchObject({ status: 'REJECTED', reason: 'bracket_sl_wrong_side' });
    const ok = await t.modify(entry.order_id, { limit_price: '96500', size: '0.5' });
    expect(ok.body.data.status).toBe('SUBMITTED');
    await api.advance(100);
    const leg = await t.order(up.order_id);
    expect(leg).toMatchObject({ status: 'PENDING_PARENT', parent_order_id: ok.body.data.order_id });
  });

  it('lets a PENDING_PARENT leg be cancelled with order_type TRIGGER', async () => {
    const r = await t.place([{ market: 'BTC', side: 'BUY', size: '0.5', limit_price: '96000', order_type: 'LIMIT', time_in_force: 'GTC', client_order_id: 'entry' }, sl('95000')]);
    const c = await t.cancel(r.body.data[1].order_id, 'TRIGGER');
    expect(c.body.data.status).toBe('SUBMITTED');
    await api.advance(100);
    expect((await t.order(r.body.data[1].order_id)).status).toBe('CANCELLED');
    expect((await t.order(r.body.data[0].order_id)).status).toBe('ACCEPTED');
  });

  it('takes whole-position triggers away when the position closes', async () => {
    await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.5', limit_price: '98000', order_type: 'MARKET', time_in_force: 'IOC' });
    await api.advance(1000);
    const r = await t.place([
      { market: 'BTC', side: 'SELL', size: '0', limit_price: '98500', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '99000', is_market: true, tpsl: 'TP' } },
      { market: 'BTC', side: 'SELL', size: '0', limit_price: '94500', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '95000', is_market: true, tpsl: 'SL' } },
    ]);
    await api.mark('BTC', '99100');
    await api.advance(1000);
    expect((await t.order(r.body.data[0].order_id)).status).toBe('FILLED');
    expect(await t.order(r.body.data[1].order_id)).toMatchObject({ status: 'CANCELLED', reason: 'position_closed' });
  });
});

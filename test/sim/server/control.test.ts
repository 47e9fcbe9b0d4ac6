import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readyTrader, startTestSim, Api, Trader } from './helpers.js';
import { startSimulator } from '../../../src/sim/index.js';

describe('chaos', () => {
  it('error_rate answers 500 INTERNAL_ERROR without processing; drop_rate processes then drops the connection', async () => {
    const { sim, api } = await startTestSim();
    try {
      const t = await readyTrader(api, 41);
      await api.control('/chaos', { error_rate: 1 });
      const leg = await t.leg({ market: 'BTC', side: 'BUY', size: '0.01', limit_price: '96000', order_type: 'LIMIT', time_in_force: 'GTC' });
      const failed = await api.post('/orders', { account_id: t.accountId, orders: [leg] });
      expect(failed.status).toBe(500);
      expect(failed.body.error.code).toBe('INTERNAL_ERROR');
      // Not processed: the same nonce still works.
      await api.control('/chaos', { error_rate: 0, drop_rate: 1 });
      await expect(api.post('/orders', { account_id: t.accountId, orders: [leg] })).rejects.toThrow();
      await api.control('/chaos', { drop_rate: 0 });
      // Processed: the order exists and the nonce is spent.
      expect((await t.openOrders()).total).toBe(0);
      await api.advance(100);
      expect((await t.openOrders()).total).toBe(1);
      expect((await api.post('/orders', { account_id: t.accountId, orders: [leg] })).status).toBe(409);
      // Control and venue routes are never affected.
      await api.control('/chaos', { error_rate: 1 });
      expect((await api.control('/state')).chaos.error_rate).toBe(1);
    } finally {
      await sim.stop();
    }
  });
});

describe('persistence', () => {
  it('round-trips the state file: balances, orders, positions, keys, nonces and pending jobs survive a restart', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sim-state-')), 'state.json');
    const first = await startTestSim(undefined, { stateFile: file });
    const t = await readyTrader(first.api, 42, '5000');
    await t.placeOne({ market: 'ETH', side: 'BUY', size: '0.5', limit_price: '3500', order_type: 'MARKET', time_in_force: 'IOC' });
    await first.api.advance(1000);
    const resting = await t.placeOne({ market: 'ETH', side: 'BUY', size: '0.1', limit_price: '3000', order_type: 'LIMIT', time_in_force: 'GTC' });
    const usedLeg = await t.leg({ market: 'ETH', side: 'BUY', size: '0.1', limit_price: '3001', order_type: 'LIMIT', time_in_force: 'GTC' });
    await t.place([usedLeg]);
    const pendingWithdrawal = await t.withdraw('10');
    const before = { balance: await t.balance(), positions: await t.positions(), open: await t.openOrders(), now: first.sim.clock.now() };
    await first.sim.stop();
    expect(fs.existsSync(file)).toBe(true);

    const second = await startSimulator({ port: 0, manualClock: true, stateFile: file });
    try {
      const api = new Api(second);
      const t2 = new Trader(api, 42);
      expect(second.clock.now()).toBe(before.now);
      expect(await t2.balance()).toBe(before.balance);
      expect(await t2.positions()).toEqual(before.positions);
      expect((await t2.openOrders()).total).toBe(before.open.total);
      expect((await api.get(`/auth/trading-keys?wallet=${t2.wallet}`)).body.data).toHaveLength(1);
      expect((await t2.place([usedLeg])).status).toBe(409);
      // Pending jobs resumed: the second limit goes live and the withdrawal completes.
      await api.advance(6000);
      expect((await t2.order(resting.order_id)).status).toBe('ACCEPTED');
      expect((await api.get(`/withdrawal-history/${pendingWithdrawal.body.data.withdrawal_id}`)).body.data.status).toBe('COMPLETED');
    } finally {
      await second.stop();
    }
  });
});

describe('liquidation and funding', () => {
  it('liquidates below maintenance margin with a LIQUIDATION order and an is_liquidation fill', async () => {
    const { sim, api } = await startTestSim();
    try {
      const t = await readyTrader(api, 43, '1000');
      await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.1', limit_price: '98000', order_type: 'MARKET', time_in_force: 'IOC', leverage: 40 });
      await api.advance(1000);
      const [pos] = await t.positions();
      expect(Number(pos.liquidation_price)).toBeGreaterThan(90000);
      await api.mark('BTC', String(Math.floor(Number(pos.liquidation_price)) - 10));
      await api.advance(500);
      expect(await t.positions()).toEqual([]);
      const hist = await t.history();
      expect(hist.orders[0]).toMatchObject({ order_type: 'LIQUIDATION', status: 'filled', reduce_only: true });
      const [fill] = (await t.fills()).fills;
      expect(fill).toMatchObject({ is_liquidation: true, dir: 'Close Long' });
      const r = await t.place([{ market: 'BTC', side: 'SELL', size: '0.1', limit_price: '1', order_type: 'LIQUIDATION' as never }]);
      expect(r.status).toBe(400);
    } finally {
      await sim.stop();
    }
  });

  it('pays funding once per position per venue hour', async () => {
    const { sim, api } = await startTestSim();
    try {
      const t = await readyTrader(api, 44, '10000');
      await t.placeOne({ market: 'ETH', side: 'BUY', size: '1', limit_price: '3500', order_type: 'MARKET', time_in_force: 'IOC' });
      await t.placeOne({ market: 'WIF', side: 'SELL', size: '100', limit_price: '2', order_type: 'MARKET', time_in_force: 'IOC' });
      await api.advance(1000);
      await api.advance(2 * 3_600_000);
      const data = (await api.get(`/account/funding-history?wallet=${t.wallet}`)).body.data;
      expect(data.total).toBe(4);
      const eth = data.payments.filter((p: { market: string }) => p.market === 'ETH');
      expect(eth).toHaveLength(2);
      expect(eth[0]).toMatchObject({ direction: 'LONG', size: '1', funding_rate: '0.0000125' });
      expect(Number(eth[0].payment)).toBeLessThan(0);
      expect(eth[0].epoch_time % 3_600_000).toBe(0);
      const wif = data.payments.find((p: { market: string }) => p.market === 'WIF');
      expect(wif).toMatchObject({ direction: 'SHORT', funding_rate: '-0.00001' });
      expect(Number(wif.payment)).toBeLessThan(0);
    } finally {
      await sim.stop();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FundingConfigSchema, MarketsSchema, OpenOrdersSchema, OrderHistorySchema, TradeHistorySchema, FundingHistorySchema } from '../../../src/shared/protocol/index.js';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { readyTrader, startTestSim, type Api, type Trader } from './helpers.js';

let sim: RunningSimulator;
let api: Api;
let t: Trader;

beforeAll(async () => {
  ({ sim, api } = await startTestSim());
  t = await readyTrader(api, 31);
  const legs = [];
  for (let i = 0; i < 12; i++) legs.push({ market: 'BTC', side: 'BUY' as const, size: '0.001', limit_price: String(90000 + i), order_type: 'LIMIT' as const, time_in_force: 'GTC' as const });
  await t.place(legs);
  await t.placeOne({ market: 'ETH', side: 'BUY', size: '0.01', limit_price: '3000', order_type: 'LIMIT', time_in_force: 'GTC' });
  await api.advance(1000);
});
afterAll(async () => {
  await sim.stop();
});

describe('configuration reads', () => {
  it('serves /markets and /config in the spec shape with realistic variety', async () => {
    const markets = MarketsSchema.parse((await api.get('/markets')).body.data);
    expect(markets.map((m) => m.symbol)).toEqual(expect.arrayContaining(['BTC', 'ETH', 'SOL']));
    expect(markets.some((m) => m.max_notional === '0')).toBe(true);
    expect(markets.some((m) => !m.is_active)).toBe(true);
    expect(markets.some((m) => m.symbol !== m.venue_symbol)).toBe(true);
    expect(new Set(markets.map((m) => m.tick_size)).size).toBeGreaterThan(3);
    const config = FundingConfigSchema.parse((await api.get('/config')).body.data);
    expect(config.deposit.hypercore.address).toMatch(/^0x/);
    expect(config.deposit.arbitrum?.min_amount).toBeDefined();
  });

  it('names and indexes match the venue universe', async () => {
    const markets = MarketsSchema.parse((await api.get('/markets')).body.data);
    const meta = (await api.request('POST', sim.urls.venue_info_url, { type: 'meta' })).body as { universe: { name: string }[] };
    for (const m of markets) expect(meta.universe[m.venue_asset_index]?.name).toBe(m.venue_symbol);
  });
});

describe('account reads', () => {
  it('open-orders defaults to 10, paginates, filters by market and reports the total', async () => {
    const page = OpenOrdersSchema.parse(await t.openOrders());
    expect(page.orders).toHaveLength(10);
    expect(page.total).toBe(13);
    expect((await t.openOrders('&offset=10&limit=10')).orders).toHaveLength(3);
    const eth = await t.openOrders('&market=ETH');
    expect(eth.total).toBe(1);
    expect(eth.orders[0].market).toBe('ETH');
  });

  it('validates limit 1..200 and offset >= 0 on the wallet-keyed paginated reads', async () => {
    for (const path of ['open-orders', 'order-history', 'trade-history', 'funding-history']) {
      for (const q of ['limit=0', 'limit=201', 'offset=-1', 'limit=abc']) {
        const r = await api.get(`/account/${path}?wallet=${t.wallet}&${q}`);
        expect(r.status, `${path}?${q}`).toBe(400);
        expect(r.body.error.code).toBe('INVALID_REQUEST');
      }
      expect((await api.get(`/account/${path}?wallet=${t.wallet}&limit=200`)).status).toBe(200);
      expect((await api.get(`/account/${path}`)).status).toBe(400);
    }
    // position-triggers accepts anything (unpaginated).
    expect((await api.get(`/account/position-triggers?wallet=${t.wallet}&limit=0&offset=-5`)).status).toBe(200);
  });

  it('account_id routes refuse a plain wallet; shapes have totals where the spec has them', async () => {
    for (const path of ['balance', 'positions', 'deposit-history', 'withdrawal-history']) {
      const r = await api.get(`/account/${t.wallet}/${path}`);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain('account_id');
      expect((await api.get(`/account/${t.accountId}/${path}`)).status).toBe(200);
    }
    OrderHistorySchema.parse(await t.history());
    TradeHistorySchema.parse(await t.fills());
    FundingHistorySchema.parse((await api.get(`/account/funding-history?wallet=${t.wallet}`)).body.data);
    expect((await api.get(`/account/${t.accountId}/balance`)).body.data).toEqual({ account: t.accountId, free_balance: '100000' });
  });

  it('answers 404 for unknown orders and unknown routes in the envelope', async () => {
    const r = await api.get('/orders/123');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect(typeof r.body.timestamp).toBe('number');
    expect((await api.get('/nope')).status).toBe(404);
  });
});

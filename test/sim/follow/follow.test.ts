/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers handed to assertions */
/**
 * Paper trading on live market data: the simulator's venue follows a loopback upstream (upstreamVenue.ts,
 * Hyperliquid-shaped with its quirks), and orders placed over real HTTP execute against what it serves.
 * The simulator's clock is manual (orders move with /sim/advance); the upstream lives in real time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import Decimal from 'decimal.js';
import { deriveWsUrl, startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { Api, T0, quietConfig, readyTrader, type Trader } from '../server/helpers.js';
import { UpstreamVenue, type Level } from './upstreamVenue.js';
import { publishedMark, until, venueInfo } from './followSupport.js';

let upstream: UpstreamVenue;
let sim: RunningSimulator;
let api: Api;
let logs: string[];

const OUTAGE_MS = 1500;

async function startFollowing(): Promise<void> {
  logs = [];
  sim = await startSimulator({
    port: 0,
    manualClock: true,
    startTime: T0,
    config: quietConfig(),
    followVenue: { infoUrl: upstream.infoUrl, outageAfterMs: OUTAGE_MS, log: (line) => logs.push(line) },
  });
  api = new Api(sim);
}

const info = (body: unknown): Promise<any> => venueInfo(sim, body);

const follow = (): Promise<any> => api.control('/follow');
const l2Time = async (coin: string): Promise<number> => (await info({ type: 'l2Book', coin })).time as number;
const markOf = (coin: string): Promise<string> => publishedMark(sim, coin);

/** Publishes a new upstream BTC book and waits until the simulator serves that snapshot. */
async function btcBook(bids: Level[], asks: Level[]): Promise<void> {
  const time = upstream.setBook('BTC', bids, asks);
  await until(() => l2Time('BTC'), (t) => t === time, 'the new BTC book');
}

const lv = (px: string, sz: string, n = 2): Level => ({ px, sz, n });

beforeEach(async () => {
  upstream = new UpstreamVenue();
  await upstream.start();
  upstream.setBook('BTC', [lv('96999.0', '1.0'), lv('96990.0', '2.0')], [lv('97001.0', '1.0'), lv('97010.0', '2.0')]);
});

afterEach(async () => {
  await sim?.stop();
  await upstream.stop();
});

describe('following an upstream venue', () => {
  it('serves the upstream marks, mids, contexts and book for the markets it lists; the others keep the walk and say so', async () => {
    await startFollowing();
    const status = await follow();
    expect(status).toMatchObject({ mode: 'follow', info_url: upstream.infoUrl, ws_url: deriveWsUrl(upstream.infoUrl), feed: 'live' });
    const bySymbol = Object.fromEntries(status.markets.map((m: any) => [m.venue_symbol, m]));
    expect(bySymbol.BTC).toEqual({ venue_symbol: 'BTC', source: 'upstream', state: 'live' });
    expect(bySymbol.kPEPE).toEqual({ venue_symbol: 'kPEPE', source: 'upstream', state: 'live' });
    expect(status.band).toBe('0.1');
    expect(bySymbol.WIF).toMatchObject({ source: 'walk', reason: 'not listed by the upstream' });
    expect(bySymbol.MATIC).toMatchObject({ source: 'walk', reason: 'delisted upstream' });
    expect(logs.some((l) => l.includes('WIF: not listed by the upstream; it keeps the simulated walk'))).toBe(true);
    expect(logs.some((l) => l.includes('MATIC: delisted upstream; it keeps the simulated walk'))).toBe(true);

    // Trailing '.0' decimals come out in plain notation; the upstream's own book time and order counts are kept.
    expect(await markOf('BTC')).toBe('97000');
    const book = await info({ type: 'l2Book', coin: 'BTC' });
    expect(book.levels[1].slice(0, 2)).toEqual([{ px: '97001', sz: '1', n: 2 }, { px: '97010', sz: '2', n: 2 }]);
    // Spot pairs in the upstream's allMids never leak into the simulated venue's.
    const mids = await info({ type: 'allMids' });
    expect(Object.keys(mids).sort()).toEqual(['BTC', 'ETH', 'MATIC', 'SOL', 'WIF', 'kPEPE']);

    upstream.setCtx('BTC', { markPx: '97123.0', midPx: '97124.5', funding: '0.0000321' });
    await until(() => markOf('BTC'), (m) => m === '97123', 'the new BTC mark');
    const [meta, ctxs] = await info({ type: 'metaAndAssetCtxs' });
    const btc = ctxs[meta.universe.findIndex((u: any) => u.name === 'BTC')];
    expect(btc).toMatchObject({ markPx: '97123', midPx: '97124.5', funding: '0.0000321', openInterest: '1234.5' });
    expect((await info({ type: 'allMids' })).BTC).toBe('97124.5');
    expect((await api.control('/state')).marks.BTC).toBe('97123');

    // Candles and funding history of a followed coin are the upstream's; a walking market's stay local.
    const candles = await info({ type: 'candleSnapshot', req: { coin: 'BTC', interval: '1m', startTime: T0 - 60_000 } });
    expect(candles).toEqual([expect.objectContaining({ o: '96000.0', n: 42, s: 'BTC' })]);
    // The same read again within a second is answered from the last one, not asked upstream again.
    const asked = upstream.requests.filter((r) => r.type === 'candleSnapshot').length;
    expect(await info({ type: 'candleSnapshot', req: { coin: 'BTC', interval: '1m', startTime: T0 - 60_000 } })).toEqual(candles);
    expect(upstream.requests.filter((r) => r.type === 'candleSnapshot').length).toBe(asked);
    expect(await info({ type: 'fundingHistory', coin: 'BTC', startTime: 0 })).toEqual([expect.objectContaining({ fundingRate: '0.0000321' })]);
    expect((await info({ type: 'fundingHistory', coin: 'WIF', startTime: T0 - 3_600_000 }))[0].fundingRate).toBe('-0.00001');

    // A followed mark cannot be set by hand.
    const refused = await api.request('POST', sim.urls.control_url + '/mark', { market: 'BTC', price: '50000' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('follows the upstream venue');
  });

  it("republishes the upstream's trades and moves on its WebSocket channels, ignoring channels it does not follow", async () => {
    await startFollowing();
    const ws = new WebSocket(sim.urls.venue_ws_url);
    const messages: any[] = [];
    ws.on('message', (d: Buffer) => messages.push(JSON.parse(d.toString('utf8'))));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ method: 'subscribe', subscription: { type: 'trades', coin: 'BTC' } }));
    ws.send(JSON.stringify({ method: 'subscribe', subscription: { type: 'l2Book', coin: 'BTC' } }));
    await until(() => messages.length, (n) => n >= 3, 'subscription answers');
    upstream.trade('BTC', 'A', '96998.0', '0.25');
    const trade: any = await until(() => messages.find((m) => m.channel === 'trades'), Boolean, 'the upstream trade');
    expect(trade.data[0]).toMatchObject({ coin: 'BTC', side: 'A', px: '96998', sz: '0.25' });
    upstream.setBook('BTC', [lv('96900.0', '1.0')], [lv('96901.0', '1.5')]);
    const book = await until(() => messages.filter((m) => m.channel === 'l2Book').at(-1), (m) => m?.data.levels[1][0].px === '96901', 'the pushed book');
    expect(book.data.levels[1][0]).toEqual({ px: '96901', sz: '1.5', n: 2 });
    ws.close();
  });

  describe('execution on the live book', () => {
    let t: Trader;
    beforeEach(async () => {
      await startFollowing();
      t = await readyTrader(api, 31);
    });

    it('walks a MARKET leg up the upstream levels to its slippage bound, never beyond, and cancels the remainder', async () => {
      await btcBook([lv('96999.0', '1.0')], [lv('97001.0', '0.1'), lv('97003.0', '0.2'), lv('97010.0', '5.0')]);
      const leg = await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.5', limit_price: '97005', order_type: 'MARKET', time_in_force: 'IOC' });
      await api.advance(1000);
      const order = await t.order(leg.order_id);
      expect(order).toMatchObject({ status: 'PARTIALLY_FILLED_CANCELLED', reason: 'unfilled_remainder_cancelled', filled_size: '0.3' });
      const fills = (await t.fills()).fills.map((f: any) => [f.price, f.size]).sort();
      expect(fills).toEqual([
        ['97001', '0.1'],
        ['97003', '0.2'],
      ]);
      // The average is the size-weighted walk of the levels taken, computed in decimals.
      const average = new Decimal('97001').mul('0.1').plus(new Decimal('97003').mul('0.2')).div('0.3');
      expect(order.avg_fill_price).toBe(average.toDecimalPlaces(8).toFixed());
    });

    it('never takes the same upstream liquidity twice within one snapshot; a new snapshot brings it back', async () => {
      const other = await readyTrader(api, 32);
      await btcBook([lv('96999.0', '1.0')], [lv('97001.0', '0.2'), lv('97020.0', '5.0')]);
      const first = await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.15', limit_price: '97005', order_type: 'MARKET', time_in_force: 'IOC' });
      await api.advance(1000);
      expect(await t.order(first.order_id)).toMatchObject({ status: 'FILLED', filled_size: '0.15' });
      // The book served now shows what is left of the level...
      expect((await info({ type: 'l2Book', coin: 'BTC' })).levels[1][0]).toMatchObject({ px: '97001', sz: '0.05' });
      // ...and the same snapshot repeated by the upstream does not refill it.
      upstream.repeatBook('BTC');
      await new Promise((r) => setTimeout(r, 200));
      const second = await other.placeOne({ market: 'BTC', side: 'BUY', size: '0.15', limit_price: '97005', order_type: 'MARKET', time_in_force: 'IOC' });
      await api.advance(1000);
      expect(await other.order(second.order_id)).toMatchObject({ status: 'PARTIALLY_FILLED_CANCELLED', filled_size: '0.05' });
      // A new snapshot is new liquidity.
      await btcBook([lv('96999.0', '1.0')], [lv('97001.0', '0.2'), lv('97020.0', '5.0')]);
      const third = await other.placeOne({ market: 'BTC', side: 'BUY', size: '0.15', limit_price: '97005', order_type: 'MARKET', time_in_force: 'IOC' });
      await api.advance(1000);
      expect(await other.order(third.order_id)).toMatchObject({ status: 'FILLED', filled_size: '0.15' });
    });

    it('fills a resting LIMIT when an upstream trade reaches it, and another when the upstream mark crosses it', async () => {
      const buy = await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.01', limit_price: '96950', order_type: 'LIMIT', time_in_force: 'GTC' });
      const sell = await t.placeOne({ market: 'BTC', side: 'SELL', size: '0.01', limit_price: '97100', order_type: 'LIMIT', time_in_force: 'GTC' });
      await api.advance(1000);
      expect((await t.order(buy.order_id)).status).toBe('ACCEPTED');
      // A print above the limit does nothing; one at it fills the buy at its limit as maker.
      upstream.trade('BTC', 'A', '96960.0', '0.5');
      upstream.trade('BTC', 'A', '96950.0', '0.5');
      await until(() => t.order(buy.order_id), (o) => o.status !== 'ACCEPTED', 'the buy to fill');
      await api.advance(1000);
      expect(await t.order(buy.order_id)).toMatchObject({ status: 'FILLED', avg_fill_price: '96950' });
      expect((await t.order(sell.order_id)).status).toBe('ACCEPTED');
      upstream.setCtx('BTC', { markPx: '97100.0' });
      await until(() => t.order(sell.order_id), (o) => o.status !== 'ACCEPTED', 'the sell to fill');
      await api.advance(1000);
      const fill = (await t.fills()).fills.find((f: any) => f.order_id === sell.order_id);
      expect(fill).toMatchObject({ price: '97100', liquidity: 'maker' });
    });

    it('fires a trigger on the upstream mark and liquidates on it', async () => {
      await btcBook([lv('96999.0', '5.0'), lv('96000.0', '5.0'), lv('94000.0', '5.0')], [lv('97001.0', '5.0')]);
      const open = await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.1', limit_price: '97100', order_type: 'MARKET', time_in_force: 'IOC', leverage: 40 });
      await api.advance(1000);
      expect((await t.order(open.order_id)).status).toBe('FILLED');
      const sl = await t.placeOne({ market: 'BTC', side: 'SELL', size: '0.05', limit_price: '95000', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '96500', is_market: true, tpsl: 'SL' } });
      await api.advance(1000);
      upstream.setCtx('BTC', { markPx: '96400.0' });
      await until(() => t.order(sl.order_id), (o) => o.status !== 'SUBMITTED', 'the stop to fire');
      await api.advance(1000);
      // It fired on the upstream mark and sold into the upstream bids within its bound.
      expect(await t.order(sl.order_id)).toMatchObject({ status: 'FILLED', avg_fill_price: '96999' });
      // 40x long: an upstream mark 3% lower is below maintenance.
      upstream.setCtx('BTC', { markPx: '94000.0' });
      // /positions lags by the simulator's publish delay, which runs on its (manual) clock.
      await until(async () => (await api.advance(100), t.positions()), (p) => p.length === 0, 'the liquidation', 8000);
      const liq = (await t.history()).orders.find((o: any) => o.order_type === 'LIQUIDATION');
      expect(liq).toMatchObject({ status: 'filled' });
      expect(liq.avg_fill_price).toBe('94000');
    });

    it('pays funding each hour at the upstream rate', async () => {
      await btcBook([lv('96999.0', '5.0')], [lv('97001.0', '5.0')]);
      await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.1', limit_price: '97100', order_type: 'MARKET', time_in_force: 'IOC' });
      await api.advance(1000);
      upstream.setCtx('BTC', { markPx: '98000.0', funding: '0.0005' });
      await until(() => markOf('BTC'), (m) => m === '98000', 'the new mark');
      const hour = 3_600_000;
      await api.advance(Math.ceil((sim.clock.now() + 1) / hour) * hour - sim.clock.now());
      const r = await api.get(`/account/funding-history?wallet=${t.wallet}`);
      const row = (r.body.data.funding ?? r.body.data.payments ?? r.body.data)[0];
      expect(row).toMatchObject({ market: 'BTC', funding_rate: '0.0005', direction: 'LONG' });
      // 0.1 x 98000 x 0.0005, paid by the long.
      expect(new Decimal(row.payment).eq('-4.9')).toBe(true);
    });
  });

  it('freezes on an outage (orders refused, marks still, logged, reported), then resumes by itself', async () => {
    await startFollowing();
    const t = await readyTrader(api, 33);
    upstream.goDown();
    const down = await until(follow, (s) => s.feed === 'down', 'the outage to be noticed');
    expect(typeof down.down_since).toBe('number');
    expect(logs.some((l) => l.includes('marks frozen, triggers, liquidations, funding and new orders paused'))).toBe(true);
    const before = await markOf('BTC');
    // Nothing moves while the upstream is away, however long the simulator's clock runs.
    await api.advance(5000);
    expect(await markOf('BTC')).toBe(before);
    const leg = await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.01', limit_price: '97100', order_type: 'MARKET', time_in_force: 'IOC' });
    await api.advance(1000);
    expect(await t.order(leg.order_id)).toMatchObject({ status: 'FAILED', reason: 'venue_unreachable' });
    // A walking market is not affected.
    const wif = await t.placeOne({ market: 'WIF', side: 'BUY', size: '10', limit_price: '2.6', order_type: 'MARKET', time_in_force: 'IOC' });
    await api.advance(1000);
    expect((await t.order(wif.order_id)).status).toBe('FILLED');

    upstream.setCtx('BTC', { markPx: '97500.0' });
    upstream.comeBack();
    await until(follow, (s) => s.feed === 'live', 'following to resume', 15_000);
    await until(() => markOf('BTC'), (m) => m === '97500', 'the mark after the outage', 15_000);
    expect(logs.some((l) => l.includes('answers again') && l.includes('following resumes'))).toBe(true);
    const after = await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.01', limit_price: '97600', order_type: 'MARKET', time_in_force: 'IOC' });
    await api.advance(1000);
    expect((await t.order(after.order_id)).status).toBe('FILLED');
  }, 30_000);

  it('polls the info API, each kind at most once a second, when the WebSocket is refused', async () => {
    upstream.acceptSockets = false;
    await startFollowing();
    upstream.requests.length = 0;
    upstream.setCtx('BTC', { markPx: '97222.0' });
    await until(() => markOf('BTC'), (m) => m === '97222', 'the polled mark');
    expect((await follow()).transport).toBe('polling');
    const since = Date.now();
    await new Promise((r) => setTimeout(r, 3200));
    const window = upstream.requests.filter((r) => r.at >= since);
    const metas = window.filter((r) => r.type === 'metaAndAssetCtxs').length;
    // 3.2 s at most once a second: never more than 4 (edges included), and polling did happen.
    expect(metas).toBeGreaterThanOrEqual(2);
    expect(metas).toBeLessThanOrEqual(4);
    expect(window.filter((r) => r.type === 'l2Book').length).toBeLessThanOrEqual(4 * 4);
  }, 20_000);

  it('refuses to start when the upstream cannot be read, saying which URL', async () => {
    await upstream.stop();
    await expect(startSimulator({ port: 0, manualClock: true, startTime: T0, config: quietConfig(), followVenue: { infoUrl: upstream.infoUrl, log: () => undefined } })).rejects.toThrow(
      `cannot follow the venue at ${upstream.infoUrl}`,
    );
    upstream = new UpstreamVenue();
    await upstream.start();
  });
});

describe('deriveWsUrl', () => {
  it('maps the info root to the WebSocket the venue serves beside it', () => {
    expect(deriveWsUrl('https://api.hyperliquid.xyz/info')).toBe('wss://api.hyperliquid.xyz/ws');
    expect(deriveWsUrl('http://127.0.0.1:8645/venue/info')).toBe('ws://127.0.0.1:8645/venue/ws');
    expect(deriveWsUrl('http://127.0.0.1:9000')).toBe('ws://127.0.0.1:9000/ws');
    expect(() => deriveWsUrl('ftp://x/info')).toThrow('http or https URL');
  });
});

/**
 * The venue clients against the simulator's /venue/info and /venue/ws: every info request validates, the
 * service's /markets joins to the venue on venue_asset_index / venue_symbol (PEPE is kPEPE on the venue),
 * marks set through POST /sim/mark arrive as typed events, pings are answered, and after the server
 * drops every socket the client reconnects and resubscribes on its own.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TradingApiClient } from '../../../src/main/api/index.js';
import {
  VenueInfoClient,
  VenueInfoError,
  VenueSocket,
  VenueSymbolIndex,
  joinMarkets,
  joinMids,
  type VenueSocketEvents,
} from '../../../src/main/venue/index.js';
import type { Market } from '../../../src/shared/protocol/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';

let sim: RunningSimulator;
let info: VenueInfoClient;
let markets: Market[];
const sockets: VenueSocket[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 1, manualClock: true });
  info = new VenueInfoClient({ url: sim.urls.venue_info_url });
  markets = await new TradingApiClient({ baseUrl: sim.urls.base_url }).markets();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) await s.close();
});
afterAll(async () => {
  await sim?.stop();
});

async function control(path: string, body: unknown): Promise<void> {
  const res = await fetch(sim.urls.control_url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBe(200);
}

function pepe(): Market {
  const m = markets.find((x) => x.symbol === 'PEPE');
  if (!m) throw new Error('the default simulator config lists PEPE');
  return m;
}

/** Records every event and waits for one matching a predicate (including ones already seen). */
function recorder(socket: VenueSocket) {
  const seen: { event: keyof VenueSocketEvents; payload: unknown }[] = [];
  const names: (keyof VenueSocketEvents)[] = ['open', 'close', 'reconnecting', 'subscribed', 'unsubscribed', 'pong', 'allMids', 'l2Book', 'trades', 'candle', 'activeAssetCtx', 'serverError', 'error'];
  for (const n of names) socket.on(n, (payload) => seen.push({ event: n, payload }));
  return {
    seen,
    async waitFor<K extends keyof VenueSocketEvents>(event: K, match: (p: VenueSocketEvents[K]) => boolean = () => true, from = 0, timeoutMs = 3000): Promise<VenueSocketEvents[K]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = seen.slice(from).find((e) => e.event === event && match(e.payload as VenueSocketEvents[K]));
        if (hit) return hit.payload as VenueSocketEvents[K];
        if (Date.now() > deadline) throw new Error(`no ${event} event matched within ${timeoutMs} ms; seen: ${seen.map((e) => e.event).join(', ')}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}

function newSocket(options: Partial<ConstructorParameters<typeof VenueSocket>[0]> = {}): VenueSocket {
  const s = new VenueSocket({ url: sim.urls.venue_ws_url, reconnect: { baseDelayMs: 20, maxDelayMs: 100 }, pingIntervalMs: 60_000, ...options });
  sockets.push(s);
  return s;
}

describe('VenueInfoClient', () => {
  it('validates meta, metaAndAssetCtxs and allMids, and the service markets join on the venue keys', async () => {
    const meta = await info.meta();
    const [meta2, ctxs] = await info.metaAndAssetCtxs();
    expect(meta2).toEqual(meta);
    expect(ctxs).toHaveLength(meta.universe.length);
    const join = joinMarkets(markets, meta, ctxs);
    expect(join.unjoined).toEqual([]);
    expect(join.joined).toHaveLength(markets.length);
    expect(join.joined.every((j) => j.joinedOn === 'venue_asset_index' && j.asset.name === j.market.venue_symbol)).toBe(true);

    // PEPE on the service is kPEPE on the venue; the venue has no coin named PEPE at all.
    const p = join.bySymbol.get('PEPE')!;
    expect(p.asset.name).toBe('kPEPE');
    expect(meta.universe.some((u) => u.name === 'PEPE')).toBe(false);
    const mids = await info.allMids();
    expect(mids.PEPE).toBeUndefined();
    expect(joinMids(markets, mids).get('PEPE')).toBe(mids.kPEPE);
  });

  it('validates l2Book, candleSnapshot and fundingHistory, by venue coin', async () => {
    const coin = pepe().venue_symbol;
    const book = await info.l2Book(coin);
    expect(book?.coin).toBe(coin);
    expect(book!.levels[0].length).toBeGreaterThan(0);
    expect(await info.l2Book('PEPE')).toBeNull(); // the service symbol is not a venue coin
    const aggregated = await info.l2Book(coin, { nSigFigs: 2 });
    expect(aggregated!.levels[1].length).toBeGreaterThan(0);

    const now = sim.clock.now();
    const candles = await info.candleSnapshot({ coin, interval: '1h', startTime: now - 6 * 3_600_000 });
    expect(candles.length).toBeGreaterThan(0);
    expect(candles.every((c) => c.s === coin && c.i === '1h')).toBe(true);
    const funding = await info.fundingHistory({ coin, startTime: now - 5 * 3_600_000 });
    expect(funding.length).toBeGreaterThan(0);
    expect(funding[0]!.coin).toBe(coin);
  });

  it('a request the venue refuses is a VenueInfoError with its status and text', async () => {
    const err = await info.l2Book('kPEPE', { mantissa: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueInfoError);
    expect((err as VenueInfoError).status).toBe(422);
    expect((err as Error).message).toMatch(/mantissa/);
  });
});

describe('VenueSocket against the simulator', () => {
  it('subscribes by venue coin and receives marks set through /sim/mark as typed events', async () => {
    const socket = newSocket();
    const rec = recorder(socket);
    const index = new VenueSymbolIndex(markets);
    const coin = index.coinFor('PEPE')!;
    expect(coin).toBe('kPEPE');
    socket.subscribe({ type: 'allMids' });
    socket.subscribe({ type: 'activeAssetCtx', coin });
    socket.subscribe({ type: 'l2Book', coin });
    socket.subscribe({ type: 'candle', coin, interval: '1m' });
    socket.subscribe({ type: 'trades', coin });
    await socket.connect();
    await rec.waitFor('subscribed', (s) => s.type === 'trades');
    await rec.waitFor('l2Book', (b) => b.coin === coin);
    await rec.waitFor('candle', (c) => c.s === coin);

    const from = rec.seen.length;
    await control('/mark', { market: 'PEPE', price: '0.02' });
    const ctx = await rec.waitFor('activeAssetCtx', (e) => e.ctx.markPx === '0.02', from);
    expect(index.marketForCoin(ctx.coin)?.symbol).toBe('PEPE');
    const mids = await rec.waitFor('allMids', (e) => e.mids[coin] !== undefined, from);
    expect(Number(mids.mids[coin])).toBeCloseTo(0.02, 3);
    expect(rec.seen.filter((e) => e.event === 'error' || e.event === 'serverError')).toEqual([]);
  });

  it('ping keep-alive: the venue answers every ping with a pong', async () => {
    const socket = newSocket({ pingIntervalMs: 25, pongTimeoutMs: 500 });
    const rec = recorder(socket);
    await socket.connect();
    await rec.waitFor('pong');
    const first = rec.seen.findIndex((e) => e.event === 'pong');
    await rec.waitFor('pong', () => true, first + 1);
    expect(rec.seen.filter((e) => e.event === 'reconnecting')).toEqual([]);
  });

  it('reconnects and resubscribes every active subscription after the server drops all sockets', async () => {
    const socket = newSocket();
    const rec = recorder(socket);
    const released = socket.subscribe({ type: 'trades', coin: 'BTC' });
    socket.subscribe({ type: 'allMids' });
    socket.subscribe({ type: 'activeAssetCtx', coin: 'kPEPE' });
    released(); // no longer active: must not come back after the reconnect
    await socket.connect();
    await rec.waitFor('subscribed', (s) => s.type === 'activeAssetCtx');

    const beforeDrop = rec.seen.length;
    await control('/drop-sockets', {});
    expect(await rec.waitFor('close', () => true, beforeDrop)).toMatchObject({ willReconnect: true });
    expect(await rec.waitFor('open', () => true, beforeDrop)).toEqual({ reconnected: true });
    await rec.waitFor('subscribed', (s) => s.type === 'allMids', beforeDrop);
    await rec.waitFor('subscribed', (s) => s.type === 'activeAssetCtx', beforeDrop);
    const resubscribed = rec.seen.slice(beforeDrop).filter((e) => e.event === 'subscribed').map((e) => e.payload);
    expect(resubscribed).toEqual([{ type: 'allMids' }, { type: 'activeAssetCtx', coin: 'kPEPE' }]);

    const afterReconnect = rec.seen.length;
    await control('/mark', { market: 'PEPE', price: '0.03' });
    await rec.waitFor('activeAssetCtx', (e) => e.ctx.markPx === '0.03', afterReconnect);
    expect(rec.seen.filter((e) => e.event === 'serverError')).toEqual([]);
  });
});

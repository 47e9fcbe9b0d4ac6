/**
 * The session's venue socket pool against the simulator's venue WebSocket: leases of one URL share one
 * connection; a released lease hears nothing more and gives up only its own subscriptions; the last
 * release closes the connection, and a later lease opens a new one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TradingApiClient } from '../../../src/main/api/index.js';
import { VenueSocket, VenueSocketPool } from '../../../src/main/venue/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';

let sim: RunningSimulator;
let eth: string;
let btc: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 3 });
  const markets = await new TradingApiClient({ baseUrl: sim.urls.base_url }).markets();
  const coin = (symbol: string) => {
    const m = markets.find((x) => x.symbol === symbol);
    if (!m) throw new Error(`the default simulator config lists ${symbol}`);
    return m.venue_symbol;
  };
  eth = coin('ETH');
  btc = coin('BTC');
});
afterAll(async () => {
  await sim?.stop();
});

async function waitFor(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

it('leases of one URL share a connection; a released lease hears nothing and gives up only its own feeds', async () => {
  const created: VenueSocket[] = [];
  const pool = new VenueSocketPool((url) => {
    const socket = new VenueSocket({ url });
    created.push(socket);
    return socket;
  });
  const url = sim.urls.venue_ws_url;
  const a = pool.lease(url);
  const b = pool.lease(url);
  expect(pool.size).toBe(1);
  expect(created).toHaveLength(1);

  const heardByA: string[] = [];
  const heardByB: string[] = [];
  a.on('l2Book', (book) => heardByA.push(book.coin));
  b.on('l2Book', (book) => heardByB.push(book.coin));
  a.subscribe({ type: 'l2Book', coin: eth });
  b.subscribe({ type: 'l2Book', coin: btc });
  const bEth = b.subscribe({ type: 'l2Book', coin: eth });
  await Promise.all([a.connect(), b.connect()]);
  await waitFor('books for both leases', () => heardByA.includes(eth) && heardByB.includes(btc) && heardByB.includes(eth));
  expect(sim.venueSockets.clientCount).toBe(1);
  // One venue subscription per feed: the ETH book both leases follow is subscribed once.
  expect(created[0]!.subscriptions()).toHaveLength(2);

  await a.release();
  const heardBeforeRelease = heardByA.length;
  const from = heardByB.length;
  // B still follows ETH (its own subscription) and BTC on the same connection.
  await waitFor('books for B after A left', () => heardByB.slice(from).includes(eth) && heardByB.slice(from).includes(btc));
  expect(heardByA).toHaveLength(heardBeforeRelease);
  expect(sim.venueSockets.clientCount).toBe(1);
  expect(() => a.on('l2Book', () => undefined)).toThrow(/after release/);
  expect(() => a.subscribe({ type: 'l2Book', coin: eth })).toThrow(/after release/);
  await expect(a.connect()).rejects.toThrow(/after release/);
  await a.release();
  expect(pool.size).toBe(1);

  // Giving up a feed twice releases it once; the last lease's release closes the connection.
  bEth();
  bEth();
  expect(created[0]!.subscriptions()).toEqual([{ type: 'l2Book', coin: btc }]);
  await b.release();
  expect(pool.size).toBe(0);
  expect(created[0]!.isOpen).toBe(false);
  await waitFor('the venue sees the connection closed', () => sim.venueSockets.clientCount === 0);

  // A lease after that opens a new connection.
  const c = pool.lease(url);
  expect(created).toHaveLength(2);
  await c.connect();
  await waitFor('a new connection', () => sim.venueSockets.clientCount === 1);
  await pool.close();
  expect(pool.size).toBe(0);
  await waitFor('the pool closed its socket', () => sim.venueSockets.clientCount === 0);
});

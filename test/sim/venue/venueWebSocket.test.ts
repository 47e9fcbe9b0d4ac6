import http from 'node:http';
import Decimal from 'decimal.js';
import { WebSocket, WebSocketServer } from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveVenue, TestClient, type Message, type Served } from './fixtures.js';

let served: Served;
let wsUrl: string;
const clients: TestClient[] = [];

beforeEach(async () => {
  served = await serveVenue(7);
  wsUrl = `ws://127.0.0.1:${served.running.port}/ws`;
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await served.close();
});

async function connect(): Promise<TestClient> {
  const client = await TestClient.connect(wsUrl);
  clients.push(client);
  return client;
}

async function subscribe(client: TestClient, subscription: Record<string, unknown>): Promise<void> {
  client.send({ method: 'subscribe', subscription });
  const response = await client.next();
  expect(response).toEqual({ channel: 'subscriptionResponse', data: { method: 'subscribe', subscription } });
}

async function unsubscribe(client: TestClient, subscription: Record<string, unknown>): Promise<void> {
  client.send({ method: 'unsubscribe', subscription });
  const response = await client.next();
  expect(response).toEqual({ channel: 'subscriptionResponse', data: { method: 'unsubscribe', subscription } });
}

function channels(messages: Message[]): string[] {
  return messages.map((m) => m.channel as string);
}

describe('venue WebSocket', () => {
  it('answers ping with pong', async () => {
    const client = await connect();
    client.send({ method: 'ping' });
    expect(await client.next()).toEqual({ channel: 'pong' });
  });

  it('allMids: snapshot on subscribe, a push per tick and per setMark, nothing after unsubscribe', async () => {
    const client = await connect();
    const sub = { type: 'allMids' };
    await subscribe(client, sub);
    const first = await client.next();
    expect(first).toEqual({ channel: 'allMids', data: { mids: served.venue.allMids() } });
    served.clock.advance(3000);
    const ticks = await client.drain();
    expect(channels(ticks)).toEqual(['allMids', 'allMids', 'allMids']);
    expect(ticks[2].data.mids).toEqual(served.venue.allMids());
    served.venue.setMark('ETH', '3000');
    const [pushed] = await client.drain();
    expect(pushed.data.mids.ETH).toBe(served.venue.allMids().ETH);
    await unsubscribe(client, sub);
    served.clock.advance(3000);
    expect(await client.drain()).toEqual([]);
  });

  it('l2Book: book messages for the coin on every tick, also aggregated, nothing after unsubscribe', async () => {
    const client = await connect();
    const sub = { type: 'l2Book', coin: 'BTC' };
    await subscribe(client, sub);
    const first = await client.next();
    expect(first.channel).toBe('l2Book');
    expect(first.data).toEqual(served.venue.l2Book('BTC'));
    served.clock.advance(2000);
    const pushed = await client.drain();
    expect(channels(pushed)).toEqual(['l2Book', 'l2Book']);
    for (const message of pushed) {
      expect(message.data.coin).toBe('BTC');
      const [bids, asks] = message.data.levels as [Message[], Message[]];
      expect(new Decimal(bids[0].px).lt(asks[0].px)).toBe(true);
    }
    expect(pushed[1].data.time).toBe(served.clock.now());
    // A mark change of another coin does not touch this book.
    served.venue.setMark('ETH', '3000');
    expect(await client.drain()).toEqual([]);

    const aggregated = { type: 'l2Book', coin: 'BTC', nSigFigs: 3 };
    await subscribe(client, aggregated);
    const agg = await client.next();
    for (const level of agg.data.levels[0]) expect(new Decimal(level.px).mod(100).isZero()).toBe(true);
    await unsubscribe(client, sub);
    await unsubscribe(client, aggregated);
    served.clock.advance(2000);
    expect(await client.drain()).toEqual([]);
  });

  it('trades: recent trades on subscribe, each recorded trade pushed, nothing after unsubscribe', async () => {
    const before = served.venue.recordTrade('ETH', '3300', '1', 'B', served.clock.now());
    const client = await connect();
    const sub = { type: 'trades', coin: 'ETH' };
    await subscribe(client, sub);
    expect(await client.next()).toEqual({ channel: 'trades', data: [before] });
    served.clock.advance(1000);
    // A tick's background volume is one trade at the new mark, taken by the side the mark moved to.
    const walked = await client.drain();
    expect(walked).toHaveLength(1);
    expect(walked[0]).toEqual({ channel: 'trades', data: [served.venue.recentTrades('ETH').at(-1)] });
    expect(walked[0].data[0].px).toBe(served.venue.getMark('ETH'));
    expect(['B', 'A']).toContain(walked[0].data[0].side);
    expect(walked[0].data[0].tid).toBeGreaterThan(before.tid);
    served.venue.recordTrade('BTC', '97000', '0.1', 'A', served.clock.now());
    const trade = served.venue.recordTrade('ETH', '3301.5', '0.25', 'A', served.clock.now());
    const pushed = await client.drain();
    expect(pushed).toEqual([{ channel: 'trades', data: [trade] }]);
    const data = pushed[0].data[0];
    expect(Object.keys(data).sort()).toEqual(['coin', 'hash', 'px', 'side', 'sz', 'tid', 'time', 'users']);
    await unsubscribe(client, sub);
    served.venue.recordTrade('ETH', '3302', '1', 'B', served.clock.now());
    expect(await client.drain()).toEqual([]);
  });

  it('candle: the live candle on subscribe, on ticks and on trades, nothing after unsubscribe', async () => {
    const client = await connect();
    const sub = { type: 'candle', coin: 'ETH', interval: '5m' };
    await subscribe(client, sub);
    const first = await client.next();
    expect(first).toEqual({ channel: 'candle', data: served.venue.currentCandle('ETH', '5m') });
    expect(Object.keys(first.data).sort()).toEqual(['T', 'c', 'h', 'i', 'l', 'n', 'o', 's', 't', 'v']);
    served.clock.advance(1000);
    const [tick] = await client.drain();
    expect(tick.data.c).toBe(served.venue.getMark('ETH'));
    served.venue.recordTrade('ETH', '9999.9', '1', 'B', served.clock.now());
    const [afterTrade] = await client.drain();
    expect(afterTrade.data.h).toBe('9999.9');
    expect(new Decimal(afterTrade.data.v).minus(tick.data.v).toFixed()).toBe('1');
    // Crossing into the next 5m slot pushes the new candle.
    served.clock.advance(5 * 60_000);
    const pushed = await client.drain();
    expect(pushed).toHaveLength(300);
    expect(pushed[299].data.t).toBeGreaterThan(first.data.t);
    await unsubscribe(client, sub);
    served.clock.advance(1000);
    expect(await client.drain()).toEqual([]);
  });

  it('activeAssetCtx: context on subscribe, on ticks and on trades, nothing after unsubscribe', async () => {
    const client = await connect();
    const sub = { type: 'activeAssetCtx', coin: 'kPEPE' };
    await subscribe(client, sub);
    const first = await client.next();
    expect(first).toEqual({ channel: 'activeAssetCtx', data: { coin: 'kPEPE', ctx: served.venue.assetCtx('kPEPE') } });
    served.clock.advance(1000);
    const [tick] = await client.drain();
    expect(tick.data.ctx.markPx).toBe(served.venue.getMark('kPEPE'));
    served.venue.recordTrade('kPEPE', '0.012', '5000', 'A', served.clock.now());
    const [afterTrade] = await client.drain();
    expect(new Decimal(afterTrade.data.ctx.dayBaseVlm).minus(tick.data.ctx.dayBaseVlm).toFixed()).toBe('5000');
    await unsubscribe(client, sub);
    served.clock.advance(1000);
    expect(await client.drain()).toEqual([]);
  });

  it('reports malformed and invalid requests on the error channel and keeps the socket', async () => {
    const client = await connect();
    client.send('{not json');
    expect(await client.next()).toEqual({ channel: 'error', data: 'Error parsing JSON into valid websocket request: {not json' });
    for (const bad of [{ method: 'shout' }, { method: 'subscribe' }, { method: 'subscribe', subscription: { type: 'l2Book' } }, { method: 'subscribe', subscription: { type: 'candle', coin: 'BTC', interval: '2m' } }]) {
      client.send(bad);
      const message = await client.next();
      expect(message.channel).toBe('error');
      expect(message.data).toMatch(/^Error parsing JSON into valid websocket request/);
    }
    client.send({ method: 'subscribe', subscription: { type: 'trades', coin: 'DOGE' } });
    expect((await client.next()).data).toMatch(/unknown coin "DOGE"/);
    await subscribe(client, { type: 'trades', coin: 'BTC' });
    client.send({ method: 'subscribe', subscription: { coin: 'BTC', type: 'trades' } });
    expect(await client.next()).toEqual({ channel: 'error', data: 'Already subscribed: {"type":"trades","coin":"BTC"}' });
    client.send({ method: 'unsubscribe', subscription: { type: 'trades', coin: 'ETH' } });
    expect(await client.next()).toEqual({ channel: 'error', data: 'Already unsubscribed: {"type":"trades","coin":"ETH"}' });
    client.send({ method: 'ping' });
    expect(await client.next()).toEqual({ channel: 'pong' });
  });

  it('keeps subscriptions per connection', async () => {
    const a = await connect();
    const b = await connect();
    await subscribe(a, { type: 'allMids' });
    await a.next();
    served.clock.advance(1000);
    expect(channels(await a.drain())).toEqual(['allMids']);
    expect(await b.drain()).toEqual([]);
  });

  it('dropAll cuts clients without a close frame and accepts reconnects', async () => {
    const client = await connect();
    await subscribe(client, { type: 'allMids' });
    served.hub.dropAll();
    expect(await client.waitClose()).toBe(1006);
    const again = await connect();
    await subscribe(again, { type: 'allMids' });
    expect((await again.next()).channel).toBe('allMids');
  });

  it('close closes clients with 1001 and stops taking upgrades', async () => {
    const client = await connect();
    await served.hub.close();
    expect(await client.waitClose()).toBe(1001);
    // No listener handles the upgrade any more; the attempt must not succeed.
    const late = new WebSocket(wsUrl, { handshakeTimeout: 300 });
    const outcome = await new Promise<string>((resolve) => {
      late.once('open', () => resolve('open'));
      late.once('error', (err) => resolve(`error: ${err.message}`));
    });
    expect(outcome).toMatch(/^error/);
  });

  it('leaves upgrades of other paths to other listeners', async () => {
    const other = new WebSocketServer({ noServer: true });
    const onUpgrade = (req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer): void => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/other') return;
      other.handleUpgrade(req, socket, head, (ws) => ws.send('other server'));
    };
    served.running.server.on('upgrade', onUpgrade);
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${served.running.port}/other`);
      const first = await new Promise<string>((resolve, reject) => {
        ws.once('message', (data) => resolve(String(data)));
        ws.once('error', reject);
      });
      expect(first).toBe('other server');
      ws.terminate();
      // The venue socket still works next to it.
      const client = await connect();
      client.send({ method: 'ping' });
      expect(await client.next()).toEqual({ channel: 'pong' });
    } finally {
      served.running.server.off('upgrade', onUpgrade);
      other.close();
    }
  });

  it('echoes a subscription exactly as sent, null fields and unknown keys included (issue 29)', async () => {
    const client = await connect();
    const sent = { type: 'l2Book', coin: 'BTC', nSigFigs: null, mantissa: null };
    client.send({ method: 'subscribe', subscription: sent });
    expect(await client.next()).toEqual({ channel: 'subscriptionResponse', data: { method: 'subscribe', subscription: sent } });
    expect((await client.next()).channel).toBe('l2Book');
    // The same feed written another way is the same subscription: refused as a duplicate.
    client.send({ method: 'subscribe', subscription: { coin: 'BTC', type: 'l2Book' } });
    expect((await client.next()).data).toMatch(/^Already subscribed/);
    client.send({ method: 'unsubscribe', subscription: { coin: 'BTC', type: 'l2Book' } });
    expect(await client.next()).toEqual({ channel: 'subscriptionResponse', data: { method: 'unsubscribe', subscription: { coin: 'BTC', type: 'l2Book' } } });
  });

  it('post: answers info requests under their id and refuses actions and bad requests the same way (issue 29)', async () => {
    const client = await connect();
    client.send({ method: 'post', id: 7, request: { type: 'info', payload: { type: 'allMids' } } });
    expect(await client.next()).toEqual({ channel: 'post', data: { id: 7, response: { type: 'info', payload: { type: 'allMids', data: served.venue.allMids() } } } });
    client.send({ method: 'post', id: 8, request: { type: 'info', payload: { type: 'recentTrades', coin: 'ETH' } } });
    expect(await client.next()).toEqual({ channel: 'post', data: { id: 8, response: { type: 'info', payload: { type: 'recentTrades', data: served.venue.recentTrades('ETH') } } } });
    client.send({ method: 'post', id: 9, request: { type: 'info', payload: { type: 'l2Book', coin: 'BTC', nSigFigs: 4, mantissa: 2 } } });
    expect(await client.next()).toEqual({ channel: 'post', data: { id: 9, response: { type: 'error', payload: expect.stringMatching(/mantissa is only allowed with nSigFigs 5/) } } });
    client.send({ method: 'post', id: 10, request: { type: 'action', payload: { action: { type: 'order' } } } });
    expect(await client.next()).toEqual({ channel: 'post', data: { id: 10, response: { type: 'error', payload: expect.stringMatching(/actions are not served/) } } });
    client.send({ method: 'post', id: 11, request: { type: 'info', payload: 'meta' } });
    expect(await client.next()).toEqual({ channel: 'post', data: { id: 11, response: { type: 'error', payload: expect.stringMatching(/invalid type: string/) } } });
    // Without a usable id there is nothing to answer under: the error channel carries the request.
    for (const bad of [{ method: 'post', request: { type: 'info', payload: { type: 'meta' } } }, { method: 'post', id: -1, request: { type: 'info', payload: { type: 'meta' } } }, { method: 'post', id: 1, request: { type: 'other' } }]) {
      client.send(bad);
      const reply = await client.next();
      expect(reply.channel).toBe('error');
      expect(reply.data).toContain('Error parsing JSON into valid websocket request');
    }
  });
});

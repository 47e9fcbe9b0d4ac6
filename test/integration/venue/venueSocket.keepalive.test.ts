/**
 * Keep-alive and reconnect rules of VenueSocket against a scripted local WebSocket server: one that
 * answers pings and one that has gone silent (a half-open connection), plus a message off the venue's
 * shape. The simulator tests cover the real protocol; these force the failure cases.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { VenueSocket, type VenueSocketEvents } from '../../../src/main/venue/index.js';

interface Scripted {
  url: string;
  connections: ServerSocket[];
  received: unknown[][];
  /** When false, pings are ignored (a connection that went half-open). */
  answerPings: boolean;
  close(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function scriptedServer(): Promise<Scripted> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const s: Scripted = {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    connections: [],
    received: [],
    answerPings: true,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  };
  wss.on('connection', (ws) => {
    const log: unknown[] = [];
    s.connections.push(ws);
    s.received.push(log);
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { method: string; subscription?: unknown };
      log.push(msg);
      if (msg.method === 'ping' && s.answerPings) ws.send(JSON.stringify({ channel: 'pong' }));
      if (msg.method === 'subscribe') ws.send(JSON.stringify({ channel: 'subscriptionResponse', data: msg }));
    });
  });
  cleanups.push(() => s.close());
  return s;
}

function track(socket: VenueSocket): { seen: { event: string; payload: unknown }[]; next<K extends keyof VenueSocketEvents>(event: K, timeoutMs?: number): Promise<VenueSocketEvents[K]> } {
  const seen: { event: string; payload: unknown }[] = [];
  const names: (keyof VenueSocketEvents)[] = ['open', 'close', 'reconnecting', 'pong', 'error', 'subscribed', 'allMids', 'serverError'];
  for (const n of names) socket.on(n, (payload) => seen.push({ event: n, payload }));
  return {
    seen,
    next(event, timeoutMs = 3000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
        const off = socket.on(event, (p) => {
          clearTimeout(timer);
          off();
          resolve(p);
        });
      });
    },
  };
}

async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function newSocket(url: string, extra: Partial<ConstructorParameters<typeof VenueSocket>[0]> = {}): VenueSocket {
  const socket = new VenueSocket({ url, pingIntervalMs: 30, pongTimeoutMs: 80, reconnect: { baseDelayMs: 10, maxDelayMs: 20 }, ...extra });
  cleanups.push(() => socket.close());
  return socket;
}

describe('VenueSocket keep-alive', () => {
  it('pings on an interval and receives pongs', async () => {
    const server = await scriptedServer();
    const socket = newSocket(server.url);
    const t = track(socket);
    await socket.connect();
    await t.next('pong');
    await t.next('pong');
    expect(server.received[0]!.filter((m) => (m as { method: string }).method === 'ping').length).toBeGreaterThanOrEqual(2);
    expect(t.seen.filter((e) => e.event === 'reconnecting')).toEqual([]);
  });

  it('a missing pong cuts the half-open connection, reconnects and resubscribes', async () => {
    const server = await scriptedServer();
    const socket = newSocket(server.url);
    const t = track(socket);
    socket.subscribe({ type: 'allMids' });
    socket.subscribe({ type: 'trades', coin: 'kPEPE' });
    await socket.connect();
    server.answerPings = false;
    const err = await t.next('error');
    expect(err.message).toMatch(/no pong within 80 ms/);
    server.answerPings = true; // the next connection is healthy
    expect(await t.next('open')).toEqual({ reconnected: true });
    await waitFor(() => t.seen.filter((e) => e.event === 'subscribed').length === 4);
    expect(server.connections).toHaveLength(2);
    const resubscribed = server.received[1]!.filter((m) => (m as { method: string }).method === 'subscribe');
    expect(resubscribed).toEqual([
      { method: 'subscribe', subscription: { type: 'allMids' } },
      { method: 'subscribe', subscription: { type: 'trades', coin: 'kPEPE' } },
    ]);
  });

  it('shares one venue subscription between consumers and unsubscribes when the last one leaves', async () => {
    const server = await scriptedServer();
    const socket = newSocket(server.url, { pingIntervalMs: 60_000 });
    await socket.connect();
    const a = socket.subscribe({ type: 'l2Book', coin: 'BTC' });
    const b = socket.subscribe({ type: 'l2Book', coin: 'BTC', nSigFigs: null });
    expect(socket.subscriptions()).toEqual([{ type: 'l2Book', coin: 'BTC' }]);
    a();
    a(); // releasing twice is harmless
    expect(socket.subscriptions()).toHaveLength(1);
    b();
    expect(socket.subscriptions()).toEqual([]);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.received[0]).toEqual([
      { method: 'subscribe', subscription: { type: 'l2Book', coin: 'BTC' } },
      { method: 'unsubscribe', subscription: { type: 'l2Book', coin: 'BTC' } },
    ]);
  });

  it('a message off the venue shape is reported as an error naming the field; the socket stays up', async () => {
    const server = await scriptedServer();
    const socket = newSocket(server.url, { pingIntervalMs: 60_000 });
    const t = track(socket);
    await socket.connect();
    server.connections[0]!.send(JSON.stringify({ channel: 'allMids', data: { mids: { BTC: 97000 } } }));
    const err = await t.next('error');
    expect(err.name).toBe('DecodeError');
    expect(err.message).toMatch(/data\.mids\.BTC/);
    server.connections[0]!.send(JSON.stringify({ channel: 'allMids', data: { mids: { BTC: '97000' } } }));
    expect(await t.next('allMids')).toEqual({ mids: { BTC: '97000' } });
    expect(socket.isOpen).toBe(true);
  });

  it('errors with no listener go to the logger, never nowhere', async () => {
    const server = await scriptedServer();
    const warnings: string[] = [];
    const socket = newSocket(server.url, { pingIntervalMs: 60_000, logger: { warn: (m) => warnings.push(m) } });
    await socket.connect();
    server.connections[0]!.send('not json');
    await new Promise((r) => setTimeout(r, 50));
    expect(warnings.join('\n')).toMatch(/not JSON/);
  });

  it('close() stops reconnecting', async () => {
    const server = await scriptedServer();
    const socket = newSocket(server.url, { pingIntervalMs: 60_000 });
    const t = track(socket);
    await socket.connect();
    await socket.close();
    await new Promise((r) => setTimeout(r, 80));
    expect(server.connections).toHaveLength(1);
    expect(t.seen.filter((e) => e.event === 'close')).toEqual([{ event: 'close', payload: { code: 1000, reason: 'client closing', willReconnect: false } }]);
    await expect(socket.connect()).rejects.toThrow(/closed/);
  });
});

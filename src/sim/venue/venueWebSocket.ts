/**
 * The venue's public WebSocket: clients send {method: 'subscribe' | 'unsubscribe', subscription}
 * or {method: 'ping'}; the server confirms with a subscriptionResponse, sends the channel's current
 * state at once and then pushes every change the market data reports.
 *
 * The WebSocketServer runs in noServer mode on an existing http.Server and only takes upgrades of its
 * own path, so the simulator's other upgrade handlers (and the chaos layer) keep working.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { z } from 'zod';
import { CANDLE_INTERVAL_NAMES } from './candles.js';
import type { VenueFeedEvent, VenueMarketSource } from './venueTypes.js';
import { localOnlyRefusal, type LocalOnlyRefusal } from '../control/localOnly.js';
import { answerInfo, parseInfoRequest } from './infoRoutes.js';

const coin = z.string();

const subscriptionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('allMids') }),
  z.object({
    type: z.literal('l2Book'),
    coin,
    nSigFigs: z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)]).nullish(),
    mantissa: z.union([z.literal(1), z.literal(2), z.literal(5)]).nullish(),
  }),
  z.object({ type: z.literal('trades'), coin }),
  z.object({ type: z.literal('candle'), coin, interval: z.enum(CANDLE_INTERVAL_NAMES) }),
  z.object({ type: z.literal('activeAssetCtx'), coin }),
]);

/** A request over the socket ({method: 'post'}): info requests are answered as POST /info would. */
const postSchema = z.object({
  method: z.literal('post'),
  id: z.number().int().nonnegative(),
  request: z.object({ type: z.enum(['info', 'action']), payload: z.unknown() }),
});

const requestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('subscribe'), subscription: subscriptionSchema }),
  z.object({ method: z.literal('unsubscribe'), subscription: subscriptionSchema }),
  z.object({ method: z.literal('ping') }),
  postSchema,
]);

export type VenueSubscription = z.infer<typeof subscriptionSchema>;

const MAX_PAYLOAD_BYTES = 64 * 1024;

/** Time a closing client gets to answer the close frame before its socket is cut. */
const CLOSE_GRACE_MS = 1000;

interface Client {
  readonly ws: WebSocket;
  /** By canonical key, so {coin, type} and {type, coin} are the same subscription. */
  readonly subscriptions: Map<string, VenueSubscription>;
}

interface Attachment {
  readonly server: http.Server;
  readonly wss: WebSocketServer;
  readonly onUpgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
}

/** Answers a refused handshake with a plain HTTP error (no WebSocket is opened) and closes the socket. */
function refuseUpgrade(socket: Duplex, refusal: LocalOnlyRefusal): void {
  const body = refusal.message;
  socket.end(
    `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Subscription with only the fields that matter, in a fixed order: the echo and the map key. */
function canonical(subscription: VenueSubscription): VenueSubscription {
  switch (subscription.type) {
    case 'allMids':
      return { type: 'allMids' };
    case 'l2Book':
      return {
        type: 'l2Book',
        coin: subscription.coin,
        ...(subscription.nSigFigs != null ? { nSigFigs: subscription.nSigFigs } : {}),
        ...(subscription.mantissa != null ? { mantissa: subscription.mantissa } : {}),
      };
    case 'trades':
      return { type: 'trades', coin: subscription.coin };
    case 'candle':
      return { type: 'candle', coin: subscription.coin, interval: subscription.interval };
    case 'activeAssetCtx':
      return { type: 'activeAssetCtx', coin: subscription.coin };
  }
}

export class VenueWebSocketHub {
  private readonly attachments: Attachment[] = [];
  private readonly clients = new Set<Client>();
  private readonly stopFeed: () => void;

  constructor(private readonly venue: VenueMarketSource) {
    this.stopFeed = venue.onFeed((event) => this.broadcast(event));
  }

  attach(server: http.Server, path: string): void {
    // Requests are a few hundred bytes; a small cap keeps a broken client from buffering megabytes.
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
    wss.on('connection', (ws: WebSocket) => this.accept(ws));
    const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
      const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (pathname !== path) return;
      // A page in a browser can open a WebSocket to 127.0.0.1 from any site: same rules as every route.
      const refusal = localOnlyRefusal({ method: 'GET', headers: req.headers, rawHeaders: req.rawHeaders });
      if (refusal) {
        refuseUpgrade(socket, refusal);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    };
    server.on('upgrade', onUpgrade);
    this.attachments.push({ server, wss, onUpgrade });
  }

  /** Clients connected now. */
  get clientCount(): number {
    return this.clients.size;
  }

  /** Terminates every client without a close frame; the servers keep accepting reconnects. */
  dropAll(): void {
    for (const client of this.clients) client.ws.terminate();
  }

  /** Closes every client with 1001 (going away), then stops listening for upgrades and market data. */
  async close(): Promise<void> {
    this.stopFeed();
    for (const { server, onUpgrade } of this.attachments) server.off('upgrade', onUpgrade);
    await Promise.all([...this.clients].map((client) => closeClient(client.ws)));
    await Promise.all(
      this.attachments.map(({ wss }) => new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())))),
    );
    this.attachments.length = 0;
  }

  private accept(ws: WebSocket): void {
    const client: Client = { ws, subscriptions: new Map() };
    this.clients.add(client);
    ws.on('message', (data: RawData) => this.onMessage(client, rawText(data)));
    ws.on('close', () => this.clients.delete(client));
    // Protocol errors (bad frames, resets) end the socket; log them so a misbehaving client is visible.
    ws.on('error', (err: Error) => console.warn('[sim venue ws] socket error:', err.message));
  }

  private onMessage(client: Client, text: string): void {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON at all: the venue reports it to the client on the error channel and keeps the socket.
      this.sendError(client, `Error parsing JSON into valid websocket request: ${text}`);
      return;
    }
    const parsed = requestSchema.safeParse(body);
    if (!parsed.success) {
      this.sendError(client, `Error parsing JSON into valid websocket request: ${text}`);
      return;
    }
    const request = parsed.data;
    if (request.method === 'ping') {
      this.send(client, { channel: 'pong' });
      return;
    }
    if (request.method === 'post') {
      this.answerPost(client, request);
      return;
    }
    // The confirmation echoes the subscription exactly as the client sent it (null fields and all):
    // clients match the echo against what they sent.
    const sent = (body as { subscription: unknown }).subscription;
    const subscription = canonical(request.subscription);
    const key = JSON.stringify(subscription);
    if (subscription.type !== 'allMids' && !this.venue.hasAsset(subscription.coin)) {
      this.sendError(client, `Invalid subscription: unknown coin ${JSON.stringify(subscription.coin)}: ${key}`);
      return;
    }
    if (subscription.type === 'l2Book' && subscription.mantissa != null && subscription.nSigFigs !== 5) {
      this.sendError(client, `Invalid subscription: mantissa is only allowed with nSigFigs 5: ${key}`);
      return;
    }
    if (request.method === 'subscribe') {
      if (client.subscriptions.has(key)) {
        this.sendError(client, `Already subscribed: ${key}`);
        return;
      }
      client.subscriptions.set(key, subscription);
      this.send(client, { channel: 'subscriptionResponse', data: { method: 'subscribe', subscription: sent } });
      this.sendInitial(client, subscription);
    } else {
      if (!client.subscriptions.delete(key)) {
        this.sendError(client, `Already unsubscribed: ${key}`);
        return;
      }
      this.send(client, { channel: 'subscriptionResponse', data: { method: 'unsubscribe', subscription: sent } });
    }
  }

  /**
   * {method: 'post', id, request: {type: 'info', payload}}: the info request answered on the socket as
   * {channel: 'post', data: {id, response: {type: 'info', payload: {type, data}}}}. A refused request, and
   * every action (the paper venue trades through the service's API, never the venue's), is answered
   * with {type: 'error', payload: message} under the same id.
   */
  private answerPost(client: Client, post: z.infer<typeof postSchema>): void {
    const reply = (response: { type: 'info'; payload: { type: string; data: unknown } } | { type: 'error'; payload: string }): void =>
      this.send(client, { channel: 'post', data: { id: post.id, response } });
    if (post.request.type === 'action') {
      reply({ type: 'error', payload: 'actions are not served by the paper venue: orders go through the trading service' });
      return;
    }
    const parsed = parseInfoRequest(post.request.payload);
    if (!parsed.ok) {
      reply({ type: 'error', payload: `Failed to deserialize the JSON body into the target type: ${parsed.detail}` });
      return;
    }
    const info = parsed.request;
    const proxied = this.venue.proxyInfo(info);
    if (!proxied) {
      reply({ type: 'info', payload: { type: info.type, data: answerInfo(this.venue, info) } });
      return;
    }
    proxied.then(
      (data) => reply({ type: 'info', payload: { type: info.type, data } }),
      (err: unknown) => reply({ type: 'error', payload: `upstream venue: ${err instanceof Error ? err.message : String(err)}` }),
    );
  }

  /** The channel's current state right after subscribing, so a client never waits for the next change. */
  private sendInitial(client: Client, subscription: VenueSubscription): void {
    if (subscription.type === 'trades') {
      const trades = this.venue.recentTrades(subscription.coin);
      if (trades.length > 0) this.send(client, { channel: 'trades', data: trades });
      return;
    }
    const message = this.messageFor(subscription);
    if (message !== null) this.sendText(client, message);
  }

  /** Serialised data message of a subscription at the current state, or null when there is nothing to send. */
  private messageFor(subscription: VenueSubscription): string | null {
    switch (subscription.type) {
      case 'allMids':
        return JSON.stringify({ channel: 'allMids', data: { mids: this.venue.allMids() } });
      case 'l2Book':
        return JSON.stringify({
          channel: 'l2Book',
          data: this.venue.l2Book(subscription.coin, subscription.nSigFigs ?? null, subscription.mantissa ?? null),
        });
      case 'candle': {
        const candle = this.venue.currentCandle(subscription.coin, subscription.interval);
        return candle ? JSON.stringify({ channel: 'candle', data: candle }) : null;
      }
      case 'activeAssetCtx':
        return JSON.stringify({ channel: 'activeAssetCtx', data: { coin: subscription.coin, ctx: this.venue.assetCtx(subscription.coin) } });
      case 'trades':
        // Trades are pushed from the trade event itself, never recomputed from state.
        return null;
    }
  }

  private broadcast(event: VenueFeedEvent): void {
    if (this.clients.size === 0) return;
    // One serialisation per subscription per event, however many clients share it.
    const cache = new Map<string, string | null>();
    const affects = (subscription: VenueSubscription): boolean => {
      if (event.kind === 'marks') {
        if (subscription.type === 'allMids') return true;
        return subscription.type !== 'trades' && event.symbols.includes(subscription.coin);
      }
      // A trade moves its coin's candle and 24h volume and is itself a trades message; the book and mids follow the mark only.
      // A walk trade's volume is in the candle and context the same tick's marks event already pushed.
      if (event.fromWalk) return subscription.type === 'trades' && subscription.coin === event.trade.coin;
      return (subscription.type === 'trades' || subscription.type === 'candle' || subscription.type === 'activeAssetCtx') && subscription.coin === event.trade.coin;
    };
    for (const client of this.clients) {
      for (const [key, subscription] of client.subscriptions) {
        if (!affects(subscription)) continue;
        if (!cache.has(key)) {
          cache.set(
            key,
            subscription.type === 'trades' && event.kind === 'trade'
              ? JSON.stringify({ channel: 'trades', data: [event.trade] })
              : this.messageFor(subscription),
          );
        }
        const message = cache.get(key);
        if (message) this.sendText(client, message);
      }
    }
  }

  private sendError(client: Client, message: string): void {
    this.send(client, { channel: 'error', data: message });
  }

  private send(client: Client, message: unknown): void {
    this.sendText(client, JSON.stringify(message));
  }

  private sendText(client: Client, text: string): void {
    // A socket that is closing gets nothing more; its 'close' handler removes it.
    if (client.ws.readyState === WebSocket.OPEN) client.ws.send(text);
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function closeClient(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    // A client that never answers the close frame must not hold shutdown up.
    const timer = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    ws.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    ws.close(1001, 'server shutting down');
  });
}

/**
 * The venue's public WebSocket (Hyperliquid's protocol): {method: 'subscribe' | 'unsubscribe', subscription}
 * and {method: 'ping'} answered by {channel: 'pong'}.
 *
 * The connection is kept alive and kept honest: a ping goes out every pingIntervalMs (the venue drops
 * connections that stay silent), and a pong that does not come back within pongTimeoutMs means the
 * connection is half-open, so the socket is cut. Whenever the socket closes without close() having been
 * called, it reconnects with backoff and full jitter and resubscribes every active subscription, so
 * consumers subscribe once and keep receiving. Subscriptions are reference-counted: two consumers of the
 * same feed share one venue subscription (the venue refuses a duplicate).
 *
 * Every message is validated; a message that does not match the venue's shape is reported on 'error'.
 */
import WebSocket from 'ws';
import { DecodeError, parseWith } from '../../shared/protocol/index.js';
import { backoffDelay, type RandomFn } from '../api/retry.js';
import {
  VenueWsMessageSchema,
  type ActiveAssetCtx,
  type AllMids,
  type Candle,
  type L2Book,
  type VenueSubscription,
  type VenueTrade,
} from './schemas.js';

export interface VenueSocketEvents {
  /** Connected; `reconnected` is true for every connection after the first. */
  open: { reconnected: boolean };
  /** Disconnected; `willReconnect` is false only after close(). */
  close: { code: number; reason: string; willReconnect: boolean };
  reconnecting: { attempt: number; delayMs: number };
  /** The venue confirmed a subscribe or unsubscribe. */
  subscribed: VenueSubscription;
  unsubscribed: VenueSubscription;
  pong: { at: number };
  allMids: { mids: AllMids };
  l2Book: L2Book;
  trades: VenueTrade[];
  candle: Candle;
  activeAssetCtx: ActiveAssetCtx;
  /** The venue's error channel (a refused subscription, a malformed request). */
  serverError: { message: string };
  /** Socket errors and messages that fail validation. */
  error: Error;
}

export type VenueSocketEvent = keyof VenueSocketEvents;
type Listener<K extends VenueSocketEvent> = (payload: VenueSocketEvents[K]) => void;

export interface VenueSocketLogger {
  warn(message: string): void;
}

export interface VenueSocketOptions {
  /** {venue_ws_url}. */
  url: string;
  /** Default 20 s: well inside the venue's 60 s idle cut-off. */
  pingIntervalMs?: number;
  /** Default 10 s. */
  pongTimeoutMs?: number;
  /** A connection attempt that has not opened by then is abandoned and retried. Default 10 s. */
  connectTimeoutMs?: number;
  /** Reconnect backoff; the attempt count resets once a connection opens. Default 250 ms .. 15 s. */
  reconnect?: { baseDelayMs: number; maxDelayMs: number };
  random?: RandomFn;
  /** Where errors go when nobody listens to 'error' (they are never dropped). Default: console. */
  logger?: VenueSocketLogger;
  /** Injectable for tests. */
  createSocket?: (url: string) => WebSocket;
}

/** A subscription with only meaningful fields in a fixed order: equal feeds get equal keys. */
export function canonicalSubscription(sub: VenueSubscription): VenueSubscription {
  switch (sub.type) {
    case 'allMids':
      return { type: 'allMids' };
    case 'l2Book':
      return {
        type: 'l2Book',
        coin: sub.coin,
        ...(sub.nSigFigs != null ? { nSigFigs: sub.nSigFigs } : {}),
        ...(sub.mantissa != null ? { mantissa: sub.mantissa } : {}),
      };
    case 'trades':
      return { type: 'trades', coin: sub.coin };
    case 'candle':
      return { type: 'candle', coin: sub.coin, interval: sub.interval };
    case 'activeAssetCtx':
      return { type: 'activeAssetCtx', coin: sub.coin };
  }
}

export function subscriptionKey(sub: VenueSubscription): string {
  return JSON.stringify(canonicalSubscription(sub));
}

interface Active {
  subscription: VenueSubscription;
  refs: number;
}

export class VenueSocket {
  readonly url: string;
  private readonly pingIntervalMs: number;
  private readonly pongTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly reconnectPolicy: { baseDelayMs: number; maxDelayMs: number };
  private readonly random: RandomFn;
  private readonly logger: VenueSocketLogger;
  private readonly createSocket: (url: string) => WebSocket;

  private readonly listeners = new Map<VenueSocketEvent, Set<(payload: never) => void>>();
  private readonly active = new Map<string, Active>();
  private ws: WebSocket | null = null;
  private started = false;
  private stopped = false;
  private everOpened = false;
  private reconnectAttempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private pongTimer: NodeJS.Timeout | null = null;
  private connectTimer: NodeJS.Timeout | null = null;
  private openWaiters: { resolve: () => void; reject: (err: Error) => void }[] = [];

  constructor(options: VenueSocketOptions) {
    this.url = options.url;
    this.pingIntervalMs = options.pingIntervalMs ?? 20_000;
    this.pongTimeoutMs = options.pongTimeoutMs ?? 10_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.reconnectPolicy = options.reconnect ?? { baseDelayMs: 250, maxDelayMs: 15_000 };
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? { warn: (m) => console.warn(m) };
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url));
  }

  get isOpen(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Subscriptions that are (re)sent on every connection. */
  subscriptions(): VenueSubscription[] {
    return [...this.active.values()].map((a) => a.subscription);
  }

  on<K extends VenueSocketEvent>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  /** Starts connecting (and reconnecting) and resolves when a connection is open. */
  connect(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('venue socket is closed'));
    if (this.isOpen) return Promise.resolve();
    const opened = new Promise<void>((resolve, reject) => this.openWaiters.push({ resolve, reject }));
    if (!this.started) {
      this.started = true;
      this.open();
    }
    return opened;
  }

  /**
   * Adds a subscription (sent now if connected, else on the next connection) and returns the function that
   * releases it. The venue sees one subscribe per distinct feed however many consumers hold it.
   */
  subscribe(subscription: VenueSubscription): () => void {
    const canonical = canonicalSubscription(subscription);
    const key = JSON.stringify(canonical);
    const existing = this.active.get(key);
    if (existing) existing.refs++;
    else {
      this.active.set(key, { subscription: canonical, refs: 1 });
      if (this.isOpen) this.send({ method: 'subscribe', subscription: canonical });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(key);
    };
  }

  /** Stops reconnecting and closes the connection; resolves once the socket is closed. */
  async close(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    for (const w of this.openWaiters.splice(0)) w.reject(new Error('venue socket closed before it opened'));
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1000, 'client closing');
      // A server that never answers the close frame must not hold shutdown up.
      setTimeout(() => ws.terminate(), 1000).unref();
    });
  }

  private release(key: string): void {
    const entry = this.active.get(key);
    if (!entry) return;
    if (--entry.refs > 0) return;
    this.active.delete(key);
    if (this.isOpen) this.send({ method: 'unsubscribe', subscription: entry.subscription });
  }

  private open(): void {
    const ws = this.createSocket(this.url);
    this.ws = ws;
    this.connectTimer = setTimeout(() => {
      this.report(new Error(`venue socket: no connection to ${this.url} within ${this.connectTimeoutMs} ms`));
      ws.terminate();
    }, this.connectTimeoutMs);
    ws.on('open', () => this.onOpen(ws));
    ws.on('message', (data: WebSocket.RawData) => this.onMessage(rawText(data)));
    ws.on('close', (code: number, reason: Buffer) => this.onClose(ws, code, reason.toString('utf8')));
    // ws always follows 'error' with 'close', which does the reconnecting.
    ws.on('error', (err: Error) => {
      // After close() the socket's errors are the shutdown itself (e.g. cut while connecting), not faults.
      if (!this.stopped) this.report(new Error(`venue socket: ${err.message}`, { cause: err }));
    });
  }

  private onOpen(ws: WebSocket): void {
    if (ws !== this.ws) return;
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
    const reconnected = this.everOpened;
    this.everOpened = true;
    this.reconnectAttempt = 0;
    for (const { subscription } of this.active.values()) this.send({ method: 'subscribe', subscription });
    this.pingTimer = setInterval(() => this.ping(), this.pingIntervalMs);
    for (const w of this.openWaiters.splice(0)) w.resolve();
    this.emit('open', { reconnected });
  }

  private ping(): void {
    if (!this.isOpen) return;
    this.send({ method: 'ping' });
    if (this.pongTimer) return;
    this.pongTimer = setTimeout(() => {
      this.pongTimer = null;
      this.report(new Error(`venue socket: no pong within ${this.pongTimeoutMs} ms; reconnecting`));
      // A half-open connection never closes by itself: cut it so 'close' reconnects.
      this.ws?.terminate();
    }, this.pongTimeoutMs);
  }

  private onClose(ws: WebSocket, code: number, reason: string): void {
    if (ws !== this.ws) return;
    this.clearTimers();
    this.ws = null;
    const willReconnect = !this.stopped;
    this.emit('close', { code, reason, willReconnect });
    if (!willReconnect) return;
    const delayMs = backoffDelay(this.reconnectAttempt, this.reconnectPolicy, this.random);
    this.reconnectAttempt++;
    this.emit('reconnecting', { attempt: this.reconnectAttempt, delayMs });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) this.open();
    }, delayMs);
  }

  private onMessage(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.report(new DecodeError(`venue socket: a message is not JSON: ${text.slice(0, 200)}`));
      return;
    }
    let msg;
    try {
      msg = parseWith(VenueWsMessageSchema, json, 'venue socket message');
    } catch (err) {
      this.report(err as Error);
      return;
    }
    switch (msg.channel) {
      case 'pong':
        if (this.pongTimer) clearTimeout(this.pongTimer);
        this.pongTimer = null;
        this.emit('pong', { at: Date.now() });
        return;
      case 'subscriptionResponse': {
        const sub = msg.data.subscription as VenueSubscription;
        this.emit(msg.data.method === 'subscribe' ? 'subscribed' : 'unsubscribed', sub);
        return;
      }
      case 'error':
        this.emit('serverError', { message: msg.data });
        return;
      case 'allMids':
        this.emit('allMids', { mids: msg.data.mids });
        return;
      case 'l2Book':
        this.emit('l2Book', msg.data);
        return;
      case 'trades':
        this.emit('trades', msg.data);
        return;
      case 'candle':
        this.emit('candle', msg.data);
        return;
      case 'activeAssetCtx':
        this.emit('activeAssetCtx', msg.data);
        return;
    }
  }

  private send(message: unknown): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify(message), (err) => {
      if (err) this.report(new Error(`venue socket: send failed: ${err.message}`, { cause: err }));
    });
  }

  private clearTimers(): void {
    for (const t of [this.pingTimer, this.pongTimer, this.connectTimer]) if (t) clearTimeout(t);
    this.pingTimer = this.pongTimer = this.connectTimer = null;
  }

  private report(err: Error): void {
    if ((this.listeners.get('error')?.size ?? 0) > 0) this.emit('error', err);
    else this.logger.warn(err.message);
  }

  private emit<K extends VenueSocketEvent>(event: K, payload: VenueSocketEvents[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<K>)(payload);
      } catch (err) {
        // A throwing consumer must not break the socket for the others; its error is still reported.
        if (event === 'error') this.logger.warn(`venue socket: an error listener threw: ${(err as Error).message}`);
        else this.report(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

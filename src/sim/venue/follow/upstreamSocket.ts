/**
 * The upstream venue's WebSocket as the follower uses it: subscribes to the channels of the followed
 * markets, hands every known message on, ignores channels it does not follow (the venue adds some and
 * sends subscriptionResponse and pong), and reconnects after a drop with a growing delay. Whether the
 * data is fresh is the follower's business (feedHealth.ts); this only keeps a socket.
 */
import { WebSocket, type RawData } from 'ws';
import { FOLLOWED_CHANNELS, socketMessageSchema, type UpstreamSocketMessage } from './upstreamSchemas.js';

/** The venue closes a socket that sends nothing for a minute; a ping keeps it open. */
const PING_EVERY_MS = 20_000;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;

export interface UpstreamSocketEvents {
  message(message: UpstreamSocketMessage): void;
  /** The socket opened (true) or went away (false). */
  open(open: boolean): void;
  /** A message that claims a followed channel but is malformed: reported, never applied. */
  invalid(detail: string): void;
}

export class UpstreamSocket {
  private ws: WebSocket | null = null;
  private stopped = false;
  private reconnectDelay = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly url: string,
    private readonly subscriptions: readonly Record<string, unknown>[],
    private readonly events: UpstreamSocketEvents,
    /** A larger message closes the socket (ws answers 1009) instead of being buffered: issue 26. */
    private readonly maxPayload: number,
  ) {}

  start(): void {
    this.connect();
  }

  get isOpen(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.ws?.terminate();
    this.ws = null;
  }

  private connect(): void {
    if (this.stopped) return;
    const ws = new WebSocket(this.url, { handshakeTimeout: 4000, maxPayload: this.maxPayload });
    this.ws = ws;
    ws.on('open', () => {
      this.reconnectDelay = RECONNECT_MIN_MS;
      for (const subscription of this.subscriptions) ws.send(JSON.stringify({ method: 'subscribe', subscription }));
      this.pingTimer = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ method: 'ping' }));
      }, PING_EVERY_MS);
      this.pingTimer.unref();
      this.events.open(true);
    });
    ws.on('message', (data: RawData) => this.onMessage(rawText(data)));
    // 'error' always precedes 'close' on a failed socket; the close handler reconnects.
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = null;
      if (this.ws !== ws) return;
      this.ws = null;
      this.events.open(false);
      if (this.stopped) return;
      this.reconnectTimer = setTimeout(() => this.connect(), this.reconnectDelay);
      this.reconnectTimer.unref();
      this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    });
  }

  private onMessage(text: string): void {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      this.events.invalid(`not JSON: ${text.slice(0, 120)}`);
      return;
    }
    const channel = (body as { channel?: unknown } | null)?.channel;
    if (typeof channel !== 'string' || !FOLLOWED_CHANNELS.has(channel)) return;
    const parsed = socketMessageSchema.safeParse(body);
    if (!parsed.success) {
      this.events.invalid(`${channel}: ${parsed.error.issues[0]?.message ?? 'invalid'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`);
      return;
    }
    this.events.message(parsed.data);
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

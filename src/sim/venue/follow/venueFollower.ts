/**
 * The simulator's venue following a real one: every configured market whose venue_symbol the upstream
 * lists (and has not delisted) takes its marks, mids, asset context, book, trades and hourly funding
 * rate from the upstream; the others keep the random walk, and both the log and status() say which.
 *
 * Data comes from the upstream WebSocket (activeAssetCtx, l2Book and trades per followed coin, allMids)
 * while it delivers; otherwise the info API is polled, each data kind at most once per poll interval (1 s
 * or more). When neither has answered for the outage window, the feed is down: the venue freezes the
 * followed marks and the engine pauses triggers, liquidations, funding and new orders on those markets
 * (VenueMarketData.isPaused). Following resumes by itself with the next answer. It never falls back to
 * the walk.
 */
import type { VenueMarketData } from '../venueMarketData.js';
import { answerInfo, type InfoRequest } from '../infoRoutes.js';
import { FeedHealth, type FeedChange, type FeedState } from './feedHealth.js';
import { UpstreamInfoClient, UpstreamError } from './upstreamInfoClient.js';
import { UpstreamSocket } from './upstreamSocket.js';
import type { UpstreamAssetCtx, UpstreamL2Book, UpstreamSocketMessage } from './upstreamSchemas.js';
import { deriveWsUrl } from './followUrls.js';

export interface FollowOptions {
  /** The upstream's info API root (Hyperliquid's https://api.hyperliquid.xyz/info shape). */
  infoUrl: string;
  /** Its WebSocket; derived from infoUrl when absent (…/info -> …/ws, http -> ws). */
  wsUrl?: string;
  /** No data for this long is an outage (default 5000 ms). */
  outageAfterMs?: number;
  /** Time between polls of one data kind when the WebSocket is not delivering; at least 1000 ms. */
  pollIntervalMs?: number;
  /** Where the follower's news goes (perps sim writes it to stderr). */
  log?: (line: string) => void;
}

export interface FollowedMarketStatus {
  venue_symbol: string;
  source: 'upstream' | 'walk';
  /** Why a market walks: absent or delisted upstream. */
  reason?: string;
}

export interface FollowStatus {
  info_url: string;
  ws_url: string;
  feed: FeedState;
  /** How data arrives now: the WebSocket, or polling the info API. */
  transport: 'websocket' | 'polling';
  /** Wall-clock ms the feed went down (null while live). */
  down_since: number | null;
  last_data_at: number;
  markets: FollowedMarketStatus[];
}

export const MIN_POLL_INTERVAL_MS = 1000;
const DEFAULT_OUTAGE_AFTER_MS = 5000;

export class VenueFollower {
  readonly infoUrl: string;
  readonly wsUrl: string;
  private readonly client: UpstreamInfoClient;
  private readonly health: FeedHealth;
  private readonly pollIntervalMs: number;
  private readonly log: (line: string) => void;
  private readonly markets: FollowedMarketStatus[] = [];
  private readonly followed = new Set<string>();
  private readonly listeners: ((status: FollowStatus) => void)[] = [];
  private socket: UpstreamSocket | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private polling = false;
  private lastSocketMessageAt = 0;
  private stopped = false;
  /** Proxied answers by request, reused for a poll interval so clients cannot make us hammer the upstream. */
  private readonly proxied = new Map<string, { at: number; answer: Promise<unknown> }>();

  constructor(
    private readonly venue: VenueMarketData,
    options: FollowOptions,
  ) {
    this.infoUrl = options.infoUrl;
    this.wsUrl = options.wsUrl ?? deriveWsUrl(options.infoUrl);
    this.pollIntervalMs = Math.max(options.pollIntervalMs ?? MIN_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS);
    this.log = options.log ?? ((line) => console.warn(line));
    this.client = new UpstreamInfoClient(this.infoUrl);
    this.health = new FeedHealth(options.outageAfterMs ?? DEFAULT_OUTAGE_AFTER_MS, (change) => this.onFeedChange(change));
  }

  /**
   * Reads the upstream's markets and current state once (an upstream that cannot be read at start is an
   * error: there would be nothing to follow), then follows it until stop().
   */
  async start(): Promise<void> {
    let meta;
    try {
      meta = await this.client.metaAndAssetCtxs();
    } catch (err) {
      throw new UpstreamError(`cannot follow the venue at ${this.infoUrl}: ${(err as Error).message}`);
    }
    const [{ universe }, ctxs] = meta;
    const upstream = new Map(universe.map((entry, index) => [entry.name, { entry, ctx: ctxs[index] }]));
    for (const symbol of this.venue.symbols()) {
      const found = upstream.get(symbol);
      if (!found || !found.ctx) this.markets.push({ venue_symbol: symbol, source: 'walk', reason: 'not listed by the upstream' });
      else if (found.entry.isDelisted) this.markets.push({ venue_symbol: symbol, source: 'walk', reason: 'delisted upstream' });
      else {
        this.markets.push({ venue_symbol: symbol, source: 'upstream' });
        this.followed.add(symbol);
      }
    }
    const books = await Promise.all([...this.followed].map((coin) => this.client.l2Book(coin).catch(() => null)));
    this.health.noteData();
    for (const symbol of this.followed) {
      this.venue.follow(symbol);
      this.applyCtx(symbol, upstream.get(symbol)!.ctx!);
    }
    for (const book of books) if (book && this.followed.has(book.coin)) this.applyBook(book);
    this.venue.setInfoProxy((request) => this.proxy(request));

    const following = this.markets.filter((m) => m.source === 'upstream').map((m) => m.venue_symbol);
    this.log(`[sim follow] following ${following.length > 0 ? following.join(', ') : 'no market'} from ${this.infoUrl} (WebSocket ${this.wsUrl})`);
    for (const m of this.markets) if (m.source === 'walk') this.log(`[sim follow] ${m.venue_symbol}: ${m.reason ?? 'not followed'}; it keeps the simulated walk`);

    if (this.followed.size > 0) {
      const subscriptions: Record<string, unknown>[] = [{ type: 'allMids' }];
      for (const coin of this.followed) {
        subscriptions.push({ type: 'activeAssetCtx', coin }, { type: 'l2Book', coin }, { type: 'trades', coin });
      }
      this.socket = new UpstreamSocket(this.wsUrl, subscriptions, {
        message: (message) => this.onSocketMessage(message),
        open: (open) => {
          this.log(open ? `[sim follow] WebSocket ${this.wsUrl} open` : `[sim follow] WebSocket ${this.wsUrl} closed; polling ${this.infoUrl} until it is back`);
          this.notify();
        },
        invalid: (detail) => this.log(`[sim follow] ignored a malformed upstream message (${detail})`),
      });
      this.socket.start();
      this.pollTimer = setInterval(() => void this.poll(), this.pollIntervalMs);
      this.pollTimer.unref();
      this.health.start(Math.min(250, this.pollIntervalMs));
    }
  }

  stop(): void {
    this.stopped = true;
    this.socket?.stop();
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.health.stop();
    this.venue.setInfoProxy(null);
  }

  status(): FollowStatus {
    return {
      info_url: this.infoUrl,
      ws_url: this.wsUrl,
      feed: this.health.state,
      transport: this.socketDelivering() ? 'websocket' : 'polling',
      down_since: this.health.since,
      last_data_at: this.health.lastData,
      markets: this.markets.map((m) => ({ ...m })),
    };
  }

  /** Called on every change of the feed's state or transport. Returns an unsubscribe. */
  onStatus(listener: (status: FollowStatus) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  // ---- internals ------------------------------------------------------------------------------

  /** The socket counts as the source while it is open and spoke within one poll interval. */
  private socketDelivering(): boolean {
    return this.socket?.isOpen === true && Date.now() - this.lastSocketMessageAt <= this.pollIntervalMs * 2;
  }

  private onSocketMessage(message: UpstreamSocketMessage): void {
    if (this.stopped) return;
    this.lastSocketMessageAt = Date.now();
    this.health.noteData();
    this.guard(() => {
      switch (message.channel) {
        case 'activeAssetCtx':
          if (this.followed.has(message.data.coin)) this.applyCtx(message.data.coin, message.data.ctx);
          return;
        case 'l2Book':
          if (this.followed.has(message.data.coin)) this.applyBook(message.data);
          return;
        case 'allMids':
          for (const [coin, mid] of Object.entries(message.data.mids)) if (this.followed.has(coin)) this.venue.applyUpstream(coin, { mid });
          return;
        case 'trades': {
          const byCoin = new Map<string, typeof message.data>();
          for (const trade of message.data) if (this.followed.has(trade.coin)) byCoin.set(trade.coin, [...(byCoin.get(trade.coin) ?? []), trade]);
          for (const [coin, trades] of byCoin) {
            this.venue.applyUpstream(coin, {
              trades: trades.map((t) => ({ side: t.side, px: t.px, sz: t.sz, time: t.time, tid: t.tid, hash: t.hash, users: t.users ?? [ZERO, ZERO] })),
            });
          }
          return;
        }
      }
    });
  }

  /** Polls the info API when the socket is not delivering; one request of each kind at a time. */
  private async poll(): Promise<void> {
    if (this.stopped || this.polling || this.socketDelivering()) return;
    this.polling = true;
    try {
      const [meta, ...books] = await Promise.allSettled([this.client.metaAndAssetCtxs(), ...[...this.followed].map((coin) => this.client.l2Book(coin))]);
      if (this.stopped) return;
      if (meta.status === 'fulfilled') {
        this.health.noteData();
        const [{ universe }, ctxs] = meta.value;
        universe.forEach((entry, index) => {
          const ctx = ctxs[index];
          if (ctx && this.followed.has(entry.name)) this.guard(() => this.applyCtx(entry.name, ctx));
        });
      }
      for (const book of books) {
        if (book.status === 'fulfilled' && this.followed.has(book.value.coin)) {
          this.health.noteData();
          this.guard(() => this.applyBook(book.value));
        }
      }
    } finally {
      this.polling = false;
    }
  }

  private applyCtx(coin: string, ctx: UpstreamAssetCtx): void {
    this.venue.applyUpstream(coin, { ctx, ...(ctx.midPx ? { mid: ctx.midPx } : {}) });
  }

  private applyBook(book: UpstreamL2Book): void {
    const side = (levels: UpstreamL2Book['levels'][0]) => levels.map((l) => ({ px: l.px, sz: l.sz, n: l.n }));
    this.venue.applyUpstream(book.coin, { book: { time: book.time, bids: side(book.levels[0]), asks: side(book.levels[1]) } });
  }

  /** Candles and funding history of a followed coin come from the upstream; its answer is passed on as sent. */
  private proxy(request: InfoRequest): Promise<unknown> | null {
    const coin = request.type === 'candleSnapshot' ? request.req.coin : request.type === 'fundingHistory' ? request.coin : null;
    if (coin === null || !this.followed.has(coin)) return null;
    const key = JSON.stringify(request);
    const now = Date.now();
    const cached = this.proxied.get(key);
    if (cached && now - cached.at < this.pollIntervalMs) return cached.answer;
    for (const [k, v] of this.proxied) if (now - v.at >= this.pollIntervalMs) this.proxied.delete(k);
    const answer = this.client.post(request).catch((err: unknown) => {
      // The simulator's own record of the followed marks is what it has; the log says it is not the upstream's.
      this.log(`[sim follow] ${request.type} of ${coin} answered from the simulator's own record of the upstream marks: ${(err as Error).message}`);
      return answerInfo(this.venue, request);
    });
    this.proxied.set(key, { at: now, answer });
    return answer;
  }

  private onFeedChange(change: FeedChange): void {
    this.venue.setUpstreamDown(change.state === 'down');
    if (change.state === 'down') {
      this.log(`[sim follow] the upstream ${this.infoUrl} has sent nothing since ${new Date(change.downSince ?? change.at).toISOString()}: marks frozen, triggers, liquidations, funding and new orders paused on the followed markets`);
    } else {
      this.log(`[sim follow] the upstream answers again after ${Math.round((change.downForMs ?? 0) / 1000)} s: following resumes`);
    }
    this.notify();
  }

  private notify(): void {
    const status = this.status();
    for (const listener of [...this.listeners]) {
      try {
        listener(status);
      } catch (err) {
        this.log(`[sim follow] a status listener failed: ${(err as Error).message}`);
      }
    }
  }

  /** An engine error on one update is logged and the feed goes on (the next update is independent). */
  private guard(apply: () => void): void {
    try {
      apply();
    } catch (err) {
      this.log(`[sim follow] applying an upstream update failed: ${(err as Error).message}`);
    }
  }
}

const ZERO = '0x0000000000000000000000000000000000000000';

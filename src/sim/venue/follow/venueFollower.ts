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
 *
 * The upstream is a real, sometimes glitchy feed, and it must never corrupt paper accounts (issue 26):
 * every value goes through the market's guard (marketGuard.ts) before the venue sees it; a refused value
 * freezes its market, a move beyond the band is held until the info API confirms it (the follower asks it
 * at once; socket updates never confirm a hold). Answers and WebSocket messages have a size cap, the log is rate-limited (logLimiter.ts), and the
 * candle and funding-history reads passed through to the upstream are limited per second.
 */
import type { VenueMarketData } from '../venueMarketData.js';
import { answerInfo, type InfoRequest } from '../infoRoutes.js';
import { checkBandFraction } from '../../../shared/feed/bandGate.js';
import { FeedHealth, type FeedChange, type FeedState } from './feedHealth.js';
import { DEFAULT_MAX_ANSWER_BYTES, UpstreamInfoClient, UpstreamError } from './upstreamInfoClient.js';
import { UpstreamSocket } from './upstreamSocket.js';
import type { UpstreamAssetCtx, UpstreamL2Book, UpstreamSocketMessage, UpstreamTrade } from './upstreamSchemas.js';
import { deriveWsUrl, parseHttpUrl, parseWsUrl } from './followUrls.js';
import { LogLimiter } from './logLimiter.js';
import { MarketGuard, type GuardOutcome, type MarketIssue } from './marketGuard.js';

export interface FollowOptions {
  /** The upstream's info API root (Hyperliquid's https://api.hyperliquid.xyz/info shape). */
  infoUrl: string;
  /** Its WebSocket; derived from infoUrl when absent (…/info -> …/ws, http -> ws). */
  wsUrl?: string;
  /** No data for this long is an outage (default 5000 ms). */
  outageAfterMs?: number;
  /** Time between polls of one data kind when the WebSocket is not delivering; at least 1000 ms. */
  pollIntervalMs?: number;
  /** Where the follower's news goes (perps sim writes it to stderr); rate-limited per kind of line. */
  log?: (line: string) => void;
  /**
   * The plausibility band as a fraction (default '0.1', 10%): a mark or book that moves more than this
   * from the last accepted one in one update is held until confirmed, and no fill is taken further than
   * this from the mark.
   */
  band?: string;
  /** The largest info answer or WebSocket message read, in bytes (default 4 MiB). */
  maxMessageBytes?: number;
  /** Candle and funding-history reads passed through to the upstream per second (default 5). */
  passThroughPerSecond?: number;
}

export interface FollowedMarketStatus {
  venue_symbol: string;
  source: 'upstream' | 'walk';
  /** Why a market walks: absent or delisted upstream. */
  reason?: string;
  /** A followed market: live, or held (a move waits for confirmation) or frozen (a value was refused). */
  state?: 'live' | 'held' | 'frozen';
  /** Since when (wall-clock ms) a followed market is held or frozen. */
  since?: number;
  /** What is held or refused, and why. */
  issues?: MarketIssue[];
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
  /** The plausibility band, a fraction ('0.1' is 10%). */
  band: string;
  markets: FollowedMarketStatus[];
}

export const MIN_POLL_INTERVAL_MS = 1000;
const DEFAULT_OUTAGE_AFTER_MS = 5000;
const DEFAULT_BAND = '0.1';
const DEFAULT_PASS_THROUGH_PER_SECOND = 5;

export class VenueFollower {
  readonly infoUrl: string;
  readonly wsUrl: string;
  private readonly client: UpstreamInfoClient;
  private readonly health: FeedHealth;
  private readonly pollIntervalMs: number;
  private readonly log: LogLimiter;
  private readonly band: string;
  private readonly maxMessageBytes: number;
  private readonly passThroughPerSecond: number;
  /** Wall-clock ms of the pass-through requests sent within the last second. */
  private passedThrough: number[] = [];
  private readonly guards = new Map<string, MarketGuard>();
  /** Each market's issues as listeners last heard of them (kind:state list). */
  private readonly notifiedShapes = new Map<string, string>();
  /** Info API reads asked to confirm a hold, by coin and kind: one in flight, at most one per poll interval. */
  private readonly confirming = new Map<string, { at: number; inFlight: boolean }>();
  /** A confirming read put off by that limit, by the same key. */
  private readonly confirmRetries = new Map<string, NodeJS.Timeout>();
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
    // Both URLs are checked here too (library callers): neither may carry credentials, which would be
    // logged, returned by GET /sim/follow and sent upstream.
    this.infoUrl = parseHttpUrl(options.infoUrl, 'the venue info URL').toString();
    this.wsUrl = parseWsUrl(options.wsUrl ?? deriveWsUrl(options.infoUrl), 'the venue WebSocket URL').toString();
    this.pollIntervalMs = Math.max(options.pollIntervalMs ?? MIN_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS);
    this.band = checkBandFraction(options.band ?? DEFAULT_BAND);
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    if (!Number.isInteger(this.maxMessageBytes) || this.maxMessageBytes < 1024) throw new RangeError('maxMessageBytes must be an integer of at least 1024');
    this.passThroughPerSecond = options.passThroughPerSecond ?? DEFAULT_PASS_THROUGH_PER_SECOND;
    if (!Number.isInteger(this.passThroughPerSecond) || this.passThroughPerSecond < 0) throw new RangeError('passThroughPerSecond must be a non-negative integer');
    const write = options.log ?? ((line: string) => console.warn(line));
    this.log = new LogLimiter(write);
    this.client = new UpstreamInfoClient(this.infoUrl, this.maxMessageBytes);
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
      this.venue.follow(symbol, this.band);
      this.guards.set(symbol, new MarketGuard(symbol, this.venue.tickSize(symbol), this.band));
    }
    const following = this.markets.filter((m) => m.source === 'upstream').map((m) => m.venue_symbol);
    this.log.line('start', `[sim follow] following ${following.length > 0 ? following.join(', ') : 'no market'} from ${this.infoUrl} (WebSocket ${this.wsUrl})`);
    for (const m of this.markets) if (m.source === 'walk') this.log.line(`walk ${m.venue_symbol}`, `[sim follow] ${m.venue_symbol}: ${m.reason ?? 'not followed'}; it keeps the simulated walk`);
    for (const symbol of this.followed) this.guard(() => this.applyCtx(symbol, upstream.get(symbol)!.ctx!, true));
    for (const book of books) if (book && this.followed.has(book.coin)) this.guard(() => this.applyBook(book, true));
    this.venue.setInfoProxy((request) => this.proxy(request));

    if (this.followed.size > 0) {
      const subscriptions: Record<string, unknown>[] = [{ type: 'allMids' }];
      for (const coin of this.followed) {
        subscriptions.push({ type: 'activeAssetCtx', coin }, { type: 'l2Book', coin }, { type: 'trades', coin });
      }
      this.socket = new UpstreamSocket(this.wsUrl, subscriptions, {
        message: (message) => this.onSocketMessage(message),
        open: (open) => {
          this.log.line('socket', open ? `[sim follow] WebSocket ${this.wsUrl} open` : `[sim follow] WebSocket ${this.wsUrl} closed; polling ${this.infoUrl} until it is back`);
          this.notify();
        },
        invalid: (detail) => this.log.line('malformed', `[sim follow] ignored a malformed upstream message (${detail})`),
      }, this.maxMessageBytes);
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
    for (const timer of this.confirmRetries.values()) clearTimeout(timer);
    this.confirmRetries.clear();
    this.health.stop();
    this.venue.setInfoProxy(null);
    this.log.stop();
  }

  status(): FollowStatus {
    return {
      info_url: this.infoUrl,
      ws_url: this.wsUrl,
      feed: this.health.state,
      transport: this.socketDelivering() ? 'websocket' : 'polling',
      down_since: this.health.since,
      last_data_at: this.health.lastData,
      band: this.band,
      markets: this.markets.map((m) => this.marketStatus(m)),
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
          if (this.followed.has(message.data.coin)) this.applyCtx(message.data.coin, message.data.ctx, false);
          return;
        case 'l2Book':
          if (this.followed.has(message.data.coin)) this.applyBook(message.data, false);
          return;
        case 'allMids':
          for (const [coin, mid] of Object.entries(message.data.mids)) if (this.followed.has(coin)) this.guard(() => this.applyMid(coin, mid));
          return;
        case 'trades': {
          const byCoin = new Map<string, typeof message.data>();
          for (const trade of message.data) if (this.followed.has(trade.coin)) byCoin.set(trade.coin, [...(byCoin.get(trade.coin) ?? []), trade]);
          for (const [coin, trades] of byCoin) this.guard(() => this.applyTrades(coin, trades));
          return;
        }
      }
    });
  }

  /**
   * Every poll interval: asks the info API about held or refused data, and polls it when the socket is
   * not delivering (one request of each kind at a time).
   */
  private async poll(): Promise<void> {
    if (this.stopped) return;
    // A hold or a freeze the socket has not settled yet is put to the info API (at most once per interval).
    for (const [coin, guard] of this.guards) for (const kind of guard.unsettled()) this.askToConfirm(coin, kind);
    if (this.polling || this.socketDelivering()) return;
    this.polling = true;
    try {
      const [meta, ...books] = await Promise.allSettled([this.client.metaAndAssetCtxs(), ...[...this.followed].map((coin) => this.client.l2Book(coin))]);
      if (this.stopped) return;
      if (meta.status === 'fulfilled') {
        this.health.noteData();
        const [{ universe }, ctxs] = meta.value;
        universe.forEach((entry, index) => {
          const ctx = ctxs[index];
          if (ctx && this.followed.has(entry.name)) this.guard(() => this.applyCtx(entry.name, ctx, true));
        });
      }
      for (const book of books) {
        if (book.status === 'fulfilled' && this.followed.has(book.value.coin)) {
          this.health.noteData();
          this.guard(() => this.applyBook(book.value, true));
        }
      }
    } finally {
      this.polling = false;
    }
  }

  /** `fromInfoApi`: read from the info API (start, poll, confirming read), which alone may confirm a hold. */
  private applyCtx(coin: string, ctx: UpstreamAssetCtx, fromInfoApi: boolean): void {
    const guard = this.guards.get(coin)!;
    if (!this.settle(coin, 'ctx', guard.ctx(ctx, Date.now(), fromInfoApi))) return;
    this.venue.applyUpstream(coin, { ctx, ...(ctx.midPx ? { mid: ctx.midPx } : {}) });
  }

  private applyBook(book: UpstreamL2Book, fromInfoApi: boolean): void {
    const side = (levels: UpstreamL2Book['levels'][0]) => levels.map((l) => ({ px: l.px, sz: l.sz, n: l.n }));
    const bids = side(book.levels[0]);
    const asks = side(book.levels[1]);
    const guard = this.guards.get(book.coin)!;
    if (!this.settle(book.coin, 'book', guard.book(bids, asks, Date.now(), fromInfoApi))) return;
    this.venue.applyUpstream(book.coin, { book: { time: book.time, bids, asks } });
  }

  private applyMid(coin: string, mid: string): void {
    if (!this.settle(coin, 'ctx', this.guards.get(coin)!.mid(mid, Date.now()))) return;
    this.venue.applyUpstream(coin, { mid });
  }

  private applyTrades(coin: string, trades: readonly UpstreamTrade[]): void {
    const { outcome, kept } = this.guards.get(coin)!.trades(trades, Date.now());
    if (!this.settle(coin, 'ctx', outcome) || kept.length === 0) return;
    this.venue.applyUpstream(coin, {
      trades: kept.map((t) => ({ side: t.side, px: t.px, sz: t.sz, time: t.time, tid: t.tid, hash: t.hash, users: t.users ?? [ZERO, ZERO] })),
    });
  }

  /**
   * Carries out the guard's outcome: the log line, the market's pause (before a value is applied, so a
   * confirmed mark reaches triggers on an unpaused market), a confirming read of the info API. Returns
   * whether to apply the value.
   */
  private settle(coin: string, confirmWith: 'ctx' | 'book', outcome: GuardOutcome): boolean {
    if (outcome.log) this.log.line(outcome.log.kind, outcome.log.line);
    const guard = this.guards.get(coin)!;
    this.venue.setFrozen(coin, guard.paused);
    if (outcome.confirm) this.askToConfirm(coin, confirmWith);
    // Listeners (the app's banner) hear of a market turning held, frozen or live, not of every new
    // reason a hostile feed can make up: GET /sim/follow has those.
    const shape = this.shapeOf(guard);
    if (shape !== (this.notifiedShapes.get(coin) ?? '')) {
      this.notifiedShapes.set(coin, shape);
      this.notify();
    }
    return outcome.use;
  }

  private shapeOf(guard: MarketGuard): string {
    return guard
      .status()
      .map((issue) => `${issue.kind}:${issue.state}`)
      .sort()
      .join(',');
  }

  /**
   * Asks the info API for the held kind of a coin; its answer alone confirms a hold (socket updates only
   * discard one). One metaAndAssetCtxs read serves every coin (its answer is applied to all followed
   * markets, as a poll). At most one read per key per poll interval: a hold that comes while the limit
   * runs is asked about as soon as it lapses (issue 36: a second hold within the interval went unasked).
   */
  private askToConfirm(coin: string, kind: 'ctx' | 'book'): void {
    const key = kind === 'ctx' ? 'ctx' : `book:${coin}`;
    const now = Date.now();
    const last = this.confirming.get(key);
    if (this.stopped) return;
    if (last?.inFlight || (last && now - last.at < this.pollIntervalMs)) {
      if (!this.confirmRetries.has(key)) {
        const wait = last.inFlight ? this.pollIntervalMs : Math.max(1, last.at + this.pollIntervalMs - now);
        const timer = setTimeout(() => {
          this.confirmRetries.delete(key);
          const guard = this.guards.get(coin);
          if (guard?.unsettled().includes(kind)) this.askToConfirm(coin, kind);
        }, wait);
        timer.unref();
        this.confirmRetries.set(key, timer);
      }
      return;
    }
    const entry = { at: now, inFlight: true };
    this.confirming.set(key, entry);
    const read =
      kind === 'book'
        ? this.client.l2Book(coin).then((book) => {
            if (book.coin === coin) this.guard(() => this.applyBook(book, true));
          })
        : this.client.metaAndAssetCtxs().then(([{ universe }, ctxs]) => {
            universe.forEach((asset, index) => {
              const ctx = ctxs[index];
              if (ctx && this.followed.has(asset.name)) this.guard(() => this.applyCtx(asset.name, ctx, true));
            });
          });
    read
      .catch((err: unknown) => this.log.line(`confirm ${coin}`, `[sim follow] could not ask ${this.infoUrl} about ${coin}'s held or refused ${kind}: ${(err as Error).message}; ${coin} stays paused`))
      .finally(() => {
        entry.inFlight = false;
      });
  }

  private marketStatus(market: FollowedMarketStatus): FollowedMarketStatus {
    const guard = this.guards.get(market.venue_symbol);
    if (market.source !== 'upstream' || !guard) return { ...market };
    const issues = guard.status();
    if (issues.length === 0) return { ...market, state: 'live' };
    return {
      ...market,
      state: issues.some((issue) => issue.state === 'frozen') ? 'frozen' : 'held',
      since: Math.min(...issues.map((issue) => issue.since)),
      issues,
    };
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
    // Clients cannot make the simulator send the upstream more than a few reads a second (issue 26: 50
    // distinct candle reads made 50 upstream requests); the rest get the simulator's own record.
    this.passedThrough = this.passedThrough.filter((at) => now - at < 1000);
    if (this.passedThrough.length >= this.passThroughPerSecond) {
      this.log.line('pass-through limit', `[sim follow] more than ${this.passThroughPerSecond} upstream reads a second asked for: ${request.type} of ${coin} answered from the simulator's own record`);
      return Promise.resolve(answerInfo(this.venue, request));
    }
    this.passedThrough.push(now);
    const answer = this.client.post(request).catch((err: unknown) => {
      // The simulator's own record of the followed marks is what it has; the log says it is not the upstream's.
      this.log.line('pass-through failed', `[sim follow] ${request.type} of ${coin} answered from the simulator's own record of the upstream marks: ${(err as Error).message}`);
      return answerInfo(this.venue, request);
    });
    this.proxied.set(key, { at: now, answer });
    return answer;
  }

  private onFeedChange(change: FeedChange): void {
    this.venue.setUpstreamDown(change.state === 'down');
    if (change.state === 'down') {
      this.log.line('feed', `[sim follow] the upstream ${this.infoUrl} has sent nothing since ${new Date(change.downSince ?? change.at).toISOString()}: marks frozen, triggers, liquidations, funding and new orders paused on the followed markets`);
    } else {
      this.log.line('feed', `[sim follow] the upstream answers again after ${Math.round((change.downForMs ?? 0) / 1000)} s: following resumes`);
    }
    this.notify();
  }

  private notify(): void {
    const status = this.status();
    for (const listener of [...this.listeners]) {
      try {
        listener(status);
      } catch (err) {
        this.log.line('listener', `[sim follow] a status listener failed: ${(err as Error).message}`);
      }
    }
  }

  /** An engine error on one update is logged and the feed goes on (the next update is independent). */
  private guard(apply: () => void): void {
    try {
      apply();
    } catch (err) {
      this.log.line('apply failed', `[sim follow] applying an upstream update failed: ${(err as Error).message}`);
    }
  }
}

const ZERO = '0x0000000000000000000000000000000000000000';

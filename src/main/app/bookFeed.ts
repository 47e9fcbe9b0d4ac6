/**
 * The order book of the market the trade view shows: a snapshot from the venue's info API (l2Book) and,
 * while the view watches it, the venue WebSocket's l2Book feed for that one market, published on the
 * `book` event through a Throttle (at most 10 a second, latest book wins). Only one market is watched at
 * a time (a window shows one book); changing market or grouping releases the previous subscription.
 * Without a venue WebSocket URL the book is polled instead. Books are keyed by the service's symbol and
 * asked for by the market's venue_symbol, never the other way round.
 */
import type { BookView } from '../../shared/ipc.js';
import type { ServiceContext } from '../services/serviceContext.js';
import { OperationError, ValidationError } from '../services/errors.js';
import { bookViewOf, readBook } from '../services/reads/marketData.js';
import { VenueSymbolIndex } from '../venue/marketJoin.js';
import type { VenueSocketLease, VenueSocketPool } from '../venue/venueSocketPool.js';
import type { AppLogger } from './adapters.js';
import { Throttle } from './throttle.js';

export type SigFigs = 2 | 3 | 4 | 5 | null;

export interface BookFeedOptions {
  ctx: ServiceContext;
  logger: AppLogger;
  emit: (book: BookView) => void;
  /** The session's venue sockets: the book leases the shared one (venue/venueSocketPool.ts). */
  sockets: VenueSocketPool;
  throttleMs?: number;
  /** Polling interval when the profile has no venue WebSocket. */
  pollMs?: number;
}

export class BookFeed {
  private socket: VenueSocketLease | null = null;
  private watching: { market: string; coin: string; nSigFigs: SigFigs; release: () => void } | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private readonly throttle: Throttle<BookView>;
  private closed = false;
  /** watch() calls run one at a time in arrival order: a stop sent right after a watch must win. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: BookFeedOptions) {
    this.throttle = new Throttle({
      intervalMs: o.throttleMs ?? 100,
      key: (b) => b.market,
      emit: (books) => {
        for (const b of books) o.emit(b);
      },
      onError: (err) => o.logger.error(`[book] delivering a book failed: ${(err as Error).message}`),
    });
  }

  /** The book now, from the info API (the same read as `perps book`). */
  async snapshot(market: string, nSigFigs: SigFigs = null): Promise<BookView> {
    return (await readBook(this.o.ctx, market, nSigFigs)).book;
  }

  /** Follows one market's book (null stops); answers whether a live feed (WebSocket) serves it. */
  watch(market: string | null, nSigFigs: SigFigs = null): Promise<{ watching: string | null; live: boolean }> {
    const run = this.queue.then(
      () => this.watchNow(market, nSigFigs),
      () => this.watchNow(market, nSigFigs),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async watchNow(market: string | null, nSigFigs: SigFigs): Promise<{ watching: string | null; live: boolean }> {
    if (this.closed) throw new OperationError('NOT_READY', 'the session is closing');
    const coin = market === null ? null : await this.coinOf(market);
    this.stopWatching();
    if (market === null || coin === null) return { watching: null, live: false };
    const url = this.o.ctx.profile.venueWsUrl;
    if (!url) {
      this.watching = { market, coin, nSigFigs, release: () => undefined };
      this.poll();
      return { watching: market, live: false };
    }
    const socket = this.openSocket(url);
    const release = socket.subscribe({ type: 'l2Book', coin, ...(nSigFigs !== null ? { nSigFigs } : {}) });
    this.watching = { market, coin, nSigFigs, release };
    socket.connect().catch((err: unknown) => {
      if (!this.closed) this.o.logger.warn(`[book] the venue feed could not start: ${(err as Error).message}`);
    });
    return { watching: market, live: true };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopWatching();
    this.throttle.close();
    const s = this.socket;
    this.socket = null;
    if (s) await s.release();
  }

  private openSocket(url: string): VenueSocketLease {
    if (this.socket) return this.socket;
    // The pool's socket reports its own errors (once, not once per consumer).
    const socket = this.o.sockets.lease(url);
    socket.on('l2Book', (book) => {
      const w = this.watching;
      // A book of the previous market can still arrive after the switch: only the watched coin is shown.
      if (w && book.coin === w.coin) this.throttle.push(bookViewOf(w.market, w.nSigFigs, book));
    });
    this.socket = socket;
    return socket;
  }

  private poll(): void {
    const w = this.watching;
    if (!w || this.closed) return;
    this.snapshot(w.market, w.nSigFigs)
      .then((b) => {
        if (this.watching === w) this.throttle.push(b);
      })
      .catch((err: unknown) => this.o.logger.warn(`[book] reading the ${w.market} book failed: ${(err as Error).message}`))
      .finally(() => {
        if (this.watching === w && !this.closed) this.pollTimer = setTimeout(() => this.poll(), this.o.pollMs ?? 1_000);
      });
  }

  private stopWatching(): void {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    this.watching?.release();
    this.watching = null;
  }

  private async coinOf(market: string): Promise<string> {
    const coin = new VenueSymbolIndex(await this.o.ctx.config.markets()).coinFor(market);
    if (coin === undefined) throw new ValidationError(`unknown market '${market}'`, { field: 'market', code: 'UNKNOWN_MARKET' });
    return coin;
  }
}

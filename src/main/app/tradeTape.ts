/**
 * The trades tape of the market the trade view shows: the venue WebSocket's `trades` channel (Hyperliquid's
 * WsTrade: coin, side B/A, px, sz, time, hash, tid, users) for that one market, kept as the latest
 * TAPE_LENGTH trades (newest first, de-duplicated by tid, since a resubscription after a reconnect sends
 * the recent trades again) and published on the `trades` event through a Throttle (at most 10 a second;
 * each delivery is the whole tape, so nothing is lost when deliveries coalesce). One market at a time,
 * like the book; the venue is asked by the market's venue_symbol, the tape keyed by the service's symbol.
 * Without a venue WebSocket there is no tape (the info API offers no trades read here): watch answers
 * live: false.
 */
import { canonical } from '../../shared/decimal/index.js';
import { TAPE_LENGTH, type TapeTrade, type TradesEvent } from '../../shared/ipc/twap.js';
import { OperationError, ValidationError } from '../services/errors.js';
import type { ServiceContext } from '../services/serviceContext.js';
import { VenueSymbolIndex } from '../venue/marketJoin.js';
import type { VenueTrade } from '../venue/schemas.js';
import type { VenueSocketLease, VenueSocketPool } from '../venue/venueSocketPool.js';
import type { AppLogger } from './adapters.js';
import { Throttle } from './throttle.js';

export interface TradeTapeOptions {
  ctx: ServiceContext;
  logger: AppLogger;
  emit: (event: TradesEvent) => void;
  /** The session's venue sockets: the tape leases the shared one (venue/venueSocketPool.ts). */
  sockets: VenueSocketPool;
  throttleMs?: number;
}

/** A venue trade as the tape shows it: the taker's side in the service's words. */
export function tapeTradeOf(t: VenueTrade): TapeTrade {
  return { price: canonical(t.px), size: canonical(t.sz), time: t.time, side: t.side === 'B' ? 'BUY' : 'SELL', tid: t.tid };
}

/** `incoming` merged into `tape`: newest first (time, then tid), each tid once, at most TAPE_LENGTH. */
export function mergeTape(tape: readonly TapeTrade[], incoming: readonly TapeTrade[]): TapeTrade[] {
  const byTid = new Map<number, TapeTrade>();
  for (const t of [...tape, ...incoming]) byTid.set(t.tid, t);
  return [...byTid.values()].sort((a, b) => b.time - a.time || b.tid - a.tid).slice(0, TAPE_LENGTH);
}

export class TradeTape {
  private socket: VenueSocketLease | null = null;
  private watching: { market: string; coin: string; release: () => void; trades: TapeTrade[] } | null = null;
  private readonly throttle: Throttle<TradesEvent>;
  private closed = false;
  /** watch() calls run one at a time in arrival order: a stop sent right after a watch must win. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: TradeTapeOptions) {
    this.throttle = new Throttle({
      intervalMs: o.throttleMs ?? 100,
      key: (e) => e.market,
      emit: (events) => {
        for (const e of events) o.emit(e);
      },
      onError: (err) => o.logger.error(`[tape] delivering trades failed: ${(err as Error).message}`),
    });
  }

  /** Follows one market's trades (null stops); answers whether a live feed serves it. */
  watch(market: string | null): Promise<{ watching: string | null; live: boolean }> {
    const run = this.queue.then(
      () => this.watchNow(market),
      () => this.watchNow(market),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async watchNow(market: string | null): Promise<{ watching: string | null; live: boolean }> {
    if (this.closed) throw new OperationError('NOT_READY', 'the session is closing', { kind: 'transient' });
    const coin = market === null ? null : new VenueSymbolIndex(await this.o.ctx.config.markets()).coinFor(market);
    if (market !== null && coin === undefined) throw new ValidationError(`unknown market '${market}'`, { field: 'market', code: 'UNKNOWN_MARKET' });
    this.stop();
    if (market === null || !coin) return { watching: null, live: false };
    const url = this.o.ctx.profile.venueWsUrl;
    if (!url) return { watching: market, live: false };
    const socket = this.openSocket(url);
    this.watching = { market, coin, release: socket.subscribe({ type: 'trades', coin }), trades: [] };
    socket.connect().catch((err: unknown) => {
      if (!this.closed) this.o.logger.warn(`[tape] the venue feed could not start: ${(err as Error).message}`);
    });
    return { watching: market, live: true };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    this.throttle.close();
    const s = this.socket;
    this.socket = null;
    if (s) await s.release();
  }

  private openSocket(url: string): VenueSocketLease {
    if (this.socket) return this.socket;
    // The pool's socket reports its own errors (once, not once per consumer).
    const socket = this.o.sockets.lease(url);
    socket.on('trades', (trades) => {
      const w = this.watching;
      // Trades of the previous market can still arrive after a switch: only the watched coin counts.
      const mine = w ? trades.filter((t) => t.coin === w.coin) : [];
      if (!w || mine.length === 0) return;
      w.trades = mergeTape(w.trades, mine.map(tapeTradeOf));
      this.throttle.push({ market: w.market, trades: w.trades, at: Date.now() });
    });
    this.socket = socket;
    return socket;
  }

  private stop(): void {
    this.watching?.release();
    this.watching = null;
  }
}

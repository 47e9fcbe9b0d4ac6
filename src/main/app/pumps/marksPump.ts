/**
 * marks: the venue WebSocket (activeAssetCtx per market, joined on venue_symbol, never on symbol), or
 * polling the info API when the profile has no WebSocket URL. Other parts of the session read the latest
 * marks (positions are priced with them) and listen for changes.
 */
import { joinMarkets, VenueSymbolIndex } from '../../venue/marketJoin.js';
import type { VenueSocketLease } from '../../venue/venueSocketPool.js';
import { Loop } from './loop.js';
import { streamThrottle, type Pump, type PumpHost } from './pump.js';

export class MarksPump implements Pump {
  private readonly marks = new Map<string, string>();
  private readonly throttle;
  private readonly listeners = new Set<(market: string, at: number) => void>();
  private loop: Loop | null = null;
  private socket: VenueSocketLease | null = null;
  private stopped = false;

  constructor(private readonly host: PumpHost) {
    this.throttle = streamThrottle<{ market: string; mark: string; at: number }>(host, (m) => m.market, (marks) => host.send('marks', { marks }));
  }

  latest(symbol: string): string | undefined {
    return this.marks.get(symbol);
  }

  /** Called with each market whose mark moved. */
  onChange(listener: (market: string, at: number) => void): void {
    this.listeners.add(listener);
  }

  async start(): Promise<void> {
    try {
      await this.poll();
    } catch (err) {
      this.host.logger.warn(`[pumps] reading venue marks failed: ${(err as Error).message}`);
    }
    this.startFeed();
  }

  kick(): void {
    this.loop?.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop?.stop();
    if (this.socket) await this.socket.release();
    this.socket = null;
    this.throttle.close();
  }

  private async poll(): Promise<void> {
    const { ctx } = this.host;
    const markets = await ctx.config.markets();
    const [meta, ctxs] = await ctx.venue.metaAndAssetCtxs();
    const join = joinMarkets(markets, meta, ctxs);
    const at = Date.now();
    for (const j of join.joined) if (j.ctx) this.apply(j.market.symbol, j.ctx.markPx, at);
  }

  private startFeed(): void {
    const { ctx, logger } = this.host;
    const url = ctx.profile.venueWsUrl;
    if (!url) {
      this.loop = new Loop(
        'mark polling',
        async () => {
          await this.poll();
          return this.host.timings.marksPollMs;
        },
        logger,
      );
      this.loop.kick(this.host.timings.marksPollMs);
      return;
    }
    // The session's shared venue socket (the book and the tape lease the same one).
    const socket = this.host.venueSockets.lease(url);
    this.socket = socket;
    void (async () => {
      try {
        const markets = await ctx.config.markets();
        const index = new VenueSymbolIndex(markets);
        // Venue events carry the venue's coin; they are routed back to markets on venue_symbol, never symbol.
        socket.on('activeAssetCtx', ({ coin, ctx: assetCtx }) => {
          const market = index.marketForCoin(coin);
          if (market) this.apply(market.symbol, assetCtx.markPx, Date.now());
        });
        for (const m of markets) if (m.is_active) socket.subscribe({ type: 'activeAssetCtx', coin: m.venue_symbol });
        await socket.connect();
      } catch (err) {
        if (!this.stopped) logger.warn(`[pumps] the venue feed could not start: ${(err as Error).message}`);
      }
    })();
  }

  private apply(symbol: string, mark: string, at: number): void {
    if (this.stopped || this.marks.get(symbol) === mark) return;
    this.marks.set(symbol, mark);
    this.throttle.push({ market: symbol, mark, at });
    for (const l of this.listeners) l(symbol, at);
  }
}

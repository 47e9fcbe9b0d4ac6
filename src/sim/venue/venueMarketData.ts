/**
 * The simulated venue's market data: one mark price per asset moved by a seeded random walk on the
 * SimClock, a synthetic order book around it, candles, trades, funding and open interest.
 *
 * The order engine reads marks and books from here and reports its fills back with recordTrade;
 * the info route module (infoRoutes.ts) and the WebSocket hub (venueWebSocket.ts) publish the same
 * state in the venue's wire shape (venueTypes.ts). The model builds neither: the server does, each
 * reading the model as a VenueMarketSource.
 */
import Decimal from 'decimal.js';
import { z } from 'zod';
import type { ScheduledTask, SimClock } from '../runtime/clock.js';
import { SeededRandom } from '../runtime/random.js';
import { BarSeries, DAY_MS, MINUTE_MS, type BarSeriesState, type BarTuple, type Candle, type CandleInterval } from './candles.js';
import type { InfoRequest } from './infoRequest.js';
import {
  DECIMAL_PATTERN,
  aggregateLevels,
  buildBook,
  fmt,
  impactPrice,
  midPrice,
  premium,
  roundSize,
  toMark,
  walkStep,
  type Book,
  type BookLevel,
  type BookParams,
} from './priceWalk.js';
import { tradeOf, walkTradeSide } from './walkTrades.js';
import { MAX_STORM_FACTOR } from './stormFactor.js';
import { SnapshotError } from '../state/snapshotError.js';
import { assetConfigSchema, type ValidVenueSnapshot, type VenueMarketDataSnapshot } from './venueSchemas.js';
import type {
  MarkListener,
  PauseReason,
  PrintListener,
  TradeSide,
  VenueAssetConfig,
  VenueAssetCtx,
  VenueFeedEvent,
  VenueFundingEntry,
  VenueL2Book,
  VenueL2Level,
  VenueMarginTable,
  VenueMarketSource,
  VenueMeta,
  VenuePredictedFundings,
  VenueTrade,
  UpstreamUpdate,
} from './venueTypes.js';

export interface VenueMarketDataOptions {
  assets: VenueAssetConfig[];
  clock: SimClock;
  random: SeededRandom;
  /** Time between walk steps; default 1000 ms. */
  tickIntervalMs?: number;
  /**
   * The snapshot (a state file's, validated) that restore() is given next: the markets it holds start
   * from one flat bar instead of a backfill nobody reads. At the venue's scale the backfill took a second
   * and 50 MB of a restart.
   */
  restoring?: ValidVenueSnapshot;
}

/**
 * The live state of a market that follows an upstream venue (follow/venueFollower.ts): its context,
 * mid and book as the upstream last sent them. The walk leaves such a market alone.
 */
interface FollowedQuote {
  ctx: VenueAssetCtx | null;
  mid: Decimal | null;
  /** The upstream book snapshot (its time identifies it) and what our fills took from it. */
  book: { time: number; bids: BookLevel[]; asks: BookLevel[] } | null;
  /** Size our taker fills consumed per level of this snapshot ('B:px' for asks bought, 'A:px' for bids sold). */
  consumed: Map<string, Decimal>;
  /** How far from the mark a book level may be and still be taken (the follower's plausibility band). */
  band: Decimal;
  /** Set while the follower holds or rejected this market's data: it is paused like an outage. */
  frozen: boolean;
}

const HOUR_MS = 60 * 60 * 1000;
/** Quote notional the impact prices are computed for. */
const IMPACT_NOTIONAL = new Decimal(10_000);
/** The venue's fixed interest component of hourly funding (0.01% per 8h). */
const HOURLY_INTEREST = new Decimal('0.0000125');
/** Trades kept per asset for the trades channel's first message. */
const RECENT_TRADES = 50;
/** The venue answers at most this many levels per side and funding entries per request. */
const MAX_L2_LEVELS = 20;
const MAX_FUNDING_ENTRIES = 500;
/** The venue's collateral token (USDC, spot token 0). */
const COLLATERAL_TOKEN = 0;
/**
 * The venue numbers a single-tier table by its leverage (ids below 50) and tiered tables from 51 up;
 * the simulator follows the same convention.
 */
const FIRST_TIERED_TABLE_ID = 51;
/** How this venue is named in predictedFundings. */
const PREDICTED_FUNDING_VENUE = 'HlPerp';
/** In a storm, per walking market and tick: the chance of a burst of trades, and of a liquidation cascade. */
const BURST_CHANCE = 0.02;
const LIQUIDATION_CHANCE = 0.002;


interface AssetState {
  readonly config: VenueAssetConfig;
  readonly tick: Decimal;
  readonly book: BookParams;
  /** Unrounded walk price; the mark is this rounded to the tick. */
  fair: Decimal;
  mark: Decimal;
  openInterest: Decimal;
  /** [effective from, hourly rate], oldest first; the first entry applies to all earlier times. */
  fundingRates: [number, Decimal][];
  bars: BarSeries;
  trades: VenueTrade[];
  /** Set while the market follows an upstream venue instead of walking. */
  followed: FollowedQuote | null;
}

export class VenueMarketData implements VenueMarketSource {
  readonly tickIntervalMs: number;
  private readonly clock: SimClock;
  /**
   * The walk's own generator, forked from the one passed in: its state belongs to this module alone,
   * so snapshot/restore of prices cannot rewind draws other simulator parts made from a shared one.
   */
  private readonly walkRandom: SeededRandom;
  private readonly assets = new Map<string, AssetState>();
  /** Assets in venueAssetIndex order, which is also the universe order. */
  private readonly ordered: AssetState[] = [];
  private readonly markListeners: MarkListener[] = [];
  private readonly feedListeners: ((event: VenueFeedEvent) => void)[] = [];
  private readonly printListeners: PrintListener[] = [];
  /** True while the upstream of the followed markets is unreachable: their marks are frozen. */
  private upstreamDown = false;
  /** Answers info requests about followed markets that only the upstream can (candles, funding history). */
  private infoProxy: ((request: InfoRequest) => Promise<unknown> | null) | null = null;
  private tickTask: ScheduledTask | null = null;
  private nextTid: number;
  private stopped = false;
  /** meta's margin tables and each asset's table id, fixed by the configuration. */
  private readonly marginTables: [number, VenueMarginTable][];
  private readonly marginTableIds = new Map<string, number>();
  /**
   * Storm mode (issue 29): ticks `stormFactor` times as often (so marks, books and the walk's trades
   * come that much faster) with bursts of trades and liquidation cascades drawn from their own stream,
   * so a calm run's prices are the same whether or not a storm was ever possible.
   */
  private stormFactor = 1;
  private readonly stormRandom: SeededRandom;
  private readonly stormCounts = { ticks: 0, marks: 0, trades: 0, bursts: 0, liquidations: 0 };

  constructor(options: VenueMarketDataOptions) {
    this.clock = options.clock;
    this.tickIntervalMs = options.tickIntervalMs ?? 1000;
    if (!Number.isInteger(this.tickIntervalMs) || this.tickIntervalMs <= 0) {
      throw new RangeError('tickIntervalMs must be a positive integer');
    }
    const walkSeed = options.random.int(0, 0xffffffff);
    this.walkRandom = new SeededRandom(walkSeed);
    // Derived from the walk's seed without a draw: adding the storm stream changed no calm run's prices.
    this.stormRandom = new SeededRandom((walkSeed ^ 0x9e3779b9) >>> 0);
    const configs = options.assets.map((asset, i) => {
      const parsed = assetConfigSchema.safeParse(asset);
      if (!parsed.success) throw new Error(`venue asset ${i} (${String(asset.venueSymbol)}): ${z.prettifyError(parsed.error)}`);
      return parsed.data;
    });
    configs.sort((a, b) => a.venueAssetIndex - b.venueAssetIndex);
    // The venue addresses assets by their position in the universe, so indexes must be exactly 0..n-1.
    configs.forEach((config, position) => {
      if (config.venueAssetIndex !== position) {
        throw new Error(`venue asset indexes must be contiguous from 0: expected ${position}, got ${config.venueAssetIndex} (${config.venueSymbol})`);
      }
    });
    const now = this.clock.now();
    const restoring = new Set(options.restoring?.assets.map((saved) => saved.venueSymbol));
    // Trade ids continue from the start time so a restarted wall-clock simulator does not reuse them.
    this.nextTid = now;
    for (const config of configs) {
      if (this.assets.has(config.venueSymbol)) throw new Error(`duplicate venue symbol ${config.venueSymbol}`);
      const tick = new Decimal(config.tickSize);
      const depthPerLevel = new Decimal(config.depthPerLevel);
      if (roundSize(depthPerLevel, config.szDecimals).isZero()) {
        throw new Error(`${config.venueSymbol}: depthPerLevel ${config.depthPerLevel} rounds to zero at szDecimals ${config.szDecimals}`);
      }
      const fair = new Decimal(config.initialMark);
      const state: AssetState = {
        config,
        tick,
        book: { tick, spreadBps: config.spreadBps, depthPerLevel, levels: config.levels },
        fair,
        mark: toMark(fair, tick),
        // A plausible resting open interest until the order engine reports its own.
        openInterest: roundSize(depthPerLevel.mul(config.levels).mul(10), config.szDecimals),
        fundingRates: [[now, new Decimal(config.fundingRate)]],
        bars: restoring.has(config.venueSymbol)
          ? freshBars(now, toMark(fair, tick))
          : BarSeries.backfill({
              now,
              price: fair,
              tick,
              tickText: config.tickSize,
              volatilityBps: config.volatilityBps,
              tickIntervalMs: this.tickIntervalMs,
              depthPerLevel,
              szDecimals: config.szDecimals,
              random: this.walkRandom,
            }),
        trades: [],
        followed: null,
      };
      this.assets.set(config.venueSymbol, state);
      this.ordered.push(state);
    }
    const tables = marginTablesOf(configs);
    this.marginTables = tables.tables;
    for (const [symbol, id] of tables.ids) this.marginTableIds.set(symbol, id);
    this.scheduleTick(now + this.tickIntervalMs);
  }

  // ---- prices -------------------------------------------------------------------------------

  getMark(venueSymbol: string): string {
    return fmt(this.asset(venueSymbol).mark);
  }

  /** Sets the mark directly (tests and chaos scenarios); listeners and subscribers see it like a tick. */
  setMark(venueSymbol: string, price: string): void {
    const state = this.asset(venueSymbol);
    refuseFollowed(state, 'its mark cannot be set');
    const fair = parsePositive(price, 'price');
    const now = this.clock.now();
    state.fair = fair;
    state.mark = toMark(fair, state.tick);
    state.bars.apply(now, state.mark, new Decimal(0), new Decimal(0), 0);
    this.emitMarks([state], now);
  }

  /** Called with every new mark (each tick for every asset, and each setMark). Returns an unsubscribe. */
  onMark(listener: MarkListener): () => void {
    return addListener(this.markListeners, listener);
  }

  /** Every change the WebSocket channels publish. Returns an unsubscribe. */
  onFeed(listener: (event: VenueFeedEvent) => void): () => void {
    return addListener(this.feedListeners, listener);
  }

  getBook(venueSymbol: string): Book {
    const state = this.asset(venueSymbol);
    if (state.followed) return followedBook(state.followed, state.mark, state.tick);
    return buildBook(state.mark, state.book, state.config.szDecimals);
  }

  // ---- following an upstream venue (follow/venueFollower.ts) ---------------------------------

  /**
   * The market stops walking and takes its data from the upstream from now on. Its candle history
   * starts afresh at the current mark: the walk's past is not the upstream's, and the upstream's own
   * candles are served through the info proxy.
   */
  follow(venueSymbol: string, band: string): void {
    const state = this.asset(venueSymbol);
    if (state.followed) return;
    state.followed = { ctx: null, mid: null, book: null, consumed: new Map(), band: parsePositive(band, 'band'), frozen: false };
    state.bars = freshBars(this.clock.now(), state.mark);
    state.trades = [];
  }

  isFollowed(venueSymbol: string): boolean {
    return this.asset(venueSymbol).followed !== null;
  }

  /**
   * A followed market whose upstream is unreachable, or whose upstream data is held or was rejected:
   * nothing moves, triggers, liquidations, funding and new orders wait.
   */
  isPaused(venueSymbol: string): boolean {
    return this.pauseReason(venueSymbol) !== null;
  }

  pauseReason(venueSymbol: string): PauseReason | null {
    const followed = this.asset(venueSymbol).followed;
    if (!followed) return null;
    if (this.upstreamDown) return 'venue_unreachable';
    return followed.frozen ? 'market_data_frozen' : null;
  }

  /** The follower holds (or rejected) this market's upstream data: it pauses until that is settled. */
  setFrozen(venueSymbol: string, frozen: boolean): void {
    const followed = this.asset(venueSymbol).followed;
    if (!followed) throw new Error(`${venueSymbol} does not follow the upstream`);
    followed.frozen = frozen;
  }

  /** The market's tick size (a followed price below one tick is not on this market's scale). */
  tickSize(venueSymbol: string): string {
    return fmt(this.asset(venueSymbol).tick);
  }

  /** The follower reports the upstream's reachability; marks of followed markets freeze while it is down. */
  setUpstreamDown(down: boolean): void {
    this.upstreamDown = down;
  }

  setInfoProxy(proxy: ((request: InfoRequest) => Promise<unknown> | null) | null): void {
    this.infoProxy = proxy;
  }

  /** The upstream's answer to an info request about a followed market, or null to answer it locally. */
  proxyInfo(request: InfoRequest): Promise<unknown> | null {
    return this.infoProxy ? this.infoProxy(request) : null;
  }

  /** Called for every trade printed upstream on a followed market. Returns an unsubscribe. */
  onPrint(listener: PrintListener): () => void {
    return addListener(this.printListeners, listener);
  }

  /**
   * Applies what the upstream sent about a followed market. A new context moves the mark (and so
   * triggers, resting limits and liquidations, through the mark listeners); a new book snapshot resets
   * what our fills consumed; upstream trades feed the tape, the candles and the print listeners.
   */
  applyUpstream(venueSymbol: string, update: UpstreamUpdate): void {
    const state = this.asset(venueSymbol);
    const followed = state.followed;
    if (!followed) throw new Error(`${venueSymbol} does not follow the upstream`);
    const now = this.clock.now();
    const errors: unknown[] = [];
    // Everything is parsed before anything changes: a bad part leaves the market as it was (issue 26:
    // a context whose markPx failed was published while the mark stayed).
    const mid = update.mid !== undefined ? parsePositive(update.mid, 'mid') : null;
    const mark = update.ctx ? parsePositive(update.ctx.markPx, 'markPx') : null;
    if (update.ctx?.midPx != null) parsePositive(update.ctx.midPx, 'midPx');
    const openInterest = update.ctx ? parseNonNegative(update.ctx.openInterest, 'openInterest') : null;
    const trades = (update.trades ?? []).map((upstream) => ({ upstream, px: parsePositive(upstream.px, 'px'), sz: parsePositive(upstream.sz, 'sz') }));
    for (const level of [...(update.book?.bids ?? []), ...(update.book?.asks ?? [])]) {
      parsePositive(level.px, 'px');
      parsePositive(level.sz, 'sz');
    }
    if (update.book) {
      if (followed.book?.time !== update.book.time) followed.consumed.clear();
      followed.book = update.book;
    }
    if (mid) followed.mid = mid;
    for (const { upstream, px, sz } of trades) {
      state.bars.apply(now, px, sz, px.mul(sz), 1);
      const trade = this.keepTrade(state, { coin: venueSymbol, ...upstream, px: fmt(px), sz: fmt(sz) });
      try {
        this.emitFeed({ kind: 'trade', trade });
      } catch (err) {
        errors.push(err);
      }
      for (const listener of [...this.printListeners]) {
        try {
          listener(venueSymbol, trade.px, now);
        } catch (err) {
          errors.push(err);
        }
      }
    }
    if (update.ctx && mark && openInterest) {
      followed.ctx = update.ctx;
      state.mark = mark;
      state.fair = state.mark;
      state.openInterest = openInterest;
      state.bars.apply(now, state.mark, new Decimal(0), new Decimal(0), 0);
      try {
        this.emitMarks([state], now);
      } catch (err) {
        errors.push(err);
      }
    } else if (update.book || update.mid !== undefined) {
      // The book and mids channels follow marks events; a new book alone is still news for them.
      try {
        this.emitFeed({ kind: 'marks', symbols: [venueSymbol], time: now });
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} listeners failed on an upstream update of ${venueSymbol}`);
  }

  /**
   * Our taker fills took these chunks from the followed market's current book snapshot: they are not
   * there for the next fill of the same snapshot. A market that walks has a model book nothing depletes.
   */
  consumeLiquidity(venueSymbol: string, side: 'BUY' | 'SELL', chunks: readonly { px: string; sz: string }[]): void {
    const followed = this.asset(venueSymbol).followed;
    if (!followed?.book) return;
    for (const chunk of chunks) {
      const key = consumedKey(side === 'BUY' ? 'B' : 'A', chunk.px);
      followed.consumed.set(key, (followed.consumed.get(key) ?? new Decimal(0)).plus(chunk.sz));
    }
  }

  hasAsset(venueSymbol: string): boolean {
    return this.assets.has(venueSymbol);
  }

  symbols(): string[] {
    return this.ordered.map((state) => state.config.venueSymbol);
  }

  // ---- trades, funding, open interest ---------------------------------------------------------

  /** A simulator fill: feeds the trades channel, the 24h volume and the candles. Returns the trade as published. */
  recordTrade(venueSymbol: string, px: string, sz: string, side: TradeSide, time: number): VenueTrade {
    const state = this.asset(venueSymbol);
    const price = parsePositive(px, 'px');
    const size = parsePositive(sz, 'sz');
    if (side !== 'B' && side !== 'A') throw new Error(`side must be 'B' or 'A', got ${String(side)}`);
    if (!Number.isInteger(time)) throw new Error(`time must be an integer ms timestamp, got ${time}`);
    state.bars.apply(time, price, size, price.mul(size), 1);
    const trade = this.keepTrade(state, tradeOf(venueSymbol, price, size, side, time, this.nextTid++));
    this.emitFeed({ kind: 'trade', trade });
    return trade;
  }

  /** Keeps a trade among the recent ones (the trades channel's first message). */
  private keepTrade(state: AssetState, trade: VenueTrade): VenueTrade {
    state.trades.push(trade);
    if (state.trades.length > RECENT_TRADES) state.trades.splice(0, state.trades.length - RECENT_TRADES);
    return trade;
  }

  recentTrades(venueSymbol: string): VenueTrade[] {
    return [...this.asset(venueSymbol).trades];
  }

  /** Current hourly funding rate, a raw fraction. */
  fundingRate(venueSymbol: string): string {
    return fmt(this.rateAt(this.asset(venueSymbol), this.clock.now()));
  }

  /** Changes the hourly funding rate from now on; earlier hours keep the rate they had. */
  setFundingRate(venueSymbol: string, rate: string): void {
    const state = this.asset(venueSymbol);
    refuseFollowed(state, 'its funding rate comes from the upstream');
    if (!DECIMAL_PATTERN.test(rate)) throw new Error(`funding rate must be a decimal string, got ${rate}`);
    state.fundingRates.push([this.clock.now(), new Decimal(rate)]);
  }

  openInterest(venueSymbol: string): string {
    return fmt(this.asset(venueSymbol).openInterest);
  }

  setOpenInterest(venueSymbol: string, size: string): void {
    const state = this.asset(venueSymbol);
    if (!DECIMAL_PATTERN.test(size) || new Decimal(size).lt(0)) throw new Error(`open interest must be a non-negative decimal string, got ${size}`);
    state.openInterest = new Decimal(size);
  }

  // ---- venue views (wire shape) ---------------------------------------------------------------

  meta(): VenueMeta {
    return {
      universe: this.ordered.map(({ config }) => ({
        name: config.venueSymbol,
        szDecimals: config.szDecimals,
        maxLeverage: config.maxLeverage,
        marginTableId: this.marginTableIds.get(config.venueSymbol)!,
        ...(config.onlyIsolated ? { onlyIsolated: true as const } : {}),
      })),
      marginTables: this.marginTables.map(([id, table]) => [id, { description: table.description, marginTiers: table.marginTiers.map((tier) => ({ ...tier })) }]),
      collateralToken: COLLATERAL_TOKEN,
    };
  }

  /**
   * predictedFundings: every asset's rate for the coming hour as this venue predicts it (the current
   * rate; the simulator has no premium process to extrapolate), paid at the next full hour.
   */
  predictedFundings(): VenuePredictedFundings {
    const now = this.clock.now();
    const nextFundingTime = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
    return this.ordered.map((state) => [
      state.config.venueSymbol,
      [[PREDICTED_FUNDING_VENUE, { fundingRate: fmt(this.rateAt(state, now)), nextFundingTime, fundingIntervalHours: 1 }]],
    ]);
  }

  assetCtxs(): VenueAssetCtx[] {
    return this.ordered.map((state) => this.ctxOf(state));
  }

  assetCtx(venueSymbol: string): VenueAssetCtx {
    return this.ctxOf(this.asset(venueSymbol));
  }

  allMids(): Record<string, string> {
    const mids: Record<string, string> = {};
    for (const state of this.ordered) {
      const mid = this.midOf(state);
      if (mid) mids[state.config.venueSymbol] = fmt(mid);
    }
    return mids;
  }

  /** The book as l2Book sends it, at most 20 levels a side, optionally aggregated to nSigFigs (2..5). */
  l2Book(venueSymbol: string, nSigFigs: number | null = null, mantissa: number | null = null): VenueL2Book {
    const state = this.asset(venueSymbol);
    // A followed book is the upstream's as sent (its own time and counts), less what our fills took.
    const followedBook = state.followed?.book;
    const book = this.getBook(venueSymbol);
    if (followedBook) {
      const upstreamSide = (levels: BookLevel[], which: 'bid' | 'ask'): VenueL2Level[] =>
        nSigFigs === null ? levels.map((level) => ({ px: level.px, sz: level.sz, n: level.n ?? 1 })) : aggregateLevels(levels, which, nSigFigs, mantissa, (i) => levels[i]?.n ?? 1);
      return { coin: venueSymbol, time: followedBook.time, levels: [upstreamSide(book.bids, 'bid').slice(0, MAX_L2_LEVELS), upstreamSide(book.asks, 'ask').slice(0, MAX_L2_LEVELS)] };
    }
    // The book is synthetic; a small varying order count per level makes it look like a real one.
    const count = (index: number): number => 1 + (index % 3);
    const side = (levels: Book['bids'], which: 'bid' | 'ask'): VenueL2Level[] =>
      nSigFigs === null
        ? levels.map((level, index) => ({ px: level.px, sz: level.sz, n: count(index) }))
        : aggregateLevels(levels, which, nSigFigs, mantissa, count);
    return {
      coin: venueSymbol,
      time: this.clock.now(),
      levels: [side(book.bids, 'bid').slice(0, MAX_L2_LEVELS), side(book.asks, 'ask').slice(0, MAX_L2_LEVELS)],
    };
  }

  candles(venueSymbol: string, interval: CandleInterval, startTime: number, endTime: number): Candle[] {
    return this.asset(venueSymbol).bars.candles(venueSymbol, interval, startTime, endTime);
  }

  currentCandle(venueSymbol: string, interval: CandleInterval): Candle | null {
    return this.asset(venueSymbol).bars.currentCandle(venueSymbol, interval);
  }

  /** Hourly funding entries from startTime to endTime (default now), oldest first, at most 500. */
  fundingHistory(venueSymbol: string, startTime: number, endTime?: number): VenueFundingEntry[] {
    const state = this.asset(venueSymbol);
    const end = Math.min(endTime ?? Number.POSITIVE_INFINITY, this.clock.now());
    const out: VenueFundingEntry[] = [];
    for (let time = Math.ceil(startTime / HOUR_MS) * HOUR_MS; time <= end && out.length < MAX_FUNDING_ENTRIES; time += HOUR_MS) {
      const rate = this.rateAt(state, time);
      // The simulator has no separate premium process; it reports the rate's excess over the fixed
      // interest component so the two columns are at least consistent with each other.
      out.push({ coin: venueSymbol, fundingRate: fmt(rate), premium: fmt(rate.minus(HOURLY_INTEREST)), time });
    }
    return out;
  }

  // ---- persistence and lifecycle --------------------------------------------------------------

  snapshot(): VenueMarketDataSnapshot {
    return {
      version: 2,
      walkRandomState: this.walkRandom.seedState,
      nextTid: this.nextTid,
      nextTickAt: this.tickTask?.at ?? null,
      assets: this.ordered.map((state) => ({
        venueSymbol: state.config.venueSymbol,
        fair: fmt(state.fair),
        mark: fmt(state.mark),
        openInterest: fmt(state.openInterest),
        fundingRates: state.fundingRates.map(([time, rate]): [number, string] => [time, fmt(rate)]),
        bars: state.bars.toState(),
        trades: state.trades.map((trade) => ({ ...trade, users: [...trade.users] as [string, string] })),
      })),
    };
  }

  /**
   * Restores a snapshot taken by snapshot(), validated (parseVenueSnapshot). Assets the snapshot does
   * not know keep their fresh history (a market added since the state file was written); snapshot assets
   * no longer configured are ignored. The walk resumes at the saved next tick, or now if that already
   * passed. No mark events are emitted: subscribers see the restored prices with the next tick. A history
   * that does not decode or ends after the clock's time throws SnapshotError.
   */
  restore(data: ValidVenueSnapshot): void {
    // Parse everything before changing anything, so a bad snapshot leaves the current state intact.
    const restored = data.assets
      .filter((saved) => this.assets.has(saved.venueSymbol))
      .map((saved) => {
        const state = this.assets.get(saved.venueSymbol)!;
        return {
          state,
          fair: new Decimal(saved.fair),
          mark: new Decimal(saved.mark),
          openInterest: new Decimal(saved.openInterest),
          fundingRates: saved.fundingRates.map(([time, rate]): [number, Decimal] => [time, new Decimal(rate)]),
          // Saved compact (version 2), or as tuples (version 1): those on the market's grid come back compact too.
          bars: restoredBars(saved.venueSymbol, () =>
            Array.isArray(saved.bars) ? BarSeries.fromJSON(saved.bars as BarTuple[], { tick: state.config.tickSize, szDecimals: state.config.szDecimals }) : BarSeries.fromState(saved.bars as BarSeriesState),
          ),
          trades: saved.trades.map((trade) => ({ ...trade, users: [...trade.users] as [string, string] })),
        };
      });
    const now = this.clock.now();
    for (const item of restored) {
      // Prices recorded after the clock's present would sit in the future of every later tick.
      if (item.bars.lastStart > now) {
        throw new SnapshotError(`snapshot of ${item.state.config.venueSymbol} ends at ${item.bars.lastStart}, after the clock's time ${now}`);
      }
    }
    for (const item of restored) {
      Object.assign(item.state, {
        fair: item.fair,
        mark: item.mark,
        openInterest: item.openInterest,
        fundingRates: item.fundingRates,
        bars: item.bars,
        trades: item.trades,
      });
    }
    this.walkRandom.seedState = data.walkRandomState;
    this.nextTid = data.nextTid;
    if (!this.stopped) {
      this.scheduleTick(data.nextTickAt !== null && data.nextTickAt >= now ? data.nextTickAt : now + this.tickIntervalMs);
    }
  }

  // ---- storm (issue 29) -------------------------------------------------------------------------

  /**
   * Sets the storm factor: 1 is calm; N ticks N times as often, with bursts of trades and liquidation
   * cascades. Takes effect from the next tick, which is rescheduled at the new pace.
   */
  setStorm(factor: number): void {
    if (!Number.isInteger(factor) || factor < 1 || factor > MAX_STORM_FACTOR) {
      throw new RangeError(`storm factor must be an integer from 1 to ${MAX_STORM_FACTOR}, got ${String(factor)}`);
    }
    this.stormFactor = factor;
    if (!this.stopped) this.scheduleTick(this.clock.now() + this.currentTickMs());
  }

  /** The storm's factor, its tick and what it produced so far (ticks, mark updates, trades, bursts, cascades). */
  storm(): { factor: number; tickIntervalMs: number; ticks: number; marks: number; trades: number; bursts: number; liquidations: number } {
    return { factor: this.stormFactor, tickIntervalMs: this.currentTickMs(), ...this.stormCounts };
  }

  private currentTickMs(): number {
    return Math.max(1, Math.floor(this.tickIntervalMs / this.stormFactor));
  }

  /**
   * A storm's extra prints on one market after its walk step: sometimes a burst of same-side trades
   * around the mark, more rarely a liquidation cascade that pushes the price several standard
   * deviations and prints a run of large trades down (or up) the way. Returns the new trades.
   */
  private stormPrints(state: AssetState, now: number): VenueTrade[] {
    const out: VenueTrade[] = [];
    const { config } = state;
    const print = (px: Decimal, size: Decimal, side: TradeSide): void => {
      const sz = roundSize(size, config.szDecimals);
      if (sz.isZero()) return;
      state.bars.apply(now, px, sz, sz.mul(px), 1);
      out.push(this.keepTrade(state, tradeOf(config.venueSymbol, px, sz, side, now, this.nextTid++)));
    };
    const random = this.stormRandom;
    if (random.next() < LIQUIDATION_CHANCE) {
      this.stormCounts.liquidations++;
      const down = random.next() < 0.5;
      const sigmas = 4 + random.next() * 6;
      const from = state.mark;
      for (let k = 0; k < 1 + Math.floor(sigmas); k++) state.fair = walkStep(state.fair, down ? -1 : 1, config.volatilityBps, state.tick);
      state.mark = toMark(state.fair, state.tick);
      const steps = 3 + Math.floor(random.next() * 6);
      for (let k = 1; k <= steps; k++) {
        const px = toMark(from.plus(state.mark.minus(from).mul(k).div(steps)), state.tick);
        print(px, state.book.depthPerLevel.mul(1 + random.next() * 2), down ? 'A' : 'B');
      }
    } else if (random.next() < BURST_CHANCE) {
      this.stormCounts.bursts++;
      const side: TradeSide = random.next() < 0.5 ? 'A' : 'B';
      const count = 2 + Math.floor(random.next() * 7);
      for (let k = 0; k < count; k++) print(state.mark, state.book.depthPerLevel.mul(random.next()).div(4), side);
    }
    return out;
  }

  /** Stops the walk. The WebSocket hub's sockets stay open; the server closes them (VenueWebSocketHub.close). */
  stop(): void {
    this.stopped = true;
    this.tickTask?.cancel();
    this.tickTask = null;
  }

  // ---- internals ------------------------------------------------------------------------------

  private asset(venueSymbol: string): AssetState {
    const state = this.assets.get(venueSymbol);
    if (!state) throw new Error(`unknown venue symbol ${venueSymbol}`);
    return state;
  }

  private scheduleTick(at: number): void {
    this.tickTask?.cancel();
    this.tickTask = this.clock.scheduleAt(at, () => this.tick(at));
  }

  private tick(due: number): void {
    // Re-arm before moving prices so a throwing listener cannot stop the walk.
    const now = this.clock.now();
    const interval = this.currentTickMs();
    const next = due + interval;
    // A wall clock that fell behind (a suspended laptop) resumes from now instead of replaying every missed tick.
    this.scheduleTick(next > now ? next : now + interval);
    const storming = this.stormFactor > 1;
    const walkTrades: VenueTrade[] = [];
    for (const state of this.ordered) {
      // A followed market moves with its upstream only (and stays frozen while the upstream is away).
      if (state.followed) continue;
      const { config } = state;
      const before = state.mark;
      state.fair = walkStep(state.fair, this.walkRandom.normal(), config.volatilityBps, state.tick);
      state.mark = toMark(state.fair, state.tick);
      // Background volume of other traders, a quarter of a book level per tick on average.
      const volume = roundSize(state.book.depthPerLevel.mul(this.walkRandom.next()).div(2), config.szDecimals);
      state.bars.apply(now, state.mark, volume, volume.mul(state.mark), volume.isZero() ? 0 : 1);
      // That volume is also the tape's: one trade at the new mark (walkTrades.ts).
      if (!volume.isZero()) walkTrades.push(this.keepTrade(state, tradeOf(config.venueSymbol, state.mark, volume, walkTradeSide(before, state.mark, this.nextTid), now, this.nextTid++)));
      if (storming) walkTrades.push(...this.stormPrints(state, now));
    }
    const walking = this.ordered.filter((state) => !state.followed);
    if (storming) {
      this.stormCounts.ticks++;
      this.stormCounts.marks += walking.length;
      this.stormCounts.trades += walkTrades.length;
    }
    if (walking.length > 0) this.emitMarks(walking, now);
    for (const trade of walkTrades) this.emitFeed({ kind: 'trade', trade, fromWalk: true });
  }

  private emitMarks(states: readonly AssetState[], time: number): void {
    const errors: unknown[] = [];
    for (const listener of [...this.markListeners]) {
      for (const state of states) {
        try {
          listener(state.config.venueSymbol, fmt(state.mark), time);
        } catch (err) {
          errors.push(err);
        }
      }
    }
    this.emitFeed({ kind: 'marks', symbols: states.map((state) => state.config.venueSymbol), time }, errors);
  }

  /**
   * Every listener runs even if an earlier one throws (one broken subscriber must not starve the
   * rest); the errors are then rethrown to the caller, so none is lost.
   */
  private emitFeed(event: VenueFeedEvent, errors: unknown[] = []): void {
    for (const listener of [...this.feedListeners]) {
      try {
        listener(event);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} venue market data listeners failed`);
  }

  private midOf(state: AssetState): Decimal | null {
    // A followed market's mid is the upstream's (null while its book is empty, as on the venue).
    if (state.followed) return state.followed.mid ?? (state.followed.ctx?.midPx ? new Decimal(state.followed.ctx.midPx) : null);
    // buildBook always has a best ask and, since the mark is at least one tick, a best bid.
    return midPrice(buildBook(state.mark, { ...state.book, levels: 1 }, state.config.szDecimals)) ?? state.mark;
  }

  private rateAt(state: AssetState, time: number): Decimal {
    // A followed market pays the upstream's current hourly rate (its history is the upstream's, proxied).
    if (state.followed?.ctx) return new Decimal(state.followed.ctx.funding);
    let rate = state.fundingRates[0]![1];
    for (const [from, value] of state.fundingRates) if (from <= time) rate = value;
    return rate;
  }

  private ctxOf(state: AssetState): VenueAssetCtx {
    // A followed market's context is the upstream's as last sent; the mark listeners saw the same markPx.
    if (state.followed?.ctx) return { ...state.followed.ctx, ...(state.followed.mid ? { midPx: fmt(state.followed.mid) } : {}) };
    const now = this.clock.now();
    const book = buildBook(state.mark, state.book, state.config.szDecimals);
    const oracle = state.mark;
    const impactBid = impactPrice(book.bids, IMPACT_NOTIONAL) ?? oracle;
    const impactAsk = impactPrice(book.asks, IMPACT_NOTIONAL) ?? oracle;
    const tick = state.tick;
    const day = state.bars.volumeSince(now - DAY_MS);
    return {
      funding: fmt(this.rateAt(state, now)),
      openInterest: fmt(state.openInterest),
      prevDayPx: fmt(state.bars.priceAt(now - DAY_MS)),
      dayNtlVlm: fmt(day.notional),
      premium: fmt(premium(impactBid, impactAsk, oracle).toDecimalPlaces(8)),
      oraclePx: fmt(oracle),
      markPx: fmt(state.mark),
      midPx: fmt(midPrice(book) ?? state.mark),
      // Impact prices are averages; the venue quotes them on the tick grid, the bid side rounded down.
      impactPxs: [fmt(toMark(impactBid, tick, Decimal.ROUND_FLOOR)), fmt(toMark(impactAsk, tick, Decimal.ROUND_CEIL))],
      dayBaseVlm: fmt(day.base),
    };
  }
}

/**
 * The margin tables meta lists and each asset's table id. An asset without tiers gets the single-tier
 * table named by its leverage; tiered assets share a table when their tiers are equal. Tiers are
 * checked here because a client sizes positions by them: they start at 0 with the asset's maximum
 * leverage, and each later tier starts higher with a lower leverage.
 */
function marginTablesOf(configs: readonly VenueAssetConfig[]): { tables: [number, VenueMarginTable][]; ids: Map<string, number> } {
  const byKey = new Map<string, number>();
  const tables = new Map<number, VenueMarginTable>();
  const ids = new Map<string, number>();
  let nextTiered = FIRST_TIERED_TABLE_ID;
  const singleTierId = (leverage: number): number => (leverage < FIRST_TIERED_TABLE_ID ? leverage : nextTiered++);
  for (const config of configs) {
    const tiers = config.marginTiers ?? [{ lowerBound: '0', maxLeverage: config.maxLeverage }];
    tiers.forEach((tier, i) => {
      const bound = new Decimal(tier.lowerBound);
      if (i === 0 && (!bound.isZero() || tier.maxLeverage !== config.maxLeverage)) {
        throw new Error(`${config.venueSymbol}: the first margin tier must start at 0 with maxLeverage ${config.maxLeverage}`);
      }
      const previous = tiers[i - 1];
      if (previous && (!bound.gt(previous.lowerBound) || tier.maxLeverage >= previous.maxLeverage)) {
        throw new Error(`${config.venueSymbol}: margin tier ${i} must start above tier ${i - 1} with a lower leverage`);
      }
    });
    const table: VenueMarginTable = {
      description: tiers.length === 1 ? '' : `tiered ${config.maxLeverage}x`,
      marginTiers: tiers.map((tier) => ({ lowerBound: new Decimal(tier.lowerBound).toFixed(1), maxLeverage: tier.maxLeverage })),
    };
    const key = JSON.stringify(table.marginTiers);
    let id = byKey.get(key);
    if (id === undefined) {
      id = tiers.length === 1 ? singleTierId(config.maxLeverage) : nextTiered++;
      byKey.set(key, id);
      tables.set(id, table);
    }
    ids.set(config.venueSymbol, id);
  }
  return { tables: [...tables].sort(([a], [b]) => a - b), ids };
}

function addListener<T>(list: T[], listener: T): () => void {
  list.push(listener);
  return () => {
    const index = list.indexOf(listener);
    if (index >= 0) list.splice(index, 1);
  };
}

function refuseFollowed(state: AssetState, what: string): void {
  if (state.followed) throw new Error(`${state.config.venueSymbol} follows the upstream venue: ${what}`);
}

function consumedKey(takerSide: TradeSide, px: string): string {
  return `${takerSide}:${new Decimal(px).toFixed()}`;
}

/**
 * The followed market's upstream book less what our fills took from this snapshot (emptied levels go).
 * Only levels within the plausibility band of the mark (and at least one tick) are there: whatever got
 * past the follower, an order never fills at a price far from the mark (issue 26).
 */
function followedBook(followed: FollowedQuote, mark: Decimal, tick: Decimal): Book {
  if (!followed.book) return { bids: [], asks: [] };
  const low = mark.mul(new Decimal(1).minus(followed.band));
  const high = mark.mul(new Decimal(1).plus(followed.band));
  const side = (levels: readonly BookLevel[], takerSide: TradeSide): BookLevel[] => {
    const out: BookLevel[] = [];
    for (const level of levels) {
      const px = new Decimal(level.px);
      if (px.lt(tick) || px.lt(low) || px.gt(high) || !new Decimal(level.sz).gt(0)) continue;
      const taken = followed.consumed.get(consumedKey(takerSide, level.px));
      const left = taken ? new Decimal(level.sz).minus(taken) : null;
      if (left === null) out.push(level);
      else if (left.gt(0)) out.push({ ...level, sz: fmt(left) });
    }
    return out;
  };
  const bids = side(followed.book.bids, 'A');
  const asks = side(followed.book.asks, 'B');
  // A crossed book is no book to trade on (the follower refuses one; this is the last line).
  if (bids[0] && asks[0] && new Decimal(bids[0].px).gte(asks[0].px)) return { bids: [], asks: [] };
  return { bids, asks };
}

/** One flat bar at the price: the start of a followed market's own candles. */
function freshBars(now: number, price: Decimal): BarSeries {
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const p = fmt(price);
  return BarSeries.fromJSON([[minute, MINUTE_MS, p, p, p, p, '0', '0', 0]]);
}

function parseNonNegative(value: string, name: string): Decimal {
  if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value) || new Decimal(value).lt(0)) {
    throw new Error(`${name} must be a non-negative decimal string, got ${String(value).slice(0, 40)}`);
  }
  return new Decimal(value);
}

function parsePositive(value: string, name: string): Decimal {
  if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value) || !new Decimal(value).gt(0)) {
    throw new Error(`${name} must be a positive decimal string, got ${String(value).slice(0, 40)}`);
  }
  return new Decimal(value);
}

/** A market's saved history (compact, or a version 1 file's tuples), decoded and checked whole; what is wrong names the market. */
function restoredBars(symbol: string, decode: () => BarSeries): BarSeries {
  try {
    return decode();
  } catch (err) {
    throw new SnapshotError(`invalid venue market data snapshot: ${symbol}: ${(err as Error).message}`);
  }
}

/**
 * The simulated service: builds the context, registers every job kind, follows the venue's marks and
 * exposes the trading API module plus snapshot/restore of the whole engine state.
 */
import type { RouteModule } from './runtime/http.js';
import type { SimClock } from './runtime/clock.js';
import { SeededRandom } from './runtime/random.js';
import { chainIdsOf, type ChaosSettings, type SimConfig } from './config/schema.js';
import { MarketTable } from './config/markets.js';
import { EngineEvents } from './core/engineEvents.js';
import { JobQueue, type JobRecord } from './core/jobs.js';
import { SimStore, type StoreHead, type StoreRecord } from './state/store.js';
import type { ValidEngineHead } from './state/stateSchemas.js';
import type { JobPayloads, SimContext, VenuePort } from './context.js';
import { createTradingApi } from './api.js';
import { registerOrderJobs } from './orders/progress.js';
import { registerCancelJobs } from './orders/cancel.js';
import { registerModifyJobs } from './orders/modify.js';
import { registerBracketJobs } from './orders/brackets.js';
import { onMarkUpdate, onUpstreamPrint, registerTriggerListeners } from './orders/triggers.js';
import { registerPositionJobs } from './positions/positions.js';
import { registerDepositJobs } from './money/deposits.js';
import { registerWithdrawalJobs } from './money/withdrawals.js';
import { registerMarginJobs } from './money/margin.js';
import { registerFundingJobs, startFunding } from './funding/funding.js';

/** The engine's state but the store's per-order records (SimStore.records), which are saved a line each. */
export interface EngineHead {
  store: StoreHead;
  jobs: { nextId: number; jobs: JobRecord[] };
  chaos: ChaosSettings;
  random: number;
}

export interface SimEngineOptions {
  config: SimConfig;
  clock: SimClock;
  venue: VenuePort;
  /** Seed of the engine's own random stream (hashes). */
  seed: number;
}

export class SimEngine {
  readonly ctx: SimContext;
  readonly api: RouteModule;
  private readonly unsubscribe: () => void;
  private readonly unsubscribePrints: () => void;

  constructor(options: SimEngineOptions) {
    const { config, clock, venue } = options;
    const chainIds = chainIdsOf(config);
    this.ctx = {
      config,
      env: { environment: config.environment, tradingChainId: chainIds.trading, arbitrumChainId: chainIds.arbitrum },
      timings: config.timings,
      clock,
      markets: new MarketTable(config),
      venue,
      jobs: new JobQueue<JobPayloads>(clock),
      events: new EngineEvents(),
      random: new SeededRandom(options.seed),
      store: new SimStore(config.retention),
      chaos: { ...config.chaos },
    };
    const ctx = this.ctx;
    registerOrderJobs(ctx);
    registerCancelJobs(ctx);
    registerModifyJobs(ctx);
    registerBracketJobs(ctx);
    registerTriggerListeners(ctx);
    registerPositionJobs(ctx);
    registerDepositJobs(ctx);
    registerWithdrawalJobs(ctx);
    registerMarginJobs(ctx);
    registerFundingJobs(ctx);
    startFunding(ctx);
    this.api = createTradingApi(ctx);
    this.unsubscribe = venue.onMark((venueSymbol, mark) => {
      const market = ctx.markets.byVenue(venueSymbol);
      if (!market) return;
      try {
        onMarkUpdate(ctx, market.symbol, mark);
      } catch (err) {
        // Never let an engine bug break the venue's walk; it is recorded like a failed job.
        ctx.jobs.report('mark update', { market: market.symbol, mark }, err);
      }
    });
    this.unsubscribePrints = venue.onPrint((venueSymbol, px) => {
      const market = ctx.markets.byVenue(venueSymbol);
      if (!market) return;
      try {
        onUpstreamPrint(ctx, market.symbol, px);
      } catch (err) {
        ctx.jobs.report('upstream print', { market: market.symbol, px }, err);
      }
    });
  }

  /** Everything but the store's records (see records()). */
  head(): EngineHead {
    return {
      store: this.ctx.store.head(),
      jobs: this.ctx.jobs.snapshot(),
      chaos: { ...this.ctx.chaos },
      random: this.ctx.random.seedState,
    };
  }

  /** The store's per-order records, one at a time (orders, history rows, fills, ...). */
  records(): Iterable<StoreRecord> {
    return this.ctx.store.records();
  }

  /**
   * Replaces the state and the schedule with saved ones. The head comes from a state file validated
   * whole (parseEngineHead); the records are read from it as they come, each validated before it is
   * used, and nothing is replaced until the last was: a refused record (SnapshotError) leaves the engine
   * as it was. Nothing here is shared with the caller's objects but what the store keeps.
   */
  restore(head: ValidEngineHead, records: Iterable<readonly unknown[]>): void {
    this.ctx.store = SimStore.load(head.store, records, this.ctx.config.retention);
    this.ctx.chaos = { ...this.ctx.config.chaos, ...head.chaos };
    this.ctx.random.seedState = head.random;
    this.ctx.jobs.restore(head.jobs);
  }

  stop(): void {
    this.unsubscribe();
    this.unsubscribePrints();
    this.ctx.jobs.clear();
  }
}

/**
 * The simulated service: builds the context, registers every job kind, follows the venue's marks and
 * exposes the trading API module plus snapshot/restore of the whole engine state.
 */
import type { RouteModule } from './runtime/http.js';
import type { SimClock } from './runtime/clock.js';
import { SeededRandom } from './runtime/random.js';
import { chainIdsOf, type ChaosSettings, type SimConfig } from './config/schema.js';
import { MarketTable } from './config/markets.js';
import { JobQueue, type JobRecord } from './core/jobs.js';
import { SimStore, type StoreSnapshot } from './state/store.js';
import type { JobPayloads, SimContext, VenuePort } from './context.js';
import { createTradingApi } from './api.js';
import { registerOrderJobs } from './orders/progress.js';
import { registerCancelJobs } from './orders/cancel.js';
import { registerModifyJobs } from './orders/modify.js';
import { registerBracketJobs } from './orders/brackets.js';
import { onMarkUpdate } from './orders/triggers.js';
import { registerPositionJobs } from './positions/positions.js';
import { registerDepositJobs } from './money/deposits.js';
import { registerWithdrawalJobs } from './money/withdrawals.js';
import { registerMarginJobs } from './money/margin.js';
import { registerFundingJobs, startFunding } from './funding/funding.js';

export interface EngineSnapshot {
  store: StoreSnapshot;
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
      random: new SeededRandom(options.seed),
      store: new SimStore(),
      chaos: { ...config.chaos },
    };
    const ctx = this.ctx;
    registerOrderJobs(ctx);
    registerCancelJobs(ctx);
    registerModifyJobs(ctx);
    registerBracketJobs(ctx);
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
  }

  snapshot(): EngineSnapshot {
    return {
      store: this.ctx.store.toJSON(),
      jobs: this.ctx.jobs.snapshot(),
      chaos: { ...this.ctx.chaos },
      random: this.ctx.random.seedState,
    };
  }

  /** Replaces the state and the schedule with a snapshot's (a deep copy, so the snapshot stays usable). */
  restore(snapshot: EngineSnapshot): void {
    const copy = JSON.parse(JSON.stringify(snapshot)) as EngineSnapshot;
    this.ctx.store = SimStore.fromJSON(copy.store);
    this.ctx.chaos = { ...this.ctx.config.chaos, ...copy.chaos };
    this.ctx.random.seedState = copy.random;
    this.ctx.jobs.restore(copy.jobs);
  }

  stop(): void {
    this.unsubscribe();
    this.ctx.jobs.clear();
  }
}

/**
 * The simulator engine's shared context: configuration, clock, venue, job queue and state. Every
 * capability module (orders, matching, positions, money, ...) is a set of functions over it, so the
 * parts stay small and the whole engine can be rebuilt from a state file.
 */
import type { VenueMarketData } from './venue/index.js';
import type { SimClock } from './runtime/clock.js';
import type { SeededRandom } from './runtime/random.js';
import type { ServiceEnvironment } from '../shared/eip712/index.js';
import type { ChaosSettings, SimConfig, Timings } from './config/schema.js';
import type { MarketTable } from './config/markets.js';
import type { EngineEvents } from './core/engineEvents.js';
import type { JobQueue } from './core/jobs.js';
import type { SimStore } from './state/store.js';
import type { SimPosition } from './state/model.js';

/** Payloads of every job kind (see core/jobs.ts). */
export interface JobPayloads {
  /** SUBMITTED -> ACCEPTED / REJECTED / FAILED for a non-trigger order. */
  'order.accept': { order_id: string };
  /** ACCEPTED -> fills (EXECUTING) for a marketable or fired order. */
  'order.execute': { order_id: string };
  /** EXECUTING -> FILLED / PARTIALLY_FILLED_CANCELLED. */
  'order.settle': { order_id: string };
  /** A cancel request takes effect. */
  'order.cancel': { order_id: string };
  /** A modify takes effect (or is dropped). */
  'order.modify': { old_id: string; new_id: string };
  /** Bracket legs of a filled entry arm (or are cancelled). */
  'bracket.arm': { entry_id: string };
  /** /positions catches up with a position change. */
  'position.publish': { wallet: string; market: string; view: SimPosition | null };
  'deposit.confirm': { id: string };
  'withdrawal.step': { id: string };
  'margin.apply': { id: string };
  /** Hourly funding for the hour starting at `epoch`. */
  'funding.settle': { epoch: number };
}

/** The part of VenueMarketData the engine uses (the venue module owns the implementation). */
export type VenuePort = Pick<
  VenueMarketData,
  | 'getMark'
  | 'setMark'
  | 'onMark'
  | 'getBook'
  | 'recordTrade'
  | 'fundingRate'
  | 'setFundingRate'
  | 'hasAsset'
  | 'isPaused'
  | 'pauseReason'
  | 'onPrint'
  | 'consumeLiquidity'
>;

export interface SimEnvironment {
  readonly environment: ServiceEnvironment;
  readonly tradingChainId: number;
  readonly arbitrumChainId: number;
}

export interface SimContext {
  readonly config: SimConfig;
  readonly env: SimEnvironment;
  readonly timings: Timings;
  readonly clock: SimClock;
  readonly markets: MarketTable;
  readonly venue: VenuePort;
  readonly jobs: JobQueue<JobPayloads>;
  /** What one capability tells the others (a position closed) without importing them. */
  readonly events: EngineEvents;
  /** Engine randomness (hashes); separate from the venue's walk and the chaos sampler. */
  readonly random: SeededRandom;
  store: SimStore;
  chaos: ChaosSettings;
}

/**
 * What every event pump of a session shares: one pump per stream (marks, order status and fills,
 * positions, withdrawals, key expiry), each with start, stop and kick, each publishing through its own
 * Throttle (at most 10 deliveries a second, latest value per key).
 */
import type { IpcEventPayload, PositionView, StreamEventName } from '../../../shared/ipc.js';
import type { ServiceContext } from '../../services/serviceContext.js';
import type { VenueSocketPool } from '../../venue/venueSocketPool.js';
import type { AppLogger } from '../adapters.js';
import type { DomainEvents } from '../domainEvents.js';
import { Throttle } from '../throttle.js';

export interface PumpTimings {
  /** Throttle interval of every stream (100 ms = 10 a second). */
  throttleMs: number;
  orderMinMs: number;
  orderMaxMs: number;
  /** Slow refresh of positions (liquidations, fills of orders placed elsewhere). */
  positionsRefreshMs: number;
  /** Re-reads of /positions after a fill: it lags fills. */
  positionsAfterFillMs: readonly number[];
  withdrawalMinMs: number;
  withdrawalMaxMs: number;
  keyExpiryCheckMs: number;
  /** Mark polling when there is no venue WebSocket. */
  marksPollMs: number;
}

export const DEFAULT_PUMP_TIMINGS: PumpTimings = {
  throttleMs: 100,
  orderMinMs: 250,
  orderMaxMs: 2_000,
  positionsRefreshMs: 5_000,
  positionsAfterFillMs: [250, 600, 1_500, 3_000],
  withdrawalMinMs: 1_000,
  withdrawalMaxMs: 10_000,
  keyExpiryCheckMs: 60_000,
  marksPollMs: 2_000,
};

export type NotificationKind = 'fills' | 'trigger_fires' | 'withdrawals' | 'key_expiry' | 'liquidation_warning' | 'alerts';

export interface PumpHost {
  readonly ctx: ServiceContext;
  readonly wallet: string;
  readonly logger: AppLogger;
  readonly timings: PumpTimings;
  /** The session's venue sockets, one per URL (venue/venueSocketPool.ts). */
  readonly venueSockets: VenueSocketPool;
  /** The session's domain events: pumps listen to what desks did and say what they observed. */
  readonly events: DomainEvents;
  /** Sends an event (after throttling) to the renderer. */
  send<E extends StreamEventName>(event: E, payload: IpcEventPayload<E>): void;
  /** A native notification, when the user's preferences allow this kind. */
  notify(kind: NotificationKind, title: string, body: string): void;
  /** Days before expiry at which a key is reported. */
  keyWarningDays(): number;
  /** Percent of the mark within which a position's liquidation estimate is warned about. */
  liquidationWarningPct(): number;
  /** Every re-pricing of the wallet's positions (the alerts desk evaluates PnL and liquidation distance on it). */
  observePositions?(views: readonly PositionView[], at: number): void;
}

export interface Pump {
  start(): Promise<void>;
  stop(): Promise<void>;
  kick(): void;
}

/** A Throttle of this host's streams, whose delivery failures are logged. */
export function streamThrottle<T>(host: PumpHost, key: (v: T) => string, emit: (values: T[]) => void): Throttle<T> {
  return new Throttle<T>({ intervalMs: host.timings.throttleMs, key, emit, onError: (err) => host.logger.error(`[pumps] delivering an event failed: ${(err as Error).message}`) });
}

/**
 * What the bridge and swap desks share: quotes kept in main under an opaque id until they are sent, the
 * sends that run in the background after their channel answered, and how a send's progress and points
 * land on its transfer.
 */
import { randomUUID } from 'node:crypto';
import type { TransferView } from '../../../shared/ipc.js';
import type { SendProgress } from '../../services/chains/sendTransaction.js';
import type { PointsEstimateResult } from '../../services/points/estimate.js';
import type { AppLogger } from '../adapters.js';
import type { TransferTracker } from './transferTracker.js';

/** Quotes kept for sending; the oldest goes first (each is also spent by its send). */
export const MAX_QUOTES = 16;

/**
 * Quotes under opaque ids: what is sent is exactly what the user compared, and `take` spends a quote so
 * one quote sends at most once.
 */
export class QuoteBook<T> {
  private readonly quotes = new Map<string, T>();

  /** Keeps a quote, forgetting the oldest beyond MAX_QUOTES; returns its id. */
  put(value: T): string {
    while (this.quotes.size >= MAX_QUOTES) {
      const oldest = this.quotes.keys().next().value;
      if (oldest === undefined) break;
      this.quotes.delete(oldest);
    }
    const id = randomUUID();
    this.quotes.set(id, value);
    return id;
  }

  get(id: string): T | undefined {
    return this.quotes.get(id);
  }

  /** Forgets a quote (it is being sent). */
  spend(id: string): void {
    this.quotes.delete(id);
  }
}

/**
 * Sends running after their channel answered. A failure becomes the transfer's error (never an unhandled
 * rejection); `settled` waits for all of them (tests, and nothing else: close never waits).
 */
export class TransferRuns {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly tracker: TransferTracker) {}

  start(id: string, work: () => Promise<void>): void {
    const run = work().catch((err: unknown) => {
      this.tracker.fail(id, err);
    });
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

/** A transaction's step on its transfer. The source hash is saved as soon as it exists: a restart then follows the order instead of losing it. */
export function recordTransactionProgress(tracker: TransferTracker, id: string, p: SendProgress): void {
  tracker.update(id, {
    phase: p.phase,
    ...(p.hash !== undefined && p.tx === 'approve' ? { approve_tx: p.hash } : {}),
    ...(p.hash !== undefined && p.tx === 'main' ? { src_tx: p.hash } : {}),
  });
}

export function pointsView(p: PointsEstimateResult | null): TransferView['points'] {
  return p === null ? null : { point: p.point, partner_bonus: p.partnerBonus, source: p.source };
}

/** A points estimate that failed while sending is shown on the transfer and logged; the send went on. */
export function pointsFailure(logger: AppLogger, id: string, pointsError: string | null): string | null {
  if (pointsError !== null) logger.warn(`[companion] ${id}: no points estimate (${pointsError}); the transfer went ahead without it`);
  return pointsError;
}

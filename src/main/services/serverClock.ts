/**
 * The service's notion of "now". Key expiries are judged by the server ("in the future and at most 180
 * days ahead", "expires_at passes"), so an expiry computed from a skewed local clock is refused or
 * silently shorter. Every envelope carries the server's Unix-ms `timestamp`; this reads it from a cheap
 * GET /config and keeps the offset to the local clock for a short while.
 */
import { decodeEnvelope } from '../../shared/protocol/index.js';
import { z } from 'zod';
import { isTransientFailure } from '../api/errors.js';
import { httpRequest, DEFAULT_TIMEOUT_MS, type FetchFn } from '../api/http.js';
import { DEFAULT_RETRY, validateRetryPolicy, withRetry, type RetryPolicy, type SleepFn } from '../api/retry.js';

export interface ServerClockOptions {
  baseUrl: string;
  fetch?: FetchFn;
  timeoutMs?: number;
  /** How long a measured offset is trusted. */
  ttlMs?: number;
  localNow?: () => number;
  /**
   * GET /config is a read like any other: a network error, a timeout or a 5xx is tried again with the
   * client's backoff (default DEFAULT_RETRY) before the read that waits on it fails. Without it one
   * dropped connection to /config failed an order before anything was signed.
   */
  retry?: RetryPolicy;
  sleep?: SleepFn;
  /**
   * Told of a background refresh that failed (its retries spent): the offset it had keeps answering, and
   * the next read past its time tries again. The app logs it; the command line says it on stderr.
   */
  onRefreshFailed?: (err: Error) => void;
}

/** The offset moves only with clock drift (or a simulator's advance): re-measure every few seconds. */
const DEFAULT_TTL_MS = 5_000;
/** An offset this many times its time to live old (its background refreshes failing) is waited for again. */
const STALE_LIMIT_TTLS = 6;

export class ServerClock {
  private readonly baseUrl: string;
  private readonly fetchFn: FetchFn;
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly localNow: () => number;
  private readonly retry: RetryPolicy;
  private readonly sleep: SleepFn | undefined;
  private readonly onRefreshFailed: ((err: Error) => void) | undefined;
  private offset: number | null = null;
  private measuredAt = 0;
  private inflight: Promise<number> | null = null;

  constructor(options: ServerClockOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.localNow = options.localNow ?? Date.now;
    this.retry = validateRetryPolicy(options.retry ?? DEFAULT_RETRY);
    this.sleep = options.sleep;
    this.onRefreshFailed = options.onRefreshFailed;
  }

  /**
   * Server time in Unix ms (the local clock corrected by the last measured offset). No offset yet (or one
   * invalidated): measured first. One past its time to live is re-measured in the background while the
   * offset it has answers (it moves only with drift, milliseconds a day), so a caller on a latency path
   * (a chase's re-price reads the clock) never waits on a GET /config. Only an offset far past its time
   * (STALE_LIMIT_TTLS, the refreshes failing meanwhile) is waited for again, so a failure is not hidden.
   */
  async now(): Promise<number> {
    const age = this.localNow() - this.measuredAt;
    if (this.offset === null || age > this.ttlMs * STALE_LIMIT_TTLS) await this.measure();
    else if (age > this.ttlMs) {
      // A failed refresh leaves the offset as it was and is told (onRefreshFailed); the next read past the
      // time to live tries again, and one past the limit waits for it (and sees its error).
      this.measure().catch((err: unknown) => this.onRefreshFailed?.(err instanceof Error ? err : new Error(String(err))));
    }
    return this.localNow() + (this.offset ?? 0);
  }

  /** Forget the offset (after a simulator advance, say): the next now() measures again. */
  invalidate(): void {
    this.offset = null;
  }

  private measure(): Promise<number> {
    this.inflight ??= (async () => {
      try {
        const { sentAt, receivedAt, timestamp } = await withRetry(
          async () => {
            const sent = this.localNow();
            const res = await httpRequest(this.fetchFn, { method: 'GET', url: `${this.baseUrl}/config`, timeoutMs: this.timeoutMs });
            const received = this.localNow();
            const decoded = decodeEnvelope(res.status, res.body, z.unknown(), 'GET /config');
            if (!decoded.ok) throw decoded.error;
            return { sentAt: sent, receivedAt: received, timestamp: decoded.timestamp };
          },
          { policy: this.retry, shouldRetry: isTransientFailure, ...(this.sleep ? { sleep: this.sleep } : {}) },
        );
        // The server stamped its answer somewhere between send and receive: take the midpoint.
        this.offset = timestamp - Math.round((sentAt + receivedAt) / 2);
        this.measuredAt = receivedAt;
        return this.offset;
      } finally {
        this.inflight = null;
      }
    })();
    return this.inflight;
  }
}

/**
 * The service's notion of "now". Key expiries are judged by the server ("in the future and at most 180
 * days ahead", "expires_at passes"), so an expiry computed from a skewed local clock is refused or
 * silently shorter. Every envelope carries the server's Unix-ms `timestamp`; this reads it from a cheap
 * GET /config and keeps the offset to the local clock for a short while.
 */
import { decodeEnvelope } from '../../shared/protocol/index.js';
import { z } from 'zod';
import { httpRequest, DEFAULT_TIMEOUT_MS, type FetchFn } from '../api/http.js';

export interface ServerClockOptions {
  baseUrl: string;
  fetch?: FetchFn;
  timeoutMs?: number;
  /** How long a measured offset is trusted. */
  ttlMs?: number;
  localNow?: () => number;
}

/** The offset moves only with clock drift (or a simulator's advance): re-measure every few seconds. */
const DEFAULT_TTL_MS = 5_000;

export class ServerClock {
  private readonly baseUrl: string;
  private readonly fetchFn: FetchFn;
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly localNow: () => number;
  private offset: number | null = null;
  private measuredAt = 0;
  private inflight: Promise<number> | null = null;

  constructor(options: ServerClockOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.localNow = options.localNow ?? Date.now;
  }

  /** Server time in Unix ms (the local clock corrected by the last measured offset). */
  async now(): Promise<number> {
    const local = this.localNow();
    if (this.offset === null || local - this.measuredAt > this.ttlMs) await this.measure();
    return this.localNow() + (this.offset ?? 0);
  }

  /** Forget the offset (after a simulator advance, say): the next now() measures again. */
  invalidate(): void {
    this.offset = null;
  }

  private measure(): Promise<number> {
    this.inflight ??= (async () => {
      try {
        const sentAt = this.localNow();
        const res = await httpRequest(this.fetchFn, { method: 'GET', url: `${this.baseUrl}/config`, timeoutMs: this.timeoutMs });
        const receivedAt = this.localNow();
        const decoded = decodeEnvelope(res.status, res.body, z.unknown(), 'GET /config');
        if (!decoded.ok) throw decoded.error;
        // The server stamped its answer somewhere between send and receive: take the midpoint.
        this.offset = decoded.timestamp - Math.round((sentAt + receivedAt) / 2);
        this.measuredAt = receivedAt;
        return this.offset;
      } finally {
        this.inflight = null;
      }
    })();
    return this.inflight;
  }
}

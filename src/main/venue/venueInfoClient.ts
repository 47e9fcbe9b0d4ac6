/**
 * The venue's public info API (Hyperliquid's shape): POST {venue_info_url} with {type: ...}. Market data
 * the trading API does not serve (marks, mids, books, candles, venue funding) comes from here. Every
 * answer is validated; requests are reads, so transport failures and 5xx are retried with backoff.
 *
 * `coin` arguments are venue symbols (Market.venue_symbol), never the service's market symbols.
 */
import type { z } from 'zod';
import { parseWith } from '../../shared/protocol/index.js';
import type { ClassifiedError, ErrorKind } from '../../shared/errorKinds.js';
import { NetworkError, TimeoutError } from '../api/errors.js';
import { DEFAULT_TIMEOUT_MS, httpRequest, type FetchFn } from '../api/http.js';
import { DEFAULT_RETRY, validateRetryPolicy, withRetry, type RandomFn, type RetryPolicy, type SleepFn } from '../api/retry.js';
import {
  AllMidsSchema,
  CandlesSchema,
  L2BookSchema,
  MetaAndAssetCtxsSchema,
  VenueFundingHistorySchema,
  VenueMetaSchema,
  type AllMids,
  type Candle,
  type CandleInterval,
  type L2Book,
  type MetaAndAssetCtxs,
  type VenueFundingEntry,
  type VenueMeta,
} from './schemas.js';

/** The venue answered with an error status; its error bodies are bare strings (400 unparseable, 422 wrong shape). */
export class VenueInfoError extends Error implements ClassifiedError {
  readonly errorCode = 'VENUE_ERROR';
  constructor(
    readonly status: number,
    readonly requestType: string,
    detail: string,
  ) {
    super(`venue info ${requestType}: HTTP ${status}: ${detail}`);
    this.name = 'VenueInfoError';
  }

  get errorKind(): ErrorKind {
    return this.status >= 500 || this.status === 429 ? 'transient' : 'rejected';
  }
}

export interface VenueInfoClientOptions {
  /** POST endpoint of the info API ({venue_info_url}). */
  url: string;
  timeoutMs?: number;
  retry?: RetryPolicy;
  fetch?: FetchFn;
  sleep?: SleepFn;
  random?: RandomFn;
}

export interface L2BookOptions {
  /** Aggregate levels to 2..5 significant figures. */
  nSigFigs?: 2 | 3 | 4 | 5;
  /** Only with nSigFigs 5. */
  mantissa?: 1 | 2 | 5;
}

export class VenueInfoClient {
  readonly url: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly fetchFn: FetchFn;
  private readonly sleep: SleepFn | undefined;
  private readonly random: RandomFn | undefined;

  constructor(options: VenueInfoClientOptions) {
    this.url = options.url;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = validateRetryPolicy(options.retry ?? DEFAULT_RETRY);
    this.fetchFn = options.fetch ?? fetch;
    this.sleep = options.sleep;
    this.random = options.random;
  }

  /** The perpetual universe: index i of `universe` is venue asset index i. */
  meta(): Promise<VenueMeta> {
    return this.post({ type: 'meta' }, VenueMetaSchema);
  }

  /** [meta, ctxs]: marks, oracle prices, funding and open interest, index-aligned with meta.universe. */
  metaAndAssetCtxs(): Promise<MetaAndAssetCtxs> {
    return this.post({ type: 'metaAndAssetCtxs' }, MetaAndAssetCtxsSchema);
  }

  /** Mid price by venue symbol. */
  allMids(): Promise<AllMids> {
    return this.post({ type: 'allMids' }, AllMidsSchema);
  }

  /** The book of one coin, or null: the venue answers null for a coin it does not list. */
  l2Book(coin: string, opts: L2BookOptions = {}): Promise<L2Book | null> {
    return this.post({ type: 'l2Book', coin, ...opts }, L2BookSchema.nullable());
  }

  candleSnapshot(req: { coin: string; interval: CandleInterval; startTime: number; endTime?: number }): Promise<Candle[]> {
    return this.post({ type: 'candleSnapshot', req }, CandlesSchema);
  }

  /** The venue's hourly funding rates of one coin, oldest first. */
  fundingHistory(req: { coin: string; startTime: number; endTime?: number }): Promise<VenueFundingEntry[]> {
    return this.post({ type: 'fundingHistory', ...req }, VenueFundingHistorySchema);
  }

  private post<S extends z.ZodType>(request: { type: string } & Record<string, unknown>, schema: S): Promise<z.infer<S>> {
    const body = JSON.stringify(request);
    return withRetry(
      async () => {
        const res = await httpRequest(this.fetchFn, { method: 'POST', url: this.url, body, timeoutMs: this.timeoutMs, readOnly: true });
        if (res.status !== 200) {
          throw new VenueInfoError(res.status, request.type, typeof res.body === 'string' ? res.body : JSON.stringify(res.body));
        }
        return parseWith(schema, res.body, `venue info ${request.type}`);
      },
      {
        policy: this.retry,
        // Info requests change nothing, so a lost answer is simply asked again.
        shouldRetry: (err) => err instanceof NetworkError || err instanceof TimeoutError || (err instanceof VenueInfoError && err.status >= 500),
        ...(this.sleep ? { sleep: this.sleep } : {}),
        ...(this.random ? { random: this.random } : {}),
      },
    );
  }
}

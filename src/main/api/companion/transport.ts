/**
 * The transport the bridge, points and aggregator clients share: one JSON exchange through httpRequest
 * (per-request timeout, NetworkError / TimeoutError), error answers turned into CompanionApiError, success
 * bodies validated with a zod schema (DecodeError names the field), and retries with exponential backoff
 * and full jitter for requests that are safe to repeat.
 */
import type { z } from 'zod';
import { BridgeErrorSchema, parseWith } from '../../../shared/protocol/index.js';
import { DEFAULT_TIMEOUT_MS, httpRequest, type FetchFn } from '../http.js';
import type { HttpMethod } from '../errors.js';
import { DEFAULT_RETRY, realSleep, validateRetryPolicy, withRetry, type RandomFn, type RetryInfo, type RetryPolicy, type SleepFn } from '../retry.js';
import { companionErrorOf, isTransientCompanionFailure, type CompanionApiName } from './errors.js';

export interface CompanionClientOptions {
  /** The API root ({bridge_url}, {platform_url} or {aggregator_url}), without a trailing slash. */
  baseUrl: string;
  /** Per attempt, default 10 s. */
  timeoutMs?: number;
  retry?: RetryPolicy;
  fetch?: FetchFn;
  sleep?: SleepFn;
  random?: RandomFn;
  /** Observes every retry (logging, metrics); never given a body. */
  onRetry?: (info: RetryInfo & { route: string }) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's retry budget for this call (attempts: 1 sends exactly once). */
  retry?: RetryPolicy;
}

export type QueryValue = string | number | undefined;

/** `base + path + ?query`, skipping undefined values; values are encoded, never pasted as text. */
export function buildUrl(base: string, path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return base + path + (qs ? `?${qs}` : '');
}

export class CompanionTransport {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly fetchFn: FetchFn;
  private readonly sleep: SleepFn;
  private readonly random: RandomFn;

  constructor(
    readonly api: CompanionApiName,
    private readonly options: CompanionClientOptions,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = validateRetryPolicy(options.retry ?? DEFAULT_RETRY);
    this.fetchFn = options.fetch ?? fetch;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
  }

  /**
   * One request, retried on transport failures and 5xx when `idempotent`. 4xx answers are never retried:
   * the same request would get the same answer.
   */
  async call<S extends z.ZodType>(
    method: HttpMethod,
    route: string,
    path: string,
    query: Record<string, QueryValue>,
    body: unknown,
    schema: S,
    opts: CallOptions & { idempotent: boolean },
  ): Promise<z.infer<S>> {
    const url = buildUrl(this.baseUrl, path, query);
    // Serialised once: a resend carries the identical bytes.
    const bytes = body === undefined ? undefined : JSON.stringify(body);
    return withRetry(
      async () => {
        const res = await httpRequest(this.fetchFn, {
          method,
          url,
          timeoutMs: this.timeoutMs,
          ...(bytes !== undefined ? { body: bytes } : {}),
          ...(opts.signal ? { signal: opts.signal } : {}),
          // The companion requests change no funds: a lost answer never means "may have landed" money-wise.
          readOnly: opts.idempotent,
        });
        if (res.status >= 400) throw companionErrorOf(this.api, route, res.status, errorText(res.status, res.body));
        return parseWith(schema, res.body, `${this.api} ${route}`);
      },
      {
        policy: opts.retry ?? (opts.idempotent ? this.retry : { ...this.retry, attempts: 1 }),
        shouldRetry: (err) => isTransientCompanionFailure(err),
        sleep: this.sleep,
        random: this.random,
        ...(opts.signal ? { signal: opts.signal } : {}),
        onRetry: (info) => this.options.onRetry?.({ ...info, route }),
      },
    );
  }
}

/** The `error` text of `{ error: <message> }`; a body of another shape (a proxy's HTML) keeps a short form. */
function errorText(status: number, body: unknown): string {
  const parsed = BridgeErrorSchema.safeParse(body);
  if (parsed.success) return parsed.data.error;
  if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 200);
  return `HTTP ${status}`;
}

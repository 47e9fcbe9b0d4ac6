/**
 * The inference API ({inference_url}), chat-completions style: POST /v1/chat/completions, GET /v1/models,
 * POST /v1/videos and GET /v1/videos/{id}.
 *
 * The key is presented as `Authorization: Bearer <key>`: the spec does not show how (Authentication >
 * Inference API credential), and that is the chat-completions convention. The key is passed per call and
 * only ever reaches the request headers: no error, retry report or log line carries it (errors name the
 * method and URL only, and the service's own message has the key cut out before it goes into an error,
 * since a service may quote the key it refused). An empty key is refused locally as
 * InferenceInvalidApiKeyError, before anything is sent.
 *
 * Retry policy (spec): 429, 502 and 503 are retried with exponential backoff and full jitter, waiting at
 * least a Retry-After the service sends (capped); 400 to 404 (and 409) are never retried unchanged. A
 * chat or video request that got no answer is not resent either: the spec charges a request that failed
 * partway for the work already done, so a blind resend could pay twice. GET reads do retry transport
 * failures.
 */
import type { z } from 'zod';
import { parseWith } from '../../../shared/protocol/index.js';
import { NetworkError, TimeoutError, type HttpMethod } from '../errors.js';
import { httpRequest, type FetchFn } from '../http.js';
import { backoffDelay, realSleep, validateRetryPolicy, type RandomFn, type RetryPolicy, type SleepFn } from '../retry.js';
import { InferenceError, InferenceInvalidApiKeyError, inferenceErrorOf, parseRetryAfter } from './inferenceErrors.js';
import { ChatCompletionSchema, ModelListSchema, VideoSchema, type ChatCompletion, type ModelList, type Video } from './schemas.js';

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant';
  content: string;
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
}

export interface VideoRequest {
  model: string;
  prompt: string;
  seconds?: number;
}

export interface InferenceRetryInfo {
  route: string;
  /** 1-based attempt that just failed. */
  attempt: number;
  error: unknown;
  delayMs: number;
}

export interface InferenceClientOptions {
  /** {inference_url}: the root the /v1/... paths hang from. */
  baseUrl: string;
  /** Per attempt; a completion can take a while, so the default is 60 s. */
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Longest Retry-After honoured; a longer one is cut to this (the backoff still applies). Default 60 s. */
  maxRetryAfterMs?: number;
  fetch?: FetchFn;
  sleep?: SleepFn;
  random?: RandomFn;
  /** The clock a Retry-After HTTP date is measured against (tests pin it). Default Date.now. */
  now?: () => number;
  /** Observes every retry; never given the key or a body. */
  onRetry?: (info: InferenceRetryInfo) => void;
}

export interface InferenceCallOptions {
  signal?: AbortSignal;
  retry?: RetryPolicy;
}

export const DEFAULT_INFERENCE_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 8_000 };
const DEFAULT_INFERENCE_TIMEOUT_MS = 60_000;

export class InferenceClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly maxRetryAfterMs: number;
  private readonly fetchFn: FetchFn;
  private readonly sleep: SleepFn;
  private readonly random: RandomFn;
  private readonly now: () => number;

  constructor(private readonly options: InferenceClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_INFERENCE_TIMEOUT_MS;
    this.retry = validateRetryPolicy(options.retry ?? DEFAULT_INFERENCE_RETRY);
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.fetchFn = options.fetch ?? fetch;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  chat(apiKey: string, request: ChatCompletionRequest, opts: InferenceCallOptions = {}): Promise<ChatCompletion> {
    return this.call(apiKey, 'POST', 'POST /v1/chat/completions', '/v1/chat/completions', request, ChatCompletionSchema, opts);
  }

  models(apiKey: string, opts: InferenceCallOptions = {}): Promise<ModelList> {
    return this.call(apiKey, 'GET', 'GET /v1/models', '/v1/models', undefined, ModelListSchema, opts);
  }

  createVideo(apiKey: string, request: VideoRequest, opts: InferenceCallOptions = {}): Promise<Video> {
    return this.call(apiKey, 'POST', 'POST /v1/videos', '/v1/videos', request, VideoSchema, opts);
  }

  /** A finished video; an unfinished one is InferenceVideoNotReadyError (poll again later). */
  video(apiKey: string, id: string, opts: InferenceCallOptions = {}): Promise<Video> {
    return this.call(apiKey, 'GET', 'GET /v1/videos/{id}', `/v1/videos/${encodeURIComponent(id)}`, undefined, VideoSchema, opts);
  }

  private async call<S extends z.ZodType>(
    apiKey: string,
    method: HttpMethod,
    route: string,
    path: string,
    body: unknown,
    schema: S,
    opts: InferenceCallOptions,
  ): Promise<z.infer<S>> {
    // Refused here, as the class the service's own 401 would be, so callers handle one case: nothing is sent.
    if (apiKey.trim() === '') throw new InferenceInvalidApiKeyError(401, 'no API key given', null, null);
    const policy = validateRetryPolicy(opts.retry ?? this.retry);
    const bytes = body === undefined ? undefined : JSON.stringify(body);
    for (let attempt = 1; ; attempt++) {
      let retryAfter: string | null = null;
      // The key goes into this request's headers and nowhere else.
      const withKey: FetchFn = async (input, init) => {
        const res = await this.fetchFn(input, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), authorization: `Bearer ${apiKey}` } });
        retryAfter = res.headers.get('retry-after');
        return res;
      };
      let failure: unknown;
      try {
        const res = await httpRequest(withKey, {
          method,
          url: this.baseUrl + path,
          timeoutMs: this.timeoutMs,
          ...(bytes !== undefined ? { body: bytes } : {}),
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
        if (res.status < 400) return parseWith(schema, res.body, `inference ${route}`);
        failure = inferenceErrorOf(res.status, res.body, parseRetryAfter(retryAfter, this.now()), apiKey);
      } catch (err) {
        failure = err;
      }
      if (!this.mayRetry(failure, method) || attempt >= policy.attempts || opts.signal?.aborted) throw failure;
      let delayMs = backoffDelay(attempt - 1, policy, this.random);
      if (failure instanceof InferenceError && failure.retryAfterMs !== null) delayMs = Math.max(delayMs, Math.min(failure.retryAfterMs, this.maxRetryAfterMs));
      this.options.onRetry?.({ route, attempt, error: failure, delayMs });
      await this.sleep(delayMs, opts.signal);
    }
  }

  private mayRetry(err: unknown, method: HttpMethod): boolean {
    if (err instanceof InferenceError) return err.retryable;
    // No answer: a read may be repeated; a generation may have run (and been charged) already.
    return method === 'GET' && (err instanceof NetworkError || err instanceof TimeoutError);
  }
}

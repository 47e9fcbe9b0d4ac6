/**
 * The inference API's whole error contract against the simulator, and the retry policy: 429, 502 and 503
 * are retried with exponential backoff (the 429 honouring Retry-After) and succeed once the sim recovers;
 * 400, 401, 402, 403, 404 and 409 are never retried. Every request is counted. The client's sleep is the
 * test's: it records the delays, lets the test change the simulator between attempts, and advances the
 * simulated clock by the delay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InferenceClient,
  InferenceError,
  InferenceHostUnavailableError,
  InferenceInsufficientBalanceError,
  InferenceInvalidApiKeyError,
  InferenceInvalidRequestError,
  InferenceKeyDisabledError,
  InferenceNotFoundError,
  InferenceRateLimitedError,
  InferenceSpendingLimitError,
  InferenceVideoNotReadyError,
  INFERENCE_ACTIONS,
  inferenceErrorOf,
  parseRetryAfter,
  type ChatCompletionRequest,
} from '../../../src/main/api/companion/index.js';
import { companionFailure } from '../../../src/main/services/companion/index.js';
import { OperationError } from '../../../src/main/services/errors.js';
import { CompanionWorld } from './companionWorld.js';

let w: CompanionWorld;
beforeAll(async () => {
  w = await CompanionWorld.boot('companion-inference');
});
afterAll(async () => {
  await w?.stop();
});

const MODEL = 'sim-chat-mini';
const chat = (content = 'hello'): ChatCompletionRequest => ({ model: MODEL, messages: [{ role: 'user', content }], max_tokens: 64 });
let keySeq = 0;

/** A fresh key with a balance (unique per test, so rate windows and spend never leak between tests). */
async function newKey(over: Record<string, unknown> = {}): Promise<string> {
  const key = `sk-test-${process.pid}-${++keySeq}-abcdef`;
  await w.companionControl('/inference/keys', { key, balance: '5', ...over });
  return key;
}

function hosts(model: string, list: string[], up: boolean, failure?: 'unreachable' | 'error' | 'partial'): Promise<unknown[]> {
  return Promise.all(list.map((host) => w.companionControl('/inference/hosts', { model, host, up, ...(failure ? { failure } : {}) })));
}

interface Harness {
  client: InferenceClient;
  delays: number[];
  /** Chat-completion requests sent (all attempts). */
  count(): number;
}

function harness(onSleep: (retry: number) => Promise<void> | void = () => undefined, maxRetryAfterMs?: number): Harness {
  const delays: number[] = [];
  const from = w.requests.length;
  const client = new InferenceClient({
    baseUrl: w.sim.urls.inference_url,
    fetch: w.fetch,
    retry: { attempts: 4, baseDelayMs: 200, maxDelayMs: 2_000 },
    ...(maxRetryAfterMs !== undefined ? { maxRetryAfterMs } : {}),
    sleep: async (ms) => {
      delays.push(ms);
      await onSleep(delays.length);
      await w.advance(ms);
    },
  });
  return { client, delays, count: () => w.sent('/inference/v1', from).length };
}

async function failure<E extends InferenceError>(p: Promise<unknown>, cls: new (...a: never[]) => E): Promise<E> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(cls);
  return err as E;
}

describe('never retried unchanged: 400 to 404 and 409', () => {
  it('400 invalid_request: read the message', async () => {
    const h = harness();
    const e = await failure(h.client.chat(await newKey(), { model: MODEL, messages: [] }), InferenceInvalidRequestError);
    expect(e).toMatchObject({ kind: 'invalid_request', status: 400, code: 'invalid_request', retryable: false, action: INFERENCE_ACTIONS.invalid_request });
    expect(e.serverMessage).toMatch(/messages/);
    expect(h.count()).toBe(1);
  });

  it('401 invalid_api_key: check or create a key', async () => {
    const h = harness();
    const e = await failure(h.client.chat('sk-no-such-key-000', chat()), InferenceInvalidApiKeyError);
    expect(e).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(e.action).toMatch(/Check the API key/);
    // The key is never part of an error.
    expect(`${e.message} ${e.serverMessage}`).not.toContain('sk-no-such-key-000');
    expect(h.count()).toBe(1);
  });

  it('401 key_disabled: enable it', async () => {
    const h = harness();
    const e = await failure(h.client.chat(await newKey({ disabled: true }), chat()), InferenceKeyDisabledError);
    expect(e).toMatchObject({ status: 401, code: 'key_disabled', kind: 'key_disabled' });
    expect(e.action).toMatch(/enable it/);
    expect(h.count()).toBe(1);
  });

  it('402 insufficient_balance (type insufficient_quota): deposit or lower max_tokens', async () => {
    const h = harness();
    const e = await failure(h.client.chat(await newKey({ balance: '0' }), chat()), InferenceInsufficientBalanceError);
    expect(e).toMatchObject({ status: 402, code: 'insufficient_balance', type: 'insufficient_quota' });
    expect(e.action).toMatch(/max_tokens/);
    expect(h.count()).toBe(1);
  });

  it('403 without a code: the spending limit; raise it or wait for the reset', async () => {
    const h = harness();
    const e = await failure(h.client.chat(await newKey({ spendingLimit: '0' }), chat()), InferenceSpendingLimitError);
    // The body has no code member (spec: "(no code)"); the typed error reads that as code null.
    expect(e).toMatchObject({ status: 403, code: null, kind: 'spending_limit' });
    expect(inferenceErrorOf(403, { error: { message: 'limit reached', type: 'permission_error' } })).toBeInstanceOf(InferenceSpendingLimitError);
    expect(e.action).toMatch(/raise it, or wait/);
    expect(h.count()).toBe(1);
  });

  it('404 not_found: check the ids against GET /v1/models', async () => {
    const h = harness();
    const key = await newKey();
    const e = await failure(h.client.chat(key, { ...chat(), model: 'no-such-model' }), InferenceNotFoundError);
    expect(e).toMatchObject({ status: 404, code: 'not_found' });
    expect(e.action).toMatch(/GET \/v1\/models/);
    expect(h.count()).toBe(1);
    const models = await h.client.models(key);
    expect(models.data.map((m) => m.id)).toContain(MODEL);
  });

  it('409 video_not_ready: poll until completed', async () => {
    const h = harness();
    const key = await newKey();
    const video = await h.client.createVideo(key, { model: 'sim-video-1', prompt: 'a chart going up', seconds: 2 });
    const before = h.count();
    const e = await failure(h.client.video(key, video.id), InferenceVideoNotReadyError);
    expect(e).toMatchObject({ status: 409, code: 'video_not_ready', retryable: false });
    expect(e.action).toMatch(/poll/i);
    expect(h.count() - before).toBe(1);
    await w.advance(60_000);
    expect((await h.client.video(key, video.id)).status).toBe('completed');
  });
});

describe('retried with exponential backoff and jitter: 429, 502, 503', () => {
  it('429 rate_limited: backs off (at least the Retry-After) and succeeds once the window passes', async () => {
    const h = harness();
    const key = await newKey({ rateLimit: { max: 1, windowMs: 5_000 } });
    await h.client.chat(key, chat('first'));
    const r = await h.client.chat(key, chat('second'));
    expect(r.choices[0]?.message.content).toMatch(/second/);
    expect(h.count()).toBe(3);
    expect(h.delays).toHaveLength(1);
    expect(h.delays[0]).toBeGreaterThanOrEqual(5_000);
  });

  it('429 that never clears: every attempt spent, then InferenceRateLimitedError', async () => {
    const h = harness(() => undefined, 500);
    const key = await newKey({ rateLimit: { max: 1, windowMs: 600_000 } });
    await h.client.chat(key, chat());
    const e = await failure(h.client.chat(key, chat()), InferenceRateLimitedError);
    expect(e).toMatchObject({ status: 429, code: 'rate_limited', retryable: true });
    expect(e.retryAfterMs).toBeGreaterThan(0);
    expect(h.count()).toBe(1 + 4);
    expect(h.delays).toHaveLength(3);
  });

  it('503 host_unavailable (no host answered): retried, succeeds when a host comes back', async () => {
    await hosts(MODEL, ['host-a', 'host-b'], false, 'unreachable');
    const h = harness(async (retry) => {
      if (retry === 2) await hosts(MODEL, ['host-b'], true);
    });
    const r = await h.client.chat(await newKey(), chat());
    expect(r.choices[0]?.message.content).toMatch(/Simulated reply/);
    expect(h.count()).toBe(3);
    // Exponential: each delay is under the doubling ceiling (full jitter).
    expect(h.delays[0]).toBeLessThan(200);
    expect(h.delays[1]).toBeLessThan(400);
    await hosts(MODEL, ['host-a'], true);
  });

  it('502 host_unavailable (hosts answered with errors): retried, succeeds when the host recovers', async () => {
    await hosts(MODEL, ['host-a', 'host-b'], false, 'error');
    const h = harness(async (retry) => {
      if (retry === 1) await hosts(MODEL, ['host-a', 'host-b'], true);
    });
    await h.client.chat(await newKey(), chat());
    expect(h.count()).toBe(2);
    expect(h.delays).toHaveLength(1);
  });

  it('502/503 for good: InferenceHostUnavailableError after the last attempt; retry shortly', async () => {
    await hosts('sim-chat-pro', ['host-c'], false, 'unreachable');
    const h = harness();
    const e = await failure(h.client.chat(await newKey(), { ...chat(), model: 'sim-chat-pro' }), InferenceHostUnavailableError);
    expect(e).toMatchObject({ status: 503, code: 'host_unavailable', retryable: true });
    expect(e.action).toMatch(/retry shortly/);
    expect(h.count()).toBe(4);
    await hosts('sim-chat-pro', ['host-c'], true);
  });
});

describe('classification', () => {
  it('goes by status first, then code; a body of another shape still gets its class', () => {
    expect(inferenceErrorOf(401, { error: { message: 'x', type: 'authentication_error', code: 'key_disabled' } })).toBeInstanceOf(InferenceKeyDisabledError);
    expect(inferenceErrorOf(401, '<html>')).toBeInstanceOf(InferenceInvalidApiKeyError);
    expect(inferenceErrorOf(402, { error: { message: 'x', type: 'insufficient_quota', code: null } })).toBeInstanceOf(InferenceInsufficientBalanceError);
    expect(inferenceErrorOf(503, '<html>bad gateway</html>')).toBeInstanceOf(InferenceHostUnavailableError);
    const unknown = inferenceErrorOf(500, { error: { message: 'boom', type: 'server_error', code: null } });
    expect(unknown).toMatchObject({ kind: 'unknown', retryable: false });
    expect(parseRetryAfter('7')).toBe(7_000);
    expect(parseRetryAfter('soon')).toBeNull();
  });

  it('services see OperationError INFERENCE_<KIND> with the action as hint and the typed error as cause', () => {
    const typed = inferenceErrorOf(429, { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limited' } });
    const mapped = companionFailure(typed) as OperationError;
    expect(mapped).toBeInstanceOf(OperationError);
    expect(mapped).toMatchObject({ code: 'INFERENCE_RATE_LIMITED', hint: INFERENCE_ACTIONS.rate_limited, status: 429 });
    expect(mapped.cause).toBe(typed);
  });
});

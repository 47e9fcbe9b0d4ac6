/**
 * The inference client against stub fetches (and one closed loopback port): the API key never reaches an
 * error even when the service quotes it, an empty key is the invalid-api-key class before anything is
 * sent, a read (GET) that got no answer is retried while a generation (POST) is never resent, and
 * Retry-After is honoured as seconds and as an HTTP date, capped at maxRetryAfterMs. Every request is
 * counted; the client's sleep records the delays instead of waiting.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  InferenceClient,
  InferenceError,
  InferenceInvalidApiKeyError,
  InferenceRateLimitedError,
  MIN_REDACTED_RUN,
  REDACTED,
  inferenceErrorOf,
  redactKey,
  type InferenceRetryInfo,
} from '../../src/main/api/companion/index.js';
import { NetworkError, TimeoutError } from '../../src/main/api/errors.js';

const KEY = 'sk-proj-Q7vX2mLp9RtY4wZk8NbC3dFh';
const BASE = 'http://inference.test';
const COMPLETION = { id: 'chatcmpl-1', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] };
const MODELS = { object: 'list', data: [{ id: 'm' }] };
const VIDEO = { id: 'video_1', status: 'completed' };
const chatReq = { model: 'm', messages: [{ role: 'user' as const, content: 'hello' }], max_tokens: 16 };

type Answer = { status: number; body: unknown; headers?: Record<string, string> } | 'network' | 'hang';

function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, body, headers };
}

/** A fetch answering from `script` in turn (the last answer repeats), counting calls per method. */
function stub(...script: Answer[]) {
  const calls: { method: string; url: string }[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    calls.push({ method: init?.method ?? 'GET', url: String(input) });
    const a = script[Math.min(calls.length - 1, script.length - 1)]!;
    if (a === 'network') throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNRESET'), { code: 'ECONNRESET' }) });
    if (a === 'hang') {
      // Never answers: only the client's own timeout (the request's abort signal) ends it.
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason ?? new Error('aborted')), { once: true });
      });
    }
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json', ...a.headers } });
  };
  return { fetchFn, calls };
}

function client(fetchFn: typeof fetch, over: Partial<ConstructorParameters<typeof InferenceClient>[0]> = {}) {
  const delays: number[] = [];
  const retries: InferenceRetryInfo[] = [];
  const c = new InferenceClient({
    baseUrl: BASE,
    fetch: fetchFn,
    retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 },
    timeoutMs: 50,
    random: () => 0,
    sleep: async (ms) => {
      delays.push(ms);
    },
    onRetry: (info) => retries.push(info),
    ...over,
  });
  return { c, delays, retries };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
}

/** Every way an error is shown or logged: message, String(), JSON, stack. */
function everyRendering(e: unknown): string {
  const err = e as Error;
  return [err.message, String(err), JSON.stringify(err), err.stack ?? ''].join('\n');
}

describe('the key never reaches an error, even when the service quotes it', () => {
  it('a 401 echoing the whole key: message, serverMessage, JSON and stack carry no key', async () => {
    const { fetchFn } = stub(json(401, { error: { message: `Incorrect API key provided: ${KEY}. Find your key in the dashboard.`, type: 'authentication_error', code: 'invalid_api_key' } }));
    const e = await rejection(client(fetchFn).c.chat(KEY, chatReq));
    expect(e).toBeInstanceOf(InferenceInvalidApiKeyError);
    const err = e as InferenceInvalidApiKeyError;
    expect(err.serverMessage).toBe(`Incorrect API key provided: ${REDACTED}. Find your key in the dashboard.`);
    expect(everyRendering(err)).not.toContain(KEY);
    expect(everyRendering(err)).not.toContain(KEY.slice(-MIN_REDACTED_RUN));
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ status: 401, code: 'invalid_api_key', serverMessage: err.serverMessage });
  });

  it('the key without its prefix, or its last 8 characters: cut as well; a 4-character tail is left', async () => {
    const secret = KEY.slice('sk-proj-'.length);
    const { fetchFn } = stub(json(401, { error: { message: `key ${secret} unknown; did you mean ...${KEY.slice(-8)} or ...${KEY.slice(-4)}?`, type: 'authentication_error', code: 'invalid_api_key' } }));
    const err = (await rejection(client(fetchFn).c.models(KEY))) as InferenceError;
    expect(err.serverMessage).toBe(`key ${REDACTED} unknown; did you mean ...${REDACTED} or ...${KEY.slice(-4)}?`);
    expect(everyRendering(err)).not.toContain(secret);
    expect(everyRendering(err)).not.toContain(KEY.slice(-8));
  });

  it('a body that is not JSON (a proxy page) quoting the key, and a retried 429 quoting it: the retry report is clean too', async () => {
    const { fetchFn } = stub(
      json(429, { error: { message: `slow down, ${KEY}`, type: 'rate_limit_error', code: 'rate_limited' } }),
      { status: 502, body: `<html>upstream refused Bearer ${KEY}</html>` },
      json(200, COMPLETION),
    );
    const { c, retries } = client(fetchFn);
    await c.chat(KEY, chatReq);
    expect(retries).toHaveLength(2);
    for (const r of retries) expect(everyRendering(r.error)).not.toContain(KEY.slice(-MIN_REDACTED_RUN));
    expect((retries[0]!.error as InferenceError).serverMessage).toBe(`slow down, ${REDACTED}`);
  });

  it('redactKey: whole key, long runs of it, nothing else; an unrelated message is unchanged', () => {
    expect(redactKey(`a ${KEY} b ${KEY}`, KEY)).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(redactKey('no such model: m', KEY)).toBe('no such model: m');
    expect(redactKey(`${KEY.slice(5, 5 + MIN_REDACTED_RUN - 1)}`, KEY)).toBe(KEY.slice(5, 5 + MIN_REDACTED_RUN - 1));
    expect(redactKey(`x${KEY.slice(5, 5 + MIN_REDACTED_RUN)}y`, KEY)).toBe(`x${REDACTED}y`);
    // A key shorter than the run length is matched whole.
    expect(redactKey('key abc123 refused', 'abc123')).toBe(`key ${REDACTED} refused`);
    expect(redactKey('anything', '')).toBe('anything');
    // Code and type are cut too: one quoting the key is no code the client knows.
    expect(inferenceErrorOf(401, { error: { message: 'x', type: KEY, code: KEY } }, null, KEY)).toMatchObject({ code: REDACTED, type: REDACTED });
  });
});

describe('an empty key', () => {
  it('is InferenceInvalidApiKeyError (so instanceof works), and nothing is sent', async () => {
    const { fetchFn, calls } = stub(json(200, MODELS));
    for (const key of ['', '   ']) {
      const e = await rejection(client(fetchFn).c.models(key));
      expect(e).toBeInstanceOf(InferenceInvalidApiKeyError);
      expect(e).toBeInstanceOf(InferenceError);
      expect(e).toMatchObject({ kind: 'invalid_api_key', name: 'InferenceInvalidApiKeyError', retryable: false });
    }
    expect(calls).toHaveLength(0);
  });
});

describe('no answer: a read is retried, a generation is never resent', () => {
  it('GET /v1/models after network errors: retried until it answers', async () => {
    const { fetchFn, calls } = stub('network', 'network', json(200, MODELS));
    const { c, retries } = client(fetchFn);
    expect((await c.models(KEY)).data[0]?.id).toBe('m');
    expect(calls.map((x) => x.method)).toEqual(['GET', 'GET', 'GET']);
    expect(retries.map((r) => r.error)).toEqual([expect.any(NetworkError), expect.any(NetworkError)]);
  });

  it('GET /v1/videos/{id} after timeouts: retried; every attempt timing out ends in TimeoutError', async () => {
    const ok = stub('hang', json(200, VIDEO));
    expect((await client(ok.fetchFn).c.video(KEY, 'video_1')).status).toBe('completed');
    expect(ok.calls).toHaveLength(2);

    const never = stub('hang');
    const e = await rejection(client(never.fetchFn).c.video(KEY, 'video_1'));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(never.calls).toHaveLength(3);
  });

  it('POST /v1/chat/completions after a network error or a timeout: sent once, the failure says it may have landed', async () => {
    for (const failure of ['network', 'hang'] as const) {
      const { fetchFn, calls } = stub(failure, json(200, COMPLETION));
      const { c, retries } = client(fetchFn);
      const e = await rejection(c.chat(KEY, chatReq));
      expect(e).toBeInstanceOf(failure === 'network' ? NetworkError : TimeoutError);
      expect((e as NetworkError | TimeoutError).mayHaveLanded).toBe(true);
      expect(calls).toHaveLength(1);
      expect(retries).toHaveLength(0);
    }
  });

  it('POST /v1/videos after a network error or a timeout: sent once', async () => {
    for (const failure of ['network', 'hang'] as const) {
      const { fetchFn, calls } = stub(failure, json(200, VIDEO));
      const e = await rejection(client(fetchFn).c.createVideo(KEY, { model: 'v', prompt: 'a chart' }));
      expect(e).toBeInstanceOf(failure === 'network' ? NetworkError : TimeoutError);
      expect(calls).toHaveLength(1);
    }
  });

  it('a closed loopback port: GET tried every attempt, POST once', async () => {
    const port = await closedPort();
    const calls: string[] = [];
    const counting: typeof fetch = (input, init) => {
      calls.push(init?.method ?? 'GET');
      return fetch(input, init);
    };
    const c = new InferenceClient({ baseUrl: `http://127.0.0.1:${port}`, fetch: counting, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 2_000, sleep: async () => undefined });
    expect(await rejection(c.models(KEY))).toBeInstanceOf(NetworkError);
    expect(calls).toEqual(['GET', 'GET', 'GET']);
    calls.length = 0;
    const e = await rejection(c.chat(KEY, chatReq));
    expect(e).toBeInstanceOf(NetworkError);
    expect((e as NetworkError).message).toMatch(/ECONNREFUSED/);
    expect(everyRendering(e)).not.toContain(KEY);
    expect(calls).toEqual(['POST']);
  });
});

describe('Retry-After', () => {
  const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
  const limited = (retryAfter: string): Answer => json(429, { error: { message: 'too many requests', type: 'rate_limit_error', code: 'rate_limited' } }, { 'retry-after': retryAfter });

  it('as delay-seconds: the wait is at least that long (the sleep and the retry report agree)', async () => {
    const { fetchFn, calls } = stub(limited('3'), json(200, COMPLETION));
    const { c, delays, retries } = client(fetchFn, { now: () => NOW });
    await c.chat(KEY, chatReq);
    expect(calls).toHaveLength(2);
    expect(delays).toEqual([3_000]);
    expect(retries.map((r) => r.delayMs)).toEqual([3_000]);
    expect((retries[0]!.error as InferenceError).retryAfterMs).toBe(3_000);
  });

  it('as an HTTP date: the time until then by the client clock', async () => {
    const { fetchFn } = stub(limited(new Date(NOW + 7_000).toUTCString()), json(200, MODELS));
    const { c, delays } = client(fetchFn, { now: () => NOW });
    await c.models(KEY);
    expect(delays).toEqual([7_000]);
  });

  it('an HTTP date already past waits only the backoff', async () => {
    const { fetchFn } = stub(limited(new Date(NOW - 60_000).toUTCString()), json(200, MODELS));
    const { c, delays } = client(fetchFn, { now: () => NOW, random: () => 0.5 });
    await c.models(KEY);
    // Full jitter: 0.5 x the first ceiling (100 ms).
    expect(delays).toEqual([50]);
  });

  it('a backoff longer than the Retry-After wins', async () => {
    const { fetchFn } = stub(limited('1'), json(200, MODELS));
    const { c, delays } = client(fetchFn, { now: () => NOW, random: () => 0.5, retry: { attempts: 2, baseDelayMs: 4_000, maxDelayMs: 8_000 } });
    await c.models(KEY);
    expect(delays).toEqual([2_000]);
  });

  it('capped at maxRetryAfterMs, as seconds and as a date; once spent, the typed 429 is thrown', async () => {
    const seconds = stub(limited('120'), json(200, COMPLETION));
    const s = client(seconds.fetchFn, { now: () => NOW, maxRetryAfterMs: 5_000 });
    await s.c.chat(KEY, chatReq);
    expect(s.delays).toEqual([5_000]);
    expect(s.retries.map((r) => r.delayMs)).toEqual([5_000]);

    const date = stub(limited(new Date(NOW + 3_600_000).toUTCString()));
    const d = client(date.fetchFn, { now: () => NOW, maxRetryAfterMs: 5_000 });
    const e = await rejection(d.c.models(KEY));
    expect(e).toBeInstanceOf(InferenceRateLimitedError);
    expect((e as InferenceError).retryAfterMs).toBe(3_600_000);
    expect(d.delays).toEqual([5_000, 5_000]);
    expect(date.calls).toHaveLength(3);
  });
});

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  return port;
}

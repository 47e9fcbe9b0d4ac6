import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimRequest } from '../../../src/sim/runtime/http.js';
import { startHarness, type Harness, type Json } from './helpers.js';

const KEY = 'sk-sim-default-0001';
const EMPTY = 'sk-sim-empty-0002';
const DISABLED = 'sk-sim-disabled-0003';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const chatBody = (extra: Record<string, unknown> = {}) => ({ model: 'sim-chat-mini', messages: [{ role: 'user', content: 'What is the funding rate?' }], max_tokens: 256, ...extra });
const chat = (body: unknown, key = KEY) => h.post(`${h.inferenceUrl}/v1/chat/completions`, body, auth(key));
const setKey = (body: Record<string, unknown>) => h.post(`${h.server.origin}/sim/companion/inference/keys`, body);
const setHost = (body: Record<string, unknown>) => h.post(`${h.server.origin}/sim/companion/inference/hosts`, body);
const balanceOf = async (key: string): Promise<string> => (await setKey({ key })).body.key.balance;

/** `code: null` means the spec's "(no code)": the body has no `code` member at all (not `code: null`). */
function expectError(r: { status: number; body: Json }, status: number, code: string | null, type?: string) {
  expect(r.status).toBe(status);
  expect(Object.keys(r.body)).toEqual(['error']);
  expect(typeof r.body.error.message).toBe('string');
  expect(r.body.error.message.length).toBeGreaterThan(0);
  expect(typeof r.body.error.type).toBe('string');
  if (code === null) expect(Object.keys(r.body.error).sort()).toEqual(['message', 'type']);
  else expect(r.body.error.code).toBe(code);
  if (type) expect(r.body.error.type).toBe(type);
}

describe('chat completions', () => {
  it('200 with an OpenAI-shaped completion, deterministic content, charged its usage', async () => {
    const r = await chat(chatBody());
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b.id).toMatch(/^chatcmpl-/);
    expect(b.object).toBe('chat.completion');
    expect(b.model).toBe('sim-chat-mini');
    expect(b.choices).toHaveLength(1);
    expect(b.choices[0].message.role).toBe('assistant');
    expect(b.choices[0].message.content).toContain('What is the funding rate?');
    expect(b.choices[0].finish_reason).toBe('stop');
    expect(b.usage.total_tokens).toBe(b.usage.prompt_tokens + b.usage.completion_tokens);
    // 0.15 / 0.60 USD per million tokens.
    const cost = (b.usage.prompt_tokens * 0.15 + b.usage.completion_tokens * 0.6) / 1e6;
    expect(Number(b.usage.cost)).toBeCloseTo(cost, 12);
    expect(Number(await balanceOf(KEY))).toBeCloseTo(10 - cost, 12);

    const again = await chat(chatBody());
    expect(again.body.choices[0].message.content).toBe(b.choices[0].message.content);
    expect(again.body.id).not.toBe(b.id);
  });

  it('truncates to max_tokens with finish_reason length', async () => {
    const r = await chat(chatBody({ max_tokens: 5 }));
    expect(r.body.usage.completion_tokens).toBe(5);
    expect(r.body.choices[0].finish_reason).toBe('length');
    expect(r.body.choices[0].message.content).toHaveLength(20);
  });

  it('accepts text content parts, and image parts on a vision model', async () => {
    const parts = [{ type: 'text', text: 'describe' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }];
    const r = await chat({ model: 'sim-chat-pro', messages: [{ role: 'user', content: parts }], max_tokens: 50 });
    expect(r.status).toBe(200);
    expect(r.body.usage.prompt_tokens).toBeGreaterThan(85);
  });
});

describe('GET /v1/models', () => {
  it('lists the models and reads one', async () => {
    const r = await h.get(`${h.inferenceUrl}/v1/models`, auth(KEY));
    expect(r.status).toBe(200);
    expect(r.body.object).toBe('list');
    expect(r.body.data.map((m: { id: string }) => m.id)).toEqual(['sim-chat-mini', 'sim-chat-pro', 'sim-video-1']);
    const one = await h.get(`${h.inferenceUrl}/v1/models/sim-chat-pro`, auth(KEY));
    expect(one.body).toMatchObject({ id: 'sim-chat-pro', object: 'model' });
  });
});

describe('400 invalid_request', () => {
  it.each([
    ['no model', { messages: [{ role: 'user', content: 'x' }] }],
    ['model not a string', { model: 5, messages: [] }],
    ['no messages', { model: 'sim-chat-mini' }],
    ['empty messages', { model: 'sim-chat-mini', messages: [] }],
    ['bad role', { model: 'sim-chat-mini', messages: [{ role: 'robot', content: 'x' }] }],
    ['content not string or parts', { model: 'sim-chat-mini', messages: [{ role: 'user', content: 5 }] }],
    ['unsupported content type', { model: 'sim-chat-mini', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] }],
    ['image on a model without vision', { model: 'sim-chat-mini', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] }],
    ['max_tokens zero', chatBody({ max_tokens: 0 })],
    ['max_tokens above the model limit', chatBody({ max_tokens: 100_000 })],
    ['n above one', chatBody({ n: 2 })],
    ['stream', chatBody({ stream: true })],
    ['temperature out of range', chatBody({ temperature: 3 })],
    ['too many messages', { model: 'sim-chat-mini', messages: Array.from({ length: 257 }, () => ({ role: 'user', content: 'x' })) }],
    ['prompt beyond the context window', { model: 'sim-chat-mini', messages: [{ role: 'user', content: 'x'.repeat(130_000) }], max_tokens: 1000 }],
    ['video model on chat', { model: 'sim-video-1', messages: [{ role: 'user', content: 'x' }] }],
    ['body not an object', [1, 2]],
  ])('%s', async (_name, body) => {
    const r = await chat(body);
    expectError(r, 400, 'invalid_request', 'invalid_request_error');
    expect(await balanceOf(KEY)).toBe('10');
  });

  it('a body that is not JSON', async () => {
    expectError(await chat('{"model":'), 400, 'invalid_request');
  });

  it('a request that is too large', async () => {
    expectError(await chat({ model: 'sim-chat-mini', messages: [{ role: 'user', content: 'x'.repeat(400_001) }] }), 400, 'invalid_request');
  });
});

describe('401', () => {
  it('invalid_api_key without a key, with a wrong key, a malformed header or a deleted key', async () => {
    expectError(await h.post(`${h.inferenceUrl}/v1/chat/completions`, chatBody()), 401, 'invalid_api_key', 'authentication_error');
    expectError(await chat(chatBody(), 'sk-wrong-key-999'), 401, 'invalid_api_key');
    expectError(await h.post(`${h.inferenceUrl}/v1/chat/completions`, chatBody(), { authorization: KEY }), 401, 'invalid_api_key');
    await setKey({ key: 'sk-sim-temp-0004', balance: '5' });
    expect((await chat(chatBody(), 'sk-sim-temp-0004')).status).toBe(200);
    await setKey({ key: 'sk-sim-temp-0004', deleted: true });
    expectError(await chat(chatBody(), 'sk-sim-temp-0004'), 401, 'invalid_api_key');
  });

  it('key_disabled for a disabled key, until it is enabled', async () => {
    expectError(await chat(chatBody(), DISABLED), 401, 'key_disabled', 'authentication_error');
    expectError(await h.get(`${h.inferenceUrl}/v1/models`, auth(DISABLED)), 401, 'key_disabled');
    await setKey({ key: DISABLED, disabled: false });
    expect((await chat(chatBody(), DISABLED)).status).toBe(200);
  });
});

describe('402 and 403 (never charged)', () => {
  it('402 insufficient_balance with type insufficient_quota when the balance cannot cover prompt plus max_tokens', async () => {
    expectError(await chat(chatBody(), EMPTY), 402, 'insufficient_balance', 'insufficient_quota');
    // 100 prompt-ish tokens and 1000 completion tokens cost about 0.000615 USD.
    await setKey({ key: EMPTY, balance: '0.0005' });
    const refused = await chat(chatBody({ max_tokens: 1000 }), EMPTY);
    expectError(refused, 402, 'insufficient_balance', 'insufficient_quota');
    expect(await balanceOf(EMPTY)).toBe('0.0005');
    // Lowering max_tokens fits the balance.
    const ok = await chat(chatBody({ max_tokens: 100 }), EMPTY);
    expect(ok.status).toBe(200);
  });

  it('403 without a code member when the spending limit is reached; resets with the period', async () => {
    // The first request reserves ~0.00006 USD and spends ~0.00003; the second would reserve ~0.00024.
    await setKey({ key: KEY, spendingLimit: '0.0002' });
    const first = await chat(chatBody({ max_tokens: 100 }));
    expect(first.status).toBe(200);
    const spentOnce = 10 - Number(await balanceOf(KEY));
    const limited = await chat(chatBody({ max_tokens: 400 }));
    expectError(limited, 403, null, 'permission_error');
    expect(10 - Number(await balanceOf(KEY))).toBeCloseTo(spentOnce, 12);
    // A new daily period starts from zero.
    expect((await chat(chatBody({ max_tokens: 100 }))).status).toBe(200);
    expect((await setKey({ key: KEY })).body.key.spent).not.toBe('0');
    h.clock.advance(24 * 3600 * 1000);
    expect((await setKey({ key: KEY })).body.key.spent).toBe('0');
    // Raising the limit lifts the refusal.
    await setKey({ key: KEY, spendingLimit: '1' });
    expect((await chat(chatBody({ max_tokens: 400 }))).status).toBe(200);
  });
});

describe('404 not_found', () => {
  it('for an unknown model (never charged)', async () => {
    expectError(await chat(chatBody({ model: 'gpt-imaginary' })), 404, 'not_found', 'not_found_error');
    expectError(await h.get(`${h.inferenceUrl}/v1/models/gpt-imaginary`, auth(KEY)), 404, 'not_found');
    expect(await balanceOf(KEY)).toBe('10');
  });

  it('for an unknown endpoint or method, with or without a key', async () => {
    expectError(await h.get(`${h.inferenceUrl}/v1/completions`, auth(KEY)), 404, 'not_found');
    expectError(await h.get(`${h.inferenceUrl}/v1/chat/completions`), 404, 'not_found');
    expectError(await h.post(`${h.inferenceUrl}/v2/chat/completions`, chatBody(), auth(KEY)), 404, 'not_found');
  });
});

describe('429 rate_limited: too many requests from the address', () => {
  const OTHER = 'sk-sim-other-0005';

  it('the default window allows 60 requests a minute from an address, whatever the keys', async () => {
    await setKey({ key: OTHER, balance: '1' });
    for (let i = 0; i < 60; i++) expect((await h.get(`${h.inferenceUrl}/v1/models`, auth(i % 2 === 0 ? KEY : OTHER))).status).toBe(200);
    const limited = await h.get(`${h.inferenceUrl}/v1/models`, auth(KEY));
    expectError(limited, 429, 'rate_limited', 'rate_limit_error');
    expect(limited.body.error.message).toMatch(/from this address/);
    expectError(await h.get(`${h.inferenceUrl}/v1/models`, auth(OTHER)), 429, 'rate_limited');
    h.clock.advance(60_000);
    expect((await h.get(`${h.inferenceUrl}/v1/models`, auth(KEY))).status).toBe(200);
  });

  it("the key's own window (control `rateLimit`, a test knob) limits that key alone, never charged", async () => {
    await setKey({ key: KEY, rateLimit: { max: 3, windowMs: 10_000 } });
    for (let i = 0; i < 3; i++) expect((await chat(chatBody())).status).toBe(200);
    const before = await balanceOf(KEY);
    const limited = await chat(chatBody());
    expectError(limited, 429, 'rate_limited', 'rate_limit_error');
    expect(limited.body.error.message).toMatch(/with this key/);
    expect(limited.headers.get('retry-after')).toBe('10');
    expect(await balanceOf(KEY)).toBe(before);
    await setKey({ key: OTHER, balance: '1' });
    expect((await chat(chatBody(), OTHER)).status).toBe(200);
    h.clock.advance(10_000);
    expect((await chat(chatBody())).status).toBe(200);
  });
});

describe('429 per address, before the key is checked (a small window)', () => {
  let small: Harness;
  beforeEach(async () => {
    small = await startHarness({ inference: { rateLimit: { max: 3, windowMs: 10_000 } } });
  });
  afterEach(async () => {
    await small.close();
  });
  const post = (key: string | null) => small.post(`${small.inferenceUrl}/v1/chat/completions`, chatBody(), key === null ? {} : auth(key));

  it('wrong and missing keys fill the window; then every request from the address is 429, even a wrong key; the 429s are not counted', async () => {
    expect((await post(KEY)).status).toBe(200);
    expectError(await post('sk-wrong-key-999'), 401, 'invalid_api_key');
    expectError(await post(null), 401, 'invalid_api_key');
    const limited = await post(KEY);
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('10');
    // Before authentication: a wrong key, a disabled key and no key get the 429, not their 401.
    expectError(await post('sk-wrong-key-999'), 429, 'rate_limited');
    expectError(await post(DISABLED), 429, 'rate_limited');
    expectError(await post(null), 429, 'rate_limited');
    // The refused requests did not extend the window: it frees 10 s after the first three.
    small.clock.advance(10_000);
    for (let i = 0; i < 3; i++) expect((await post(KEY)).status).toBe(200);
    expectError(await post(KEY), 429, 'rate_limited');
  });

  it('each client address has its own window (the peer address the router hands on; IPv4-mapped is the same client)', async () => {
    const at = async (remoteAddress: string | undefined): Promise<number> => {
      const req: SimRequest = {
        method: 'GET',
        path: '/v1/models',
        query: new URLSearchParams(),
        body: undefined,
        rawBody: '',
        headers: { authorization: `Bearer ${KEY}` },
        ...(remoteAddress !== undefined ? { remoteAddress } : {}),
      };
      const r = await small.companions.inference.handle(req);
      if (r === null) throw new Error('no answer');
      return r.status;
    };
    for (let i = 0; i < 3; i++) expect(await at('10.0.0.1')).toBe(200);
    expect(await at('10.0.0.1')).toBe(429);
    expect(await at('::ffff:10.0.0.1')).toBe(429);
    for (let i = 0; i < 3; i++) expect(await at('10.0.0.2')).toBe(200);
    expect(await at('10.0.0.2')).toBe(429);
    // No peer address: loopback's window (the simulator serves 127.0.0.1 only), apart from the others.
    expect(await at(undefined)).toBe(200);
    expect(await at('127.0.0.1')).toBe(200);
    expect(await at('::ffff:127.0.0.1')).toBe(200);
    expect(await at(undefined)).toBe(429);
  });
});

describe('host failover', () => {
  it('a failing host is retried on another host of the same model', async () => {
    await setHost({ model: 'sim-chat-mini', host: 'host-a', up: false, failure: 'error' });
    for (let i = 0; i < 3; i++) {
      const r = await chat(chatBody());
      expect(r.status).toBe(200);
      expect(r.headers.get('x-sim-host')).toBe('host-b');
    }
  });

  it('503 host_unavailable when no host answers, 502 when hosts answer with errors; not charged', async () => {
    await setHost({ model: 'sim-chat-mini', host: 'host-a', up: false });
    await setHost({ model: 'sim-chat-mini', host: 'host-b', up: false });
    const r503 = await chat(chatBody());
    expectError(r503, 503, 'host_unavailable', 'server_error');
    // The host's own error text is never passed on.
    expect(r503.body.error.message).not.toMatch(/host-a|host-b/);
    await setHost({ model: 'sim-chat-mini', host: 'host-b', up: false, failure: 'error' });
    expectError(await chat(chatBody()), 502, 'host_unavailable', 'server_error');
    expect(await balanceOf(KEY)).toBe('10');
    // Single-host model.
    await setHost({ model: 'sim-chat-pro', host: 'host-c', up: false });
    expectError(await chat(chatBody({ model: 'sim-chat-pro' })), 503, 'host_unavailable');
    // Back up.
    await setHost({ model: 'sim-chat-mini', host: 'host-a', up: true });
    expect((await chat(chatBody())).status).toBe(200);
  });

  it('a host failing partway is charged for its work; the total never exceeds the reservation', async () => {
    await setHost({ model: 'sim-chat-mini', host: 'host-a', up: false, failure: 'partial' });
    await setHost({ model: 'sim-chat-mini', host: 'host-b', up: false, failure: 'partial' });
    const failed = await chat(chatBody({ max_tokens: 64 }));
    expectError(failed, 502, 'host_unavailable');
    const charged = 10 - Number(await balanceOf(KEY));
    expect(charged).toBeGreaterThan(0);

    await setHost({ model: 'sim-chat-mini', host: 'host-b', up: true });
    const before = Number(await balanceOf(KEY));
    const ok = await chat(chatBody({ max_tokens: 64 }));
    expect(ok.status).toBe(200);
    const spent = before - Number(await balanceOf(KEY));
    expect(spent).toBeCloseTo(Number(ok.body.usage.cost), 12);
    const reserve = (ok.body.usage.prompt_tokens * 0.15 + 64 * 0.6) / 1e6;
    expect(spent).toBeLessThanOrEqual(reserve + 1e-15);
  });

  it('control rejects unknown hosts and models', async () => {
    expect((await setHost({ model: 'sim-chat-mini', host: 'host-z', up: false })).status).toBe(404);
    expect((await setHost({ model: 'nope', host: 'host-a', up: false })).status).toBe(404);
    expect((await setHost({ model: 'sim-chat-mini', host: 'host-a' })).status).toBe(400);
    expect((await setKey({ key: 'short' })).status).toBe(400);
    expect((await setKey({ key: KEY, balance: '-1' })).status).toBe(400);
  });
});

describe('videos', () => {
  it('409 video_not_ready until rendered, then the completed video; charged at acceptance', async () => {
    const created = await h.post(`${h.inferenceUrl}/v1/videos`, { model: 'sim-video-1', prompt: 'a candle chart at dawn', seconds: 4 }, auth(KEY));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ object: 'video', status: 'queued', progress: 0, model: 'sim-video-1', seconds: '4' });
    expect(await balanceOf(KEY)).toBe('9.6');
    const url = `${h.inferenceUrl}/v1/videos/${created.body.id}`;

    expectError(await h.get(url, auth(KEY)), 409, 'video_not_ready', 'invalid_request_error');
    h.clock.advance(10_000);
    const mid = await h.get(url, auth(KEY));
    expectError(mid, 409, 'video_not_ready');
    expect(mid.body.error.message).toMatch(/in_progress, 50%/);
    h.clock.advance(10_000);
    const done = await h.get(url, auth(KEY));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: created.body.id, status: 'completed', progress: 100 });
    expect(await balanceOf(KEY)).toBe('9.6');
  });

  it('404 for an unknown video or one created by another key', async () => {
    expectError(await h.get(`${h.inferenceUrl}/v1/videos/video_nope`, auth(KEY)), 404, 'not_found');
    const created = await h.post(`${h.inferenceUrl}/v1/videos`, { model: 'sim-video-1', prompt: 'x' }, auth(KEY));
    await setKey({ key: 'sk-sim-other-0006', balance: '1' });
    expectError(await h.get(`${h.inferenceUrl}/v1/videos/${created.body.id}`, auth('sk-sim-other-0006')), 404, 'not_found');
  });

  it('a video host failing partway is charged half the price; with failover the total is the price', async () => {
    const create = () => h.post(`${h.inferenceUrl}/v1/videos`, { model: 'sim-video-1', prompt: 'a chart', seconds: 4 }, auth(KEY));
    await setHost({ model: 'sim-video-1', host: 'host-v1', up: false, failure: 'partial' });
    await setHost({ model: 'sim-video-1', host: 'host-v2', up: false, failure: 'unreachable' });
    // 4 s at 0.10 USD/s = 0.4; host-v1 rendered half the clip before failing (0.2), host-v2 did nothing.
    expectError(await create(), 502, 'host_unavailable');
    expect(await balanceOf(KEY)).toBe('9.8');
    // Unreachable hosts did no work: not charged.
    await setHost({ model: 'sim-video-1', host: 'host-v1', up: false, failure: 'unreachable' });
    expectError(await create(), 503, 'host_unavailable');
    expect(await balanceOf(KEY)).toBe('9.8');
    // One host fails partway, the other renders: the price, once, whichever host is tried first.
    await setHost({ model: 'sim-video-1', host: 'host-v1', up: false, failure: 'partial' });
    await setHost({ model: 'sim-video-1', host: 'host-v2', up: true });
    for (const balance of ['9.4', '9']) {
      const ok = await create();
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-sim-host')).toBe('host-v2');
      expect(await balanceOf(KEY)).toBe(balance);
    }
  });

  it('validates the video request and fails over between video hosts', async () => {
    expectError(await h.post(`${h.inferenceUrl}/v1/videos`, { model: 'sim-video-1' }, auth(KEY)), 400, 'invalid_request');
    expectError(await h.post(`${h.inferenceUrl}/v1/videos`, { model: 'sim-video-1', prompt: 'x', seconds: 99 }, auth(KEY)), 400, 'invalid_request');
    expectError(await h.post(`${h.inferenceUrl}/v1/videos`, { model: 'sim-chat-mini', prompt: 'x' }, auth(KEY)), 400, 'invalid_request');
    expectError(await h.post(`${h.inferenceUrl}/v1/videos`, { model: 'sim-video-1', prompt: 'x', seconds: 20 }, auth(EMPTY)), 402, 'insufficient_balance', 'insufficient_quota');
    await setHost({ model: 'sim-video-1', host: 'host-v1', up: false });
    const r = await h.post(`${h.inferenceUrl}/v1/videos`, { model: 'sim-video-1', prompt: 'x' }, auth(KEY));
    expect(r.status).toBe(200);
    expect(r.headers.get('x-sim-host')).toBe('host-v2');
    await setHost({ model: 'sim-video-1', host: 'host-v2', up: false });
    expectError(await h.post(`${h.inferenceUrl}/v1/videos`, { model: 'sim-video-1', prompt: 'x' }, auth(KEY)), 503, 'host_unavailable');
  });
});

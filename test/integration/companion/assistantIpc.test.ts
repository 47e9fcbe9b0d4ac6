/**
 * The assistant through the REAL IPC handlers (AppCore on the sim profile, the real OS keychain): only chat
 * models are offered and accepted, and the inference key never travels back. A fetch between the app and the
 * simulator makes every inference error answer quote the key the request carried (as some services do), so
 * the key-leak check has something to catch: from setting a key through asking and clearing it, no IPC
 * response, no event and no log line holds the key or any 8 characters of it in a row.
 *
 * Each test builds what it needs: the first wants an app that never had a key (its own, when the shared one
 * had), the second sets a key when none is set (issue 37: none relies on another having run first).
 */
import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ASSISTANT_MAX_TOKENS } from '../../../src/main/services/assistant/index.js';
import { wipeService } from '../../support/keychain.js';
import { AppHarness } from '../app/appHarness.js';

const MAIN = 'PERPS_ASSISTANT_IPC_MAIN_KEY';
const GOOD = `sk-ipc-${randomBytes(12).toString('hex')}`;
const WRONG = `sk-ipc-${randomBytes(12).toString('hex')}`;
/** The shortest run of a key that counts as a leak (the client cuts runs this long). */
const RUN = 8;

/** Whether `text` holds `key` or any RUN characters of it in a row. */
function leaks(text: string, key: string): boolean {
  for (let i = 0; i + RUN <= key.length; i++) if (text.includes(key.slice(i, i + RUN))) return true;
  return false;
}

/** Inference error answers get the presented key appended to their message; everything else passes. */
let echoed = 0;
const echoingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!new URL(url).pathname.startsWith('/inference/') || res.status < 400) return res;
  const auth = (init?.headers as Record<string, string> | undefined)?.['authorization'] ?? '';
  const body = (await res.json()) as { error: { message: string } };
  body.error.message = `${body.error.message} (you sent ${auth.replace(/^Bearer /, '')})`;
  echoed++;
  return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
};

describe('the assistant through the IPC handlers', () => {
  const main = Wallet.createRandom();
  let h: AppHarness;

  async function setSimKey(body: Record<string, unknown>, app: AppHarness = h): Promise<void> {
    const origin = new URL(app.core.profile!.baseUrl).origin;
    const res = await fetch(`${origin}/sim/companion/inference/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBe(200);
  }

  /** An app on the sim profile, its wallet connected, the simulator's inference service knowing GOOD with a balance of 5. */
  async function setUp(label: string): Promise<AppHarness> {
    const app = await AppHarness.start(label, { env: { [MAIN]: main.privateKey }, core: { fetch: echoingFetch } });
    await app.call('wallet:connectEnv', { variable: MAIN });
    await setSimKey({ key: GOOD, balance: '5' }, app);
    return app;
  }
  async function tearDown(app: AppHarness): Promise<void> {
    await app.stop();
    await wipeService(`${app.keychainService}.inference`);
    app.cleanup();
  }

  beforeAll(async () => {
    h = await setUp('assistant-ipc');
  });
  afterAll(async () => {
    if (h) await tearDown(h);
  });

  it('chat models only: a stored video model is replaced when a key is set, listed models are chat models, a video model is refused', async () => {
    // An app that never had a key or a model: the shared one, unless a test set them there.
    const untouched = await h.call('assistant:status', {});
    const own = untouched.enabled === false && untouched.model === null ? null : await setUp('assistant-ipc-fresh');
    try {
      await chatModelsOnly(own ?? h);
    } finally {
      if (own) await tearDown(own);
    }
  });

  async function chatModelsOnly(h: AppHarness): Promise<void> {
    expect(await h.call('assistant:status', {})).toMatchObject({ enabled: false, model: null });
    // Without a key nothing can be checked: stored as given.
    expect((await h.call('assistant:setModel', { model: 'sim-video-1' })).model).toBe('sim-video-1');

    // A refused key: nothing stored, and the service's quote of it is cut from the error.
    const refused = await h.fail('assistant:setKey', { api_key: WRONG });
    expect(refused.code).toBe('INFERENCE_INVALID_API_KEY');
    expect(refused.message).toContain('[redacted]');
    expect((await h.call('assistant:status', {})).enabled).toBe(false);

    const on = await h.call('assistant:setKey', { api_key: GOOD });
    expect(on).toMatchObject({ enabled: true, model: 'sim-chat-mini' });
    expect(h.logs.join('\n')).toMatch(/model sim-video-1 is not a chat model/);
    expect((await h.call('assistant:models', {})).models).toEqual(['sim-chat-mini', 'sim-chat-pro']);

    const video = await h.fail('assistant:setModel', { model: 'sim-video-1' });
    expect(video).toMatchObject({ code: 'VALIDATION', field: 'model' });
    expect((await h.fail('assistant:setModel', { model: 'no-such-model' })).field).toBe('model');
    expect((await h.call('assistant:status', {})).model).toBe('sim-chat-mini');
    expect((await h.call('assistant:setModel', { model: 'sim-chat-pro' })).model).toBe('sim-chat-pro');
    expect((await h.call('assistant:setModel', { model: 'sim-chat-mini' })).model).toBe('sim-chat-mini');
  }

  it('asks, meets a 402 with an actionable hint, and is cleared; the key is in no IPC response, event or log line', async () => {
    // Both keys go in through this app whatever ran before: a refused one, then the good one when none is set.
    expect((await h.fail('assistant:setKey', { api_key: WRONG })).code).toBe('INFERENCE_INVALID_API_KEY');
    await setSimKey({ key: GOOD, balance: '5' });
    if (!(await h.call('assistant:status', {})).enabled) await h.call('assistant:setKey', { api_key: GOOD });
    await h.call('assistant:setModel', { model: 'sim-chat-mini' });
    const a = await h.call('assistant:ask', { question: 'Which positions do I hold?' });
    expect(a.model).toBe('sim-chat-mini');
    expect(a.answer).toMatch(/Simulated reply/);

    await setSimKey({ key: GOOD, balance: '0' });
    const poor = await h.fail('assistant:ask', { question: 'Which positions do I hold?' });
    expect(poor.code).toBe('INFERENCE_INSUFFICIENT_BALANCE');
    expect(poor.hint).toMatch(/^Deposit to your inference account/);
    expect(poor.hint).toContain(`${DEFAULT_ASSISTANT_MAX_TOKENS} tokens`);
    expect(poor.message).toContain('[redacted]');

    expect((await h.call('assistant:clearKey', {})).enabled).toBe(false);
    expect((await h.fail('assistant:ask', { question: 'anything?' })).code).toBe('ASSISTANT_OFF');
    expect((await h.fail('assistant:models', {})).code).toBe('ASSISTANT_OFF');

    // The check has teeth: the service quoted both keys, and the recorder saw the key go in.
    expect(echoed).toBeGreaterThanOrEqual(2);
    const assistantCalls = h.exchanges.filter((x) => x.channel.startsWith('assistant:'));
    expect(assistantCalls.some((x) => JSON.stringify(x.payload).includes(GOOD))).toBe(true);
    expect(assistantCalls.some((x) => JSON.stringify(x.payload).includes(WRONG))).toBe(true);
    expect(assistantCalls.some((x) => !x.result.ok)).toBe(true);

    for (const key of [GOOD, WRONG]) {
      for (const x of h.exchanges) expect(leaks(JSON.stringify(x.result), key), `${x.channel} response`).toBe(false);
      for (const e of h.events) expect(leaks(JSON.stringify(e.payload), key), `${e.channel} event`).toBe(false);
      for (const line of h.logs) expect(leaks(line, key), `log line: ${line.slice(0, 80)}`).toBe(false);
    }
  });
});

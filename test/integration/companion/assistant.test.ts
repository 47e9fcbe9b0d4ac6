/**
 * The assistant against the simulator with a real trading account: the inference API key in the REAL OS
 * keychain (a Secret Service; a keychain service unique to this file, wiped afterwards), off until a key is
 * set, and a question answered with a compact summary of the user's own positions, orders and fills built
 * from the account reads. The key never reaches the settings store or a request body.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InferenceClient } from '../../../src/main/api/companion/index.js';
import {
  Assistant,
  AssistantOffError,
  DEFAULT_ASSISTANT_MAX_TOKENS,
  InferenceKeyStore,
  INFERENCE_KEY_ACCOUNT,
  accountReadsOf,
  buildAccountContext,
  chatModelIds,
  setAssistantModel,
} from '../../../src/main/services/assistant/index.js';
import { InferenceInsufficientBalanceError } from '../../../src/main/api/companion/index.js';
import { OperationError, ValidationError } from '../../../src/main/services/errors.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import { VaultError } from '../../../src/main/vault/vaultError.js';
import { rawKeytar, testService, wipeService } from '../../support/keychain.js';
import { TradingWorld, priceAt, sizeFor } from '../orders/tradingWorld.js';

const SYM = 'BTC';
const KEY = 'sk-sim-default-0001';
let w: TradingWorld;
let service: string;
let store: InferenceKeyStore;
const bodies: string[] = [];
const authHeaders: string[] = [];

beforeAll(async () => {
  w = await TradingWorld.boot('assistant');
  service = testService('inference-key');
  store = new InferenceKeyStore({ service });
}, 60_000);
afterAll(async () => {
  await wipeService(service);
  await w?.stop();
});

function inference(): InferenceClient {
  return new InferenceClient({
    baseUrl: w.sim.urls.inference_url,
    fetch: async (input, init) => {
      if (typeof init?.body === 'string') bodies.push(init.body);
      const h = init?.headers as Record<string, string> | undefined;
      if (h?.['authorization']) authHeaders.push(h['authorization']);
      return fetch(input, init);
    },
    sleep: (ms) => w.advance(ms),
  });
}

describe('the inference API key in the OS keychain', () => {
  it('set, has, clear; stored under its own keychain service and entry, never in settings', async () => {
    await store.clear();
    expect(await store.has()).toBe(false);
    await store.set(`  ${KEY}  `);
    expect(await store.has()).toBe(true);
    expect(await rawKeytar.getPassword(service, INFERENCE_KEY_ACCOUNT)).toBe(KEY);
    expect((await rawKeytar.findCredentials(service)).map((c) => c.account)).toEqual([INFERENCE_KEY_ACCOUNT]);
    expect(fs.existsSync(w.ctx.settings.path) ? fs.readFileSync(w.ctx.settings.path, 'utf8') : '').not.toContain(KEY);
    expect(JSON.stringify(store)).not.toContain(KEY);
    await expect(store.set('   ')).rejects.toBeInstanceOf(VaultError);
    await expect(store.set('two words')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await store.clear()).toBe(true);
    expect(await store.has()).toBe(false);
    expect(await store.clear()).toBe(false);
  });
});

describe('the assistant', () => {
  it('is off until a key is set: a typed error, and nothing is read or sent', async () => {
    // No key, whatever another test left in the keychain.
    await store.clear();
    const assistant = new Assistant({ inference: inference(), keys: store, reads: accountReadsOf(w.ctx), model: 'sim-chat-mini' });
    expect(await assistant.isOn()).toBe(false);
    const before = { reqs: w.requests.length, bodies: bodies.length };
    const err = await assistant.ask({ wallet: '0x0000000000000000000000000000000000000001', question: 'What is my PnL?' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AssistantOffError);
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).code).toBe('ASSISTANT_OFF');
    expect(w.requests.length).toBe(before.reqs);
    expect(bodies.length).toBe(before.bodies);
  });

  it("answers a question about the user's own position, open order and fills from the account reads", async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const entry = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark, 3), leverage: 5 }] }, { wait: true });
    expect(entry.legs[0]!.final?.status).toBe('FILLED');
    await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined, 'position');
    const limitPrice = priceAt(m, mark, 0.8);
    await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', time_in_force: 'GTC', limit_price: limitPrice, leverage: 5 }] }, { wait: true });

    const context = await buildAccountContext(accountReadsOf(w.ctx), t.wallet);
    expect(context.counts.positions).toBe(1);
    expect(context.counts.openOrders).toBe(1);
    expect(context.counts.fills).toBeGreaterThan(0);
    const summary = JSON.parse(context.text) as { positions: { market: string; side: string }[]; open_orders: { price: string }[] };
    expect(summary.positions[0]).toMatchObject({ market: SYM, side: 'long' });
    expect(summary.open_orders[0]?.price).toBe(limitPrice);

    await store.set(KEY);
    setAssistantModel(w.ctx.settings, 'sim-chat-mini');
    const assistant = new Assistant({ inference: inference(), keys: store, reads: accountReadsOf(w.ctx), settings: w.ctx.settings });
    expect(await assistant.isOn()).toBe(true);
    const sentBefore = bodies.length;
    const answer = await assistant.ask({ wallet: t.wallet, question: 'How big is my BTC position?' });
    expect(answer.answer).toMatch(/Simulated reply/);
    expect(answer.model).toBe('sim-chat-mini');
    expect(answer.context).toEqual({ positions: 1, openOrders: 1, fills: context.counts.fills });
    const sent = bodies.slice(sentBefore);
    expect(sent).toHaveLength(1);
    const body = JSON.parse(sent[0]!) as { model: string; max_tokens?: number; messages: { role: string; content: string }[] };
    expect(body.model).toBe('sim-chat-mini');
    // Every question states its longest answer, so the service reserves a known, small amount.
    expect(body.max_tokens).toBe(DEFAULT_ASSISTANT_MAX_TOKENS);
    expect(body.messages[0]?.role).toBe('system');
    expect(body.messages[1]?.content).toContain('How big is my BTC position?');
    expect(body.messages[1]?.content).toContain(`"market":"${SYM}"`);
    expect(body.messages[1]?.content).toContain(limitPrice);
    // The key went in the Authorization header only: never in a body, never in settings.
    expect(authHeaders.at(-1)).toBe(`Bearer ${KEY}`);
    expect(sent[0]).not.toContain(KEY);
    expect(fs.readFileSync(w.ctx.settings.path, 'utf8')).not.toContain(KEY);
  });

  it('inference failures reach the caller as INFERENCE_<KIND> with the action; bad questions are refused locally', async () => {
    await store.set('sk-not-a-key-at-all');
    const assistant = new Assistant({ inference: inference(), keys: store, reads: accountReadsOf(w.ctx), model: 'sim-chat-mini' });
    const t = await w.trader(null);
    const err = (await assistant.ask({ wallet: t.wallet, question: 'anything?' }).catch((e: unknown) => e)) as OperationError;
    expect(err).toBeInstanceOf(OperationError);
    expect(err.code).toBe('INFERENCE_INVALID_API_KEY');
    expect(err.hint).toMatch(/Check the API key/);
    expect(err.message).not.toContain('sk-not-a-key-at-all');
    await expect(assistant.ask({ wallet: t.wallet, question: '   ' })).rejects.toBeInstanceOf(ValidationError);
    const noModel = new Assistant({ inference: inference(), keys: store, reads: accountReadsOf(w.ctx) });
    await expect(noModel.ask({ wallet: t.wallet, question: 'hi' })).rejects.toMatchObject({ field: 'model' });
    await store.clear();
  });
});

describe('the assistant and the inference catalogue and balance', () => {
  it('offers chat models only: the simulator also lists a video model, which refuses chat', async () => {
    const list = await inference().models(KEY);
    expect(list.data.map((m) => m.id)).toContain('sim-video-1');
    expect(chatModelIds(list)).toEqual(['sim-chat-mini', 'sim-chat-pro']);
    // A catalogue that states no kind (the spec shows only ids) is taken as chat models.
    expect(chatModelIds({ data: [{ id: 'a' }, { id: 'b', kind: 'embedding' }, { id: 'c', kind: 'chat' }] })).toEqual(['a', 'c']);
  });

  it('max_tokens is an option; a 402 hint names the deposit and the answer length the question reserved', async () => {
    const t = await w.trader(null);
    const key = `sk-assistant-poor-${process.pid}`;
    const control = await fetch(`${w.sim.urls.companion_control_url}/inference/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key, balance: '0' }) });
    expect(control.status).toBe(200);
    await store.set(key);
    try {
      const sentBefore = bodies.length;
      const assistant = new Assistant({ inference: inference(), keys: store, reads: accountReadsOf(w.ctx), model: 'sim-chat-mini', maxTokens: 200 });
      const err = (await assistant.ask({ wallet: t.wallet, question: 'What is my margin?' }).catch((e: unknown) => e)) as OperationError;
      expect(err).toBeInstanceOf(OperationError);
      expect(err.code).toBe('INFERENCE_INSUFFICIENT_BALANCE');
      expect(err.status).toBe(402);
      expect(err.cause).toBeInstanceOf(InferenceInsufficientBalanceError);
      expect(err.hint).toMatch(/^Deposit to your inference account/);
      expect(err.hint).toContain('200 tokens');
      // The spec's "lower max_tokens" is no action a user of the app can take.
      expect(err.hint).not.toMatch(/max_tokens/);
      expect((JSON.parse(bodies[sentBefore]!) as { max_tokens: number }).max_tokens).toBe(200);
      expect(err.message).not.toContain(key);
    } finally {
      await store.clear();
    }
  });
});

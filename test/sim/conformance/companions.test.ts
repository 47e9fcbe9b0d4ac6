/**
 * The companion interfaces' contracts as the spec states them: bridge quote/encode/track and its error
 * bodies, the points estimate and leaderboard shapes, and the inference error body.
 * Spec: "Bridge API", "Bridge request id", "Points API", "Errors > Bridge API", "Errors > Inference API".
 */
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ctx, newWallet, type J } from './support/fixtures.js';
import { Http, describeRes, type Query } from './support/client.js';

const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const PROTOCOL_IDS = ['rail_canonical', 'rail_native_assets', 'rail_fast', 'rail_size', 'rail_gas', 'core_bridge', 'core_spot_swap', 'swap_evm', 'swap_aggregator', 'swap_wrap'];
/** Cross-chain rails and swap legs (the venue-native spot swap leg selects the core-spot flow). */
const CROSS_CHAIN = PROTOCOL_IDS.filter((p) => p !== 'core_spot_swap').join(',');

let ctx: Ctx;
let bridge: Http;
let points: Http;
let inference: Http;
beforeAll(async () => {
  ctx = await Ctx.boot();
  const urls = (ctx.sim as { urls: Record<string, string> }).urls;
  bridge = new Http(urls.bridge_url!);
  points = new Http(urls.platform_url!);
  inference = new Http(urls.inference_url!);
});
afterAll(async () => {
  await ctx?.stop();
});

function quoteQuery(extra: Query = {}): Query {
  return { fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE, toToken: NATIVE, amount: '1000000000000000000', protocols: CROSS_CHAIN, ...extra };
}

describe('bridge quote', () => {
  it('quote elements carry amountOut (integer string) and crossProtocol.id (a protocol id)', async () => {
    const w = newWallet().address;
    const res = await bridge.get('/quote', quoteQuery({ sender: w, receiver: w }));
    expect(res.status, describeRes(res)).toBe(200);
    const data = res.body.data as J[];
    expect(data.length).toBeGreaterThan(0);
    for (const q of data) {
      expect(q.amountOut).toMatch(/^(0|[1-9]\d*)$/);
      expect(PROTOCOL_IDS).toContain(q.crossProtocol.id);
    }
    expect(typeof res.body.requestId).toBe('string');
  });

  it('without sender and receiver the call only fetches rates: no requestId', async () => {
    const res = await bridge.get('/quote', quoteQuery());
    expect(res.status, describeRes(res)).toBe(200);
    expect(res.body.requestId ?? null).toBeNull();
  });

  it("an unrecognized chain id: 400 { error: 'chain not found' }", async () => {
    for (const bad of [{ fromChain: 'solana' }, { toChain: 'Arbitrum' }]) {
      const res = await bridge.get('/quote', quoteQuery(bad));
      expect(res.status, describeRes(res)).toBe(400);
      expect(res.body).toEqual({ error: 'chain not found' });
    }
  });
});

describe('bridge encode and request id lifetime', () => {
  async function freshRequestId(): Promise<string> {
    const w = newWallet().address;
    const res = await bridge.get('/quote', quoteQuery({ sender: w, receiver: w }));
    expect(res.status, describeRes(res)).toBe(200);
    return res.body.requestId as string;
  }

  it('encodes within 30 s: { status: ok, data: { to, value, data } only, requestId: a new id }', async () => {
    const id = await freshRequestId();
    await ctx.advance(29_000);
    const res = await bridge.post('/encode', { requestId: id, quoteIdx: 0 });
    expect(res.status, describeRes(res)).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(Object.keys(res.body.data).sort()).toEqual(['data', 'to', 'value']);
    expect(getAddress(res.body.data.to)).toBeTruthy();
    expect(res.body.data.data).toMatch(/^0x[0-9a-fA-F]*$/);
    expect(typeof res.body.requestId).toBe('string');
    expect(res.body.requestId).not.toBe(id);
  });

  it("a requestId older than 30 s: 400 { error: 'no quotes found' }", async () => {
    const id = await freshRequestId();
    await ctx.advance(30_001);
    const res = await bridge.post('/encode', { requestId: id, quoteIdx: 0 });
    expect(res.status, describeRes(res)).toBe(400);
    expect(res.body).toEqual({ error: 'no quotes found' });
  });

  it("an unknown requestId: 400 { error: 'no quotes found' }", async () => {
    const res = await bridge.post('/encode', { requestId: 'never-issued', quoteIdx: 0 });
    expect(res.status, describeRes(res)).toBe(400);
    expect(res.body).toEqual({ error: 'no quotes found' });
  });

  it('tracking an unknown source transaction answers an empty orders array', async () => {
    const res = await bridge.get('/bridge/orders', { src_tx: '0x' + 'ab'.repeat(32) });
    expect(res.status, describeRes(res)).toBe(200);
    expect(res.body.orders).toEqual([]);
  });
});

describe('points', () => {
  const estimateQuery = (user: string): Query => ({
    user,
    src_chain: 'arbitrum',
    dst_chain: 'base',
    src_token: NATIVE,
    dst_token: NATIVE,
    src_usd: '1000',
    dst_usd: '999',
    from: Math.floor(ctx.now() / 1000),
    source: 'perpsdesk',
  });

  it('estimate answers { point: number, partnerBonus: number }', async () => {
    const res = await points.get('/v1/point/estimate', estimateQuery(newWallet().address));
    expect(res.status, describeRes(res)).toBe(200);
    expect(typeof res.body.point).toBe('number');
    expect(typeof res.body.partnerBonus).toBe('number');
  });

  it('estimate: every parameter is required', async () => {
    const full = estimateQuery(newWallet().address);
    for (const k of Object.keys(full)) {
      const q = { ...full, [k]: undefined };
      const res = await points.get('/v1/point/estimate', q);
      expect(res.status, `${k}: ${describeRes(res)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('leaderboard carries total.point and total.pointPartnerBonuses', async () => {
    const now = Math.floor(ctx.now() / 1000);
    const res = await points.get('/v1/point/leaderboard', { user: newWallet().address, from: now - 86_400, to: now });
    expect(res.status, describeRes(res)).toBe(200);
    expect(typeof res.body.total.point).toBe('number');
    expect(typeof res.body.total.pointPartnerBonuses).toBe('object');
  });
});

describe('inference error body', () => {
  it('no key: 401 invalid_api_key in { error: { message, type, code } }', async () => {
    const res = await inference.post('/v1/chat/completions', { model: 'x', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status, describeRes(res)).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'invalid_api_key' });
    expect(typeof res.body.error.message).toBe('string');
    expect(typeof res.body.error.type).toBe('string');
  });

  it('a wrong key: 401 invalid_api_key', async () => {
    const r = await fetch(inference.root + '/v1/models', { headers: { authorization: 'Bearer sk-not-a-key' } });
    expect(r.status).toBe(401);
    const body = (await r.json()) as J;
    expect(body.error.code).toBe('invalid_api_key');
  });

  it('no such endpoint: 404 not_found', async () => {
    const res = await inference.get('/v1/no-such-endpoint');
    expect(res.status, describeRes(res)).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found' });
    expect(typeof res.body.error.message).toBe('string');
    expect(typeof res.body.error.type).toBe('string');
  });

  it('spending limit reached: 403 with no code (the body has no code member)', async () => {
    const urls = (ctx.sim as { urls: Record<string, string> }).urls;
    const key = 'sk-conformance-limit-0001';
    const setKey = await fetch(`${urls.companion_control_url}/inference/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key, balance: '1', spendingLimit: '0' }) });
    expect(setKey.status).toBe(200);
    const r = await fetch(inference.root + '/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'sim-chat-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 }),
    });
    expect(r.status).toBe(403);
    const body = (await r.json()) as J;
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['message', 'type']);
    expect(typeof body.error.message).toBe('string');
  });
});

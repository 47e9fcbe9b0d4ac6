import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_TOKEN, defaultCompanionConfig } from '../../../src/sim/companion/index.js';
import { alice, bob, qs, START, startHarness, type Harness } from './helpers.js';

const cfg = defaultCompanionConfig();
const ARB_USDC = cfg.tokens.find((t) => t.chain === 'arbitrum' && t.symbol === 'USDC')?.address ?? '';
const CORE_USDC = cfg.tokens.find((t) => t.chain === 'venue_core' && t.symbol === 'USDC')?.address ?? '';
const ETH = 10n ** 18n;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const est = { user: alice.address, src_chain: 'arbitrum', dst_chain: 'arbitrum', src_token: NATIVE_TOKEN, dst_token: ARB_USDC, src_usd: '1000', dst_usd: '990.5', from: String(START / 1000), source: 'someone' };
const estimate = (p: Record<string, string | undefined>) => h.get(`${h.platformUrl}/v1/point/estimate?${qs(p)}`);
const leaderboard = (p: Record<string, string | undefined>) => h.get(`${h.platformUrl}/v1/point/leaderboard?${qs(p)}`);

describe('GET /v1/point/estimate', () => {
  it.each(['user', 'src_chain', 'dst_chain', 'src_token', 'dst_token', 'src_usd', 'dst_usd', 'from', 'source'])('400 naming %s when it is missing', async (name) => {
    const r = await estimate({ ...est, [name]: undefined });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `missing required parameter: ${name}` });
  });

  it.each([
    ['user', '0x12', /invalid user/],
    ['src_chain', 'Arbitrum', /invalid src_chain: chain not found/],
    ['dst_chain', 'solana', /invalid dst_chain: chain not found/],
    ['src_token', 'ETH', /invalid src_token/],
    ['dst_token', '0x1', /invalid dst_token/],
    ['src_usd', '-5', /invalid src_usd/],
    ['dst_usd', '1e3', /invalid dst_usd/],
    ['from', '1.5', /invalid from/],
    ['from', 'yesterday', /invalid from/],
  ])('400 for %s=%s', async (name, value, msg) => {
    const r = await estimate({ ...est, [name]: value });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(msg);
  });

  it('base points from the smaller USD side, no bonus for an unknown partner code', async () => {
    const r = await estimate(est);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ point: 990.5, partnerBonus: 0 });
  });

  it('cross-chain multiplier and partner bonus for a known code', async () => {
    const r = await estimate({ ...est, dst_chain: 'venue_core', dst_token: CORE_USDC, source: 'perpsdesk' });
    // 990.5 x 1.5 = 1485.75; bonus 10% = 148.57 (2 dp, rounded down).
    expect(r.body).toEqual({ point: 1485.75, partnerBonus: 148.57 });
    const alpha = await estimate({ ...est, source: 'alpha' });
    expect(alpha.body).toEqual({ point: 990.5, partnerBonus: 49.52 });
  });

  it('is deterministic and returns JSON numbers', async () => {
    const a = await estimate({ ...est, source: 'perpsdesk' });
    const b = await estimate({ ...est, source: 'perpsdesk' });
    expect(a.body).toEqual(b.body);
    expect(typeof a.body.point).toBe('number');
    expect(typeof a.body.partnerBonus).toBe('number');
  });
});

describe('GET /v1/point/leaderboard', () => {
  it.each(['user', 'from', 'to'])('400 naming %s when it is missing', async (name) => {
    const r = await leaderboard({ user: alice.address, from: '0', to: '10', [name]: undefined });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `missing required parameter: ${name}` });
  });

  it('400 for non-integer seconds and a reversed range', async () => {
    expect((await leaderboard({ user: alice.address, from: '1700000000000.5', to: '10' })).body.error).toMatch(/invalid from/);
    expect((await leaderboard({ user: alice.address, from: '0', to: '-1' })).body.error).toMatch(/invalid to/);
    expect((await leaderboard({ user: alice.address, from: '20', to: '10' })).status).toBe(400);
    expect((await leaderboard({ user: 'alice', from: '0', to: '10' })).body.error).toMatch(/invalid user/);
  });

  it('an account with no credits totals zero', async () => {
    const r = await leaderboard({ user: bob.address, from: '0', to: '99999999999' });
    expect(r.body.total).toEqual({ point: 0, pointPartnerBonuses: {} });
  });

  it('credits a done bridge order with a partner code, inside the time range only', async () => {
    await h.fund('arbitrum', alice.address, 2n * ETH);
    const q = await h.get(`${h.bridgeUrl}/quote?${qs({ fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN, toToken: NATIVE_TOKEN, amount: ETH.toString(), protocols: 'rail_fast', sender: alice.address, receiver: alice.address, source: 'perpsdesk' })}`);
    const e = await h.post(`${h.bridgeUrl}/encode`, { requestId: q.body.requestId, quoteIdx: 0 });
    const sent = await alice.connect(h.provider('arbitrum')).sendTransaction(e.body.data);
    await sent.wait();
    const sentAt = Math.floor(h.clock.now() / 1000);

    // Nothing is credited while the order is pending.
    const early = await leaderboard({ user: alice.address, from: '0', to: String(sentAt + 3600) });
    expect(early.body.total.point).toBe(0);

    h.clock.advance(120_000);
    const doneAt = Math.floor(h.clock.now() / 1000);
    const r = await leaderboard({ user: alice.address, from: String(sentAt), to: String(doneAt) });
    // 3000 USD in, about 2998.75 USD out: base = smaller side x 1.5 (cross-chain), bonus 10%.
    const outUsd = Number(q.body.data[0].amountOutUsd);
    const expected = Math.floor(outUsd * 1.5 * 100) / 100;
    expect(r.body.total.point).toBeCloseTo(expected, 2);
    expect(r.body.total.pointPartnerBonuses).toEqual({ perpsdesk: Math.floor(expected * 10) / 100 });
    expect(r.body.history).toHaveLength(1);
    expect(r.body.history[0]).toMatchObject({ kind: 'bridge', ref: sent.hash, partnerCode: 'perpsdesk' });

    // The estimate for the same values agrees with what was credited.
    const est2 = await estimate({ user: alice.address, src_chain: 'arbitrum', dst_chain: 'base', src_token: NATIVE_TOKEN, dst_token: NATIVE_TOKEN, src_usd: '3000', dst_usd: q.body.data[0].amountOutUsd, from: String(sentAt), source: 'perpsdesk' });
    expect(est2.body).toEqual({ point: r.body.total.point, partnerBonus: r.body.total.pointPartnerBonuses.perpsdesk });

    // Ranges that end before or start after the crediting see nothing; other users see nothing.
    const creditedAt = r.body.history[0].at as number;
    expect(creditedAt).toBeGreaterThan(sentAt);
    expect((await leaderboard({ user: alice.address, from: String(creditedAt), to: String(creditedAt) })).body.total.point).toBe(r.body.total.point);
    expect((await leaderboard({ user: alice.address, from: String(sentAt - 100), to: String(creditedAt - 1) })).body.total.point).toBe(0);
    expect((await leaderboard({ user: alice.address, from: String(creditedAt + 1), to: String(doneAt + 100) })).body.total.point).toBe(0);
    expect((await leaderboard({ user: bob.address, from: '0', to: String(doneAt) })).body.total.point).toBe(0);
  });
});

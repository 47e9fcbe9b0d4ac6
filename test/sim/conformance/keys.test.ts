/**
 * Trading keys: POST /auth/register, GET /auth/trading-keys, POST /auth/trading-keys/revoke.
 * Spec: "Trading keys" endpoints, "States and transitions > Trading key", "Signature failure responses".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import {
  Ctx,
  DAY_MS,
  ENV,
  Trader,
  expectError,
  expectErrorOneOf,
  expectLegSubmitted,
  expectOk,
  expectReplay,
  newWallet,
  prices,
  sizeForNotional,
  comfortableNotional,
} from './support/fixtures.js';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await Ctx.boot();
});
afterAll(async () => {
  await ctx?.stop();
});

/** A resting limit order far from the mark: the probe for "can this key still trade?". */
async function probeOrder(t: Trader) {
  const m = ctx.defaultMarket;
  const p = await prices(ctx, m);
  return t.place({ market: m.symbol, side: 'BUY', size: sizeForNotional(m, p.restBuy, comfortableNotional(m)), limit_price: p.restBuy, order_type: 'LIMIT', time_in_force: 'GTC' });
}

describe('register (none -> ACTIVE)', () => {
  it('registers a key: data.expires_at echoes the signed expiry and the key is listed ACTIVE', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    const expiresAt = ctx.now() + 10 * DAY_MS;
    const data = expectOk(await t.register({ expiresAt, name: 'desk', key_hint: 'abcd' }));
    expect(data.expires_at).toBe(expiresAt);
    const keys = await t.keys();
    expect(keys).toHaveLength(1);
    expect(keys[0].agent_wallet_address.toLowerCase()).toBe(t.agent.address.toLowerCase());
    expect(keys[0].status).toBe('ACTIVE');
    expect(keys[0].expires_at).toBe(expiresAt);
    expect(keys[0].created_at).toBeDefined();
  });

  it('GET /auth/trading-keys answers a bare array, empty for a wallet that never registered', async () => {
    const res = await ctx.api.get('/auth/trading-keys', { wallet: newWallet().address });
    expect(expectOk(res)).toEqual([]);
  });

  it('a key registered for one wallet is not listed for another, and its orders for the other account answer 403', async () => {
    const a = await Trader.create(ctx, { fund: null });
    const b = await Trader.create(ctx, { register: false, fund: '1000' });
    expect(await b.keys()).toEqual([]);
    const m = ctx.defaultMarket;
    const p = await prices(ctx, m);
    const leg = await a.signLeg(
      { market: m.symbol, side: 'BUY', size: sizeForNotional(m, p.restBuy, comfortableNotional(m)), limit_price: p.restBuy, order_type: 'LIMIT', time_in_force: 'GTC' },
      b.accountId,
    );
    expectError(await a.submitLegs([leg], b.accountId), 403, 'FORBIDDEN');
  });

  it('re-registering the same agent refreshes its expiry and creates no second key', async () => {
    const t = await Trader.create(ctx, { fund: null });
    const later = ctx.now() + 90 * DAY_MS;
    expect(expectOk(await t.register({ expiresAt: later })).expires_at).toBe(later);
    const keys = await t.keys();
    expect(keys).toHaveLength(1);
    expect(keys[0].expires_at).toBe(later);
  });

  it('accepts any wallet-signing chainId above 0 when signature_chain_id carries it', async () => {
    for (const chainId of [1, 998, 999, 42161, 421614]) {
      const t = await Trader.create(ctx, { register: false, fund: null });
      expectOk(await t.register({ chainId }));
      expect(await t.keys()).toHaveLength(1);
    }
  });

  it('a key registered for the wallet can trade (order SUBMITTED)', async () => {
    const t = await Trader.create(ctx, { fund: '1000' });
    expectLegSubmitted(await probeOrder(t));
  });
});

describe('register validation', () => {
  it("rejects a 'Mainnet' registration on the testnet service: 400 INVALID_ENVIRONMENT", async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ env: 'Mainnet' }), 400, 'INVALID_ENVIRONMENT');
    expect(await t.keys()).toEqual([]);
  });

  it('rejects an unknown environment literal: 400 INVALID_ENVIRONMENT (or INVALID_REQUEST)', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectErrorOneOf(await t.register({ env: 'testnet' }), 400, ['INVALID_ENVIRONMENT', 'INVALID_REQUEST']);
  });

  it('body environment differing from the signed one does not verify: 400 INVALID_SIGNATURE', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ env: ENV, signEnv: 'Mainnet' }), 400, 'INVALID_SIGNATURE');
    expect(await t.keys()).toEqual([]);
  });

  it('a signature by another key: 400 INVALID_SIGNATURE', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ signer: Wallet.createRandom() }), 400, 'INVALID_SIGNATURE');
  });

  it('a signature by the agent itself (not the main wallet): 400 INVALID_SIGNATURE', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ signer: t.agent }), 400, 'INVALID_SIGNATURE');
  });

  it('a malformed signature (not 65 bytes): 400', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    const body = await t.registerBody();
    body.signature = (body.signature as string).slice(0, 130);
    expectErrorOneOf(await ctx.api.post('/auth/register', body), 400, ['INVALID_SIGNATURE', 'INVALID_REQUEST']);
  });

  it('signature_chain_id differing from the signed domain chainId: 400 (signature does not verify)', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectErrorOneOf(await t.register({ chainId: 42161, bodyChainId: 1 }), 400, ['INVALID_SIGNATURE', 'INVALID_SIGNATURE_CHAIN_ID']);
    expect(await t.keys()).toEqual([]);
  });

  it('signature_chain_id 0: 400 INVALID_SIGNATURE_CHAIN_ID', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ chainId: 0 }), 400, 'INVALID_SIGNATURE_CHAIN_ID');
  });

  it('negative signature_chain_id: 400 INVALID_SIGNATURE_CHAIN_ID', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    const body = await t.registerBody({ chainId: 42161 });
    body.signature_chain_id = -1;
    expectErrorOneOf(await ctx.api.post('/auth/register', body), 400, ['INVALID_SIGNATURE_CHAIN_ID', 'INVALID_REQUEST']);
  });

  it('expires_at in the past: 400 INVALID_EXPIRES_AT', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ expiresAt: ctx.now() - 1000 }), 400, 'INVALID_EXPIRES_AT');
  });

  it('expires_at equal to now is not in the future: 400 INVALID_EXPIRES_AT', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ expiresAt: ctx.now() }), 400, 'INVALID_EXPIRES_AT');
  });

  it('expires_at 0: 400 INVALID_EXPIRES_AT', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ expiresAt: 0 }), 400, 'INVALID_EXPIRES_AT');
  });

  it('expires_at more than 180 days ahead: 400 INVALID_EXPIRES_AT; exactly 180 days is accepted', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ expiresAt: ctx.now() + 180 * DAY_MS + 1 }), 400, 'INVALID_EXPIRES_AT');
    const edge = ctx.now() + 180 * DAY_MS;
    expect(expectOk(await t.register({ expiresAt: edge })).expires_at).toBe(edge);
  });

  it('expires_at missing: 400', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    const body = await t.registerBody();
    delete body.expires_at;
    expectErrorOneOf(await ctx.api.post('/auth/register', body), 400, ['INVALID_EXPIRES_AT', 'INVALID_REQUEST']);
  });

  it('expires_at differing from the signed expiresAt: 400', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    const signed = ctx.now() + 10 * DAY_MS;
    expectErrorOneOf(await t.register({ expiresAt: signed + 1000, signExpiresAt: signed }), 400, ['INVALID_SIGNATURE', 'INVALID_EXPIRES_AT']);
    expect(await t.keys()).toEqual([]);
  });

  it('name of 64 characters is accepted, 65 is 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ name: 'n'.repeat(65) }), 400, 'INVALID_REQUEST');
    expectOk(await t.register({ name: 'n'.repeat(64) }));
  });

  it('key_hint of 32 characters is accepted, 33 is 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.register({ key_hint: 'h'.repeat(33) }), 400, 'INVALID_REQUEST');
    expectOk(await t.register({ key_hint: 'h'.repeat(32) }));
  });

  it.each(['wallet_address', 'agent_wallet_address', 'service_environment', 'signature_chain_id', 'nonce', 'signature'])('missing %s: 400', async (field) => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    const body = await t.registerBody();
    delete body[field];
    const res = await ctx.api.post('/auth/register', body);
    expectError(res, 400);
    expect(await t.keys()).toEqual([]);
  });

  it('agent_wallet_address that is not an address: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    const body = await t.registerBody();
    body.agent_wallet_address = '0x1234';
    expectError(await ctx.api.post('/auth/register', body), 400, 'INVALID_REQUEST');
  });

  it('a body that is not JSON: 400 INVALID_REQUEST', async () => {
    expectError(await ctx.api.post('/auth/register', '{not json'), 400, 'INVALID_REQUEST');
  });

  it('replaying a registration nonce answers 409 and changes nothing', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    const body = await t.registerBody();
    expectOk(await ctx.api.post('/auth/register', body));
    expectReplay(await ctx.api.post('/auth/register', body));
    expect(await t.keys()).toHaveLength(1);
  });

  it('the nonce is single use per wallet: a second registration (another agent) with the same nonce answers 409', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    const nonce = ctx.nonce();
    expectOk(await t.register({ nonce }));
    expectReplay(await t.register({ nonce, agent: newWallet().address }));
    expect(await t.keys()).toHaveLength(1);
  });
});

describe('ACTIVE -> expired (time)', () => {
  it('once expires_at passes the key is no longer listed and orders answer 403 FORBIDDEN', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    expectOk(await t.register({ expiresAt: ctx.now() + 60_000 }));
    expectLegSubmitted(await probeOrder(t));
    await ctx.advance(61_000);
    expect(await t.keys()).toEqual([]);
    expectError(await probeOrder(t), 403, 'FORBIDDEN');
  });
});

describe('ACTIVE -> revoked (POST /auth/trading-keys/revoke)', () => {
  it('revocation is immediate: the key leaves the list and the next order answers 403 FORBIDDEN', async () => {
    const t = await Trader.create(ctx, { fund: '1000' });
    expectLegSubmitted(await probeOrder(t));
    expectOk(await t.revoke());
    expect(await t.keys()).toEqual([]);
    expectError(await probeOrder(t), 403, 'FORBIDDEN');
  });

  it('revoking one key leaves the wallet\'s other keys active', async () => {
    const t = await Trader.create(ctx, { fund: null });
    const other = newWallet();
    expectOk(await t.register({ agent: other.address }));
    expect(await t.keys()).toHaveLength(2);
    expectOk(await t.revoke());
    const keys = await t.keys();
    expect(keys).toHaveLength(1);
    expect(keys[0].agent_wallet_address.toLowerCase()).toBe(other.address.toLowerCase());
  });

  it('accepts any chainId above 0 equal to signature_chain_id', async () => {
    const t = await Trader.create(ctx, { fund: null });
    expectOk(await t.revoke({ chainId: 1 }));
    expect(await t.keys()).toEqual([]);
  });

  it('a signature by another key: 400 INVALID_SIGNATURE, key stays', async () => {
    const t = await Trader.create(ctx, { fund: null });
    expectError(await t.revoke({ signer: Wallet.createRandom() }), 400, 'INVALID_SIGNATURE');
    expect(await t.keys()).toHaveLength(1);
  });

  it('a revoke signed by the trading key itself (not the main wallet): 400 INVALID_SIGNATURE', async () => {
    const t = await Trader.create(ctx, { fund: null });
    expectError(await t.revoke({ signer: t.agent }), 400, 'INVALID_SIGNATURE');
    expect(await t.keys()).toHaveLength(1);
  });

  it("'Mainnet' revoke on the testnet service: 400 INVALID_ENVIRONMENT", async () => {
    const t = await Trader.create(ctx, { fund: null });
    expectError(await t.revoke({ env: 'Mainnet' }), 400, 'INVALID_ENVIRONMENT');
    expect(await t.keys()).toHaveLength(1);
  });

  it('signature_chain_id 0: 400 INVALID_SIGNATURE_CHAIN_ID', async () => {
    const t = await Trader.create(ctx, { fund: null });
    expectError(await t.revoke({ chainId: 0 }), 400, 'INVALID_SIGNATURE_CHAIN_ID');
    expect(await t.keys()).toHaveLength(1);
  });

  it('signature_chain_id differing from the signed chainId: 400', async () => {
    const t = await Trader.create(ctx, { fund: null });
    expectErrorOneOf(await t.revoke({ chainId: 42161, bodyChainId: 10 }), 400, ['INVALID_SIGNATURE', 'INVALID_SIGNATURE_CHAIN_ID']);
    expect(await t.keys()).toHaveLength(1);
  });

  it('missing nonce: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx, { fund: null });
    const body = await t.revokeBody();
    delete body.nonce;
    expectError(await ctx.api.post('/auth/trading-keys/revoke', body), 400, 'INVALID_REQUEST');
  });

  it('a replayed revoke answers 409', async () => {
    const t = await Trader.create(ctx, { fund: null });
    const body = await t.revokeBody();
    expectOk(await ctx.api.post('/auth/trading-keys/revoke', body));
    // Re-register so the replay is not answered "nothing to revoke" by accident.
    expectOk(await t.register());
    expectReplay(await ctx.api.post('/auth/trading-keys/revoke', body));
    expect(await t.keys()).toHaveLength(1);
  });
});

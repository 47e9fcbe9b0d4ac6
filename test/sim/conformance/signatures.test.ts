/**
 * Signing rules against the running simulator: where signed members come from, byte-exact decimals,
 * pinned trading chainId, nonces, and the 403 contract of trading-key routes.
 * Spec: "Authentication" (Domain, Signed actions, Struct members, Where signed members come from,
 * Signing rules 1-5, Signature failure responses).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Ctx,
  D,
  Trader,
  expectError,
  expectLegSubmitted,
  expectReplay,
  marketSpec,
  openPosition,
  prices,
  restingSpec,
  triggerSpec,
  type Market,
  type Res,
} from './support/fixtures.js';
import { describeRes } from './support/client.js';
import { accountIdOf } from './support/sign.js';

let ctx: Ctx;
let m: Market;
beforeAll(async () => {
  ctx = await Ctx.boot();
  m = ctx.defaultMarket;
});
afterAll(async () => {
  await ctx?.stop();
});

/** A string that does not hash as sent must never be accepted: 403 (signature) or 400 (refused). */
function expectNotAccepted(res: Res): void {
  if (res.status === 403) expectError(res, 403, 'FORBIDDEN');
  else expectError(res, 400, 'INVALID_REQUEST');
}

/** A non-canonical decimal signed exactly as sent: refused (400 / REJECTED) or accepted as sent. */
function expectRefusedOrAcceptedAsSent(res: Res): void {
  expect([200, 400], describeRes(res)).toContain(res.status);
  if (res.status === 400) expectError(res, 400, 'INVALID_REQUEST');
  else expect(['SUBMITTED', 'REJECTED']).toContain(res.body.data[0].status);
}

describe('domain: trading actions require the pinned chainId', () => {
  it('an order signed over chainId 999 (the other environment) recovers another address: 403 FORBIDDEN', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectError(await t.place(restingSpec(m, p, 'BUY', { chainId: 999 })), 403, 'FORBIDDEN');
    expectLegSubmitted(await t.place(restingSpec(m, p, 'BUY', { chainId: 998 })));
  });

  it('the 403 message is the same for "no active key" and "signed payload differs from sent payload"', async () => {
    const t = await Trader.create(ctx);
    const stranger = await Trader.create(ctx, { register: false, fund: null });
    const p = await prices(ctx, m);
    const noKey = await t.place(restingSpec(m, p, 'BUY', { signer: stranger.agent }));
    const differs = await t.place(restingSpec(m, p, 'BUY', { signAs: { side: 'SELL' } }));
    expectError(noKey, 403, 'FORBIDDEN');
    expectError(differs, 403, 'FORBIDDEN');
    expect(noKey.body.error.message).toBe(differs.body.error.message);
    // The listing tells the two causes apart: the agent is listed, so the payload differed.
    expect((await t.keys()).map((k) => k.agent_wallet_address.toLowerCase())).toContain(t.agent.address.toLowerCase());
  });
});

describe('Order: where signed members come from', () => {
  it('client_order_id is not signed: changing it after signing still verifies', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const leg = await t.signLeg(restingSpec(m, p));
    leg.client_order_id = 'changed-after-signing';
    const res = await t.submitLegs([leg]);
    expectLegSubmitted(res);
    expect(res.body.data[0].client_order_id).toBe('changed-after-signing');
  });

  it('order_type omitted signs MARKET (signing an empty orderType fails)', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectLegSubmitted(await t.place(marketSpec(m, p, 'BUY', { omit: ['order_type'] })));
    expectError(await t.place(marketSpec(m, p, 'BUY', { omit: ['order_type'], signAs: { orderType: '' } })), 403, 'FORBIDDEN');
  });

  it('a trigger omits time_in_force yet signs IOC', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    expectError(await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.2, { signAs: { timeInForce: '' } })), 403, 'FORBIDDEN');
    expectError(await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.2, { signAs: { timeInForce: 'GTC' } })), 403, 'FORBIDDEN');
    expectLegSubmitted(await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.2)));
  });

  it('a trigger signs its trigger values (trigger_price, is_market, tpsl)', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    expectError(await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.2, { signAs: { triggerPrice: '0' } })), 403, 'FORBIDDEN');
    expectError(await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.2, { signAs: { isMarket: false } })), 403, 'FORBIDDEN');
    expectError(await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.2, { signAs: { tpsl: 'sl' } })), 403, 'FORBIDDEN');
  });

  it("a plain order signs triggerPrice '0', isMarket false and tpsl ''", async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectError(await t.place(restingSpec(m, p, 'BUY', { signAs: { triggerPrice: '' } })), 403, 'FORBIDDEN');
    expectError(await t.place(restingSpec(m, p, 'BUY', { signAs: { tpsl: 'TP' } })), 403, 'FORBIDDEN');
    expectError(await t.place(restingSpec(m, p, 'BUY', { signAs: { isMarket: true } })), 403, 'FORBIDDEN');
  });

  it('reduce_only omitted signs false', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectLegSubmitted(await t.place(restingSpec(m, p, 'BUY', { omit: ['reduce_only'] })));
    expectError(await t.place(restingSpec(m, p, 'BUY', { omit: ['reduce_only'], signAs: { reduceOnly: true } })), 403, 'FORBIDDEN');
  });

  it('leverage, side, market and the account are signed', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const lev = t.defaultLeverage(m.symbol);
    expectError(await t.place(restingSpec(m, p, 'BUY', { signAs: { leverage: String(lev + 1) } })), 403, 'FORBIDDEN');
    expectError(await t.place(restingSpec(m, p, 'BUY', { signAs: { side: 'SELL' } })), 403, 'FORBIDDEN');
    expectError(await t.place(restingSpec(m, p, 'BUY', { signAs: { market: 'XYZ' } })), 403, 'FORBIDDEN');
    const other = await Trader.create(ctx, { register: false, fund: null });
    expectError(await t.place(restingSpec(m, p, 'BUY', { signAs: { account: accountIdOf(other.address) } })), 403, 'FORBIDDEN');
  });

  it('the nonce is signed as uint256 from the body string: a different signed nonce fails', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const nonce = String(ctx.nonce());
    expectError(await t.place(restingSpec(m, p, 'BUY', { nonce, signAs: { nonce: String(BigInt(nonce) + 1n) } })), 403, 'FORBIDDEN');
  });
});

describe('signing rule 1: decimals are hashed exactly as sent', () => {
  it("size signed canonical but sent with a trailing zero ('0.50' style) is never accepted", async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p);
    const padded = spec.size.includes('.') ? spec.size + '0' : spec.size + '.0';
    const leg = await t.signLeg(spec);
    expectNotAccepted(await t.submitLegs([{ ...leg, size: padded }]));
  });

  it("limit_price signed canonical but sent as '<price>.0' is never accepted", async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p);
    const padded = spec.limit_price.includes('.') ? spec.limit_price + '0' : spec.limit_price + '.0';
    const leg = await t.signLeg(spec);
    expectNotAccepted(await t.submitLegs([{ ...leg, limit_price: padded }]));
  });

  it('a non-canonical size signed exactly as sent is refused or signs as sent (never 403, never silently re-canonicalised)', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p);
    const padded = spec.size.includes('.') ? spec.size + '0' : spec.size + '.0';
    const res = await t.place({ ...spec, size: padded });
    expectRefusedOrAcceptedAsSent(res);
  });

  it('an exponent-form price signed as sent is refused or signs as sent', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p);
    const expo = D(spec.limit_price).toExponential();
    expect(expo).toContain('e');
    expectRefusedOrAcceptedAsSent(await t.place({ ...spec, limit_price: expo }));
  });
});

describe('signature encoding and nonces (rules 3-5)', () => {
  it('a signature with v as 0/1 instead of 27/28 is not accepted', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const leg = await t.signLeg(restingSpec(m, p));
    const v = parseInt(leg.signature!.slice(-2), 16);
    expect([27, 28]).toContain(v);
    const res = await t.submitLegs([{ ...leg, signature: leg.signature!.slice(0, -2) + (v - 27).toString(16).padStart(2, '0') }]);
    expect([400, 403], describeRes(res)).toContain(res.status);
  });

  it('a replayed order answers 409 and creates no second order', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const leg = await t.signLeg(restingSpec(m, p));
    expectLegSubmitted(await t.submitLegs([leg]));
    expectReplay(await t.submitLegs([leg]));
    await ctx.advanceSteps(2, 1000);
    expect((await t.openOrders()).total).toBe(1);
  });

  it('a nonce is single use per wallet: another order reusing it answers 409', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const nonce = String(ctx.nonce());
    expectLegSubmitted(await t.place(restingSpec(m, p, 'BUY', { nonce })));
    expectReplay(await t.place(restingSpec(m, p, 'SELL', { nonce })));
  });

  it('a burst with incremented nonces is accepted leg by leg', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const base = ctx.nonce();
    const specs = [0, 1, 2, 3].map((i) => restingSpec(m, p, 'BUY', { nonce: String(base + 100 + i) }));
    const res = await t.place(...specs);
    for (let i = 0; i < 4; i++) expectLegSubmitted(res, i);
    expect(res.body.success).toBe(true);
  });

  it('Cancel signs the wallet address (not the account_id): a Cancel signed for another address is 403', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const id = expectLegSubmitted(await t.place(restingSpec(m, p)));
    await ctx.waitStatus(id, 'ACCEPTED');
    const other = await Trader.create(ctx, { register: false, fund: null });
    // Body says this wallet; the signature was made for another wallet's Cancel.
    const body = await other.cancelBody(id, 'LIMIT', { signer: t.agent });
    expectError(await ctx.api.post(`/orders/${id}/cancel`, { ...body, account: t.address }), 403, 'FORBIDDEN');
  });
});

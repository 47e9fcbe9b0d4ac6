/**
 * POST /orders validation and business rules at submit.
 * Spec: "Order leg", "Endpoints > Orders > POST /orders" rules 1-5, "Errors > Trading API" (stages of
 * order rejection, leg reasons), "Limits".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Ctx,
  D,
  Trader,
  ceilSize,
  cid,
  comfortableNotional,
  decimalsOf,
  expectError,
  expectLegNotAccepted,
  expectLegRejected,
  expectLegSubmitted,
  expectOk,
  fmt,
  floorSize,
  legs,
  marketSpec,
  openPosition,
  prices,
  restingSpec,
  sizeForNotional,
  triggerSpec,
  type Market,
} from './support/fixtures.js';
import { describeRes } from './support/client.js';

let ctx: Ctx;
let m: Market;
beforeAll(async () => {
  ctx = await Ctx.boot();
  m = ctx.defaultMarket;
});
afterAll(async () => {
  await ctx?.stop();
});

describe('request validation: 400 INVALID_REQUEST for the whole request', () => {
  it('a leg without client_order_id is a 400 whose message names the field', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const res = await t.place(restingSpec(m, p, 'BUY', { omit: ['client_order_id'] }));
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.body.error.message).toContain('client_order_id');
  });

  it('one invalid leg fails the whole batch: the valid leg is not created either', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const res = await t.place(restingSpec(m, p), restingSpec(m, p, 'BUY', { omit: ['client_order_id'] }));
    expectError(res, 400, 'INVALID_REQUEST');
    await ctx.advanceSteps(4, 1000);
    expect((await t.openOrders()).orders).toEqual([]);
    expect(await t.history()).toEqual([]);
  });

  it('duplicate client_order_id within the batch: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const id = cid();
    expectError(await t.place(restingSpec(m, p, 'BUY', { client_order_id: id }), restingSpec(m, p, 'BUY', { client_order_id: id })), 400, 'INVALID_REQUEST');
  });

  it('an empty orders array: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx, { fund: null });
    expectError(await t.submitLegs([]), 400, 'INVALID_REQUEST');
  });

  it('21 legs: 400 INVALID_REQUEST; 20 legs are answered per leg (HTTP 200, 20 items)', async () => {
    const t = await Trader.create(ctx, { fund: '1000000' });
    const p = await prices(ctx, m);
    const specs = Array.from({ length: 21 }, () => restingSpec(m, p, 'BUY', { reduce_only: false }));
    expectError(await t.place(...specs), 400, 'INVALID_REQUEST');
    const res = await t.place(...specs.slice(0, 20));
    expect(legs(res)).toHaveLength(20);
  });

  it('orders missing or not an array: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx, { fund: null });
    expectError(await ctx.api.post('/orders', { account_id: t.accountId }), 400, 'INVALID_REQUEST');
    expectError(await ctx.api.post('/orders', { account_id: t.accountId, orders: {} }), 400, 'INVALID_REQUEST');
  });

  it('account_id that is not bytes32 hex (a plain wallet): 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const leg = await t.signLeg(restingSpec(m, p));
    expectError(await t.submitLegs([leg], t.address), 400, 'INVALID_REQUEST');
  });

  it.each(['market', 'side', 'size', 'limit_price', 'nonce', 'signature'])('a leg without %s: 400 INVALID_REQUEST', async (field) => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectError(await t.place(restingSpec(m, p, 'BUY', { omit: [field] })), 400, 'INVALID_REQUEST');
  });

  it('time_in_force is required for LIMIT: omitted is 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectError(await t.place(restingSpec(m, p, 'BUY', { omit: ['time_in_force'] })), 400, 'INVALID_REQUEST');
  });

  it('time_in_force is required for MARKET: omitted is 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectError(await t.place(marketSpec(m, p, 'BUY', { omit: ['time_in_force'] })), 400, 'INVALID_REQUEST');
  });

  it('side other than BUY or SELL (lowercase buy): 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectError(await t.place(restingSpec(m, p, 'BUY', { side: 'buy' })), 400, 'INVALID_REQUEST');
  });

  it('an unknown order_type: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectError(await t.place(restingSpec(m, p, 'BUY', { order_type: 'STOP' })), 400, 'INVALID_REQUEST');
  });

  it('an unknown time_in_force: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectError(await t.place(restingSpec(m, p, 'BUY', { time_in_force: 'FOK' })), 400, 'INVALID_REQUEST');
  });

  it('a TRIGGER leg without a trigger object: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = triggerSpec(m, p.mark, 'LONG', 'SL');
    delete spec.trigger;
    expectError(await t.place(spec), 400, 'INVALID_REQUEST');
  });

  it('nonce sent as a JSON number instead of a decimal string: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const leg = await t.signLeg(restingSpec(m, p));
    const res = await t.submitLegs([{ ...leg, nonce: Number(leg.nonce) as unknown as string }]);
    expectError(res, 400, 'INVALID_REQUEST');
  });

  it('size that is not a decimal string (number, exponent, negative): 400 INVALID_REQUEST or refused', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p);
    const leg = await t.signLeg(spec);
    expectError(await t.submitLegs([{ ...leg, size: Number(spec.size) as unknown as string }]), 400, 'INVALID_REQUEST');
    expectLegNotAccepted(await t.place({ ...spec, size: '-' + spec.size }));
    expectLegNotAccepted(await t.place({ ...spec, size: 'abc' }));
  });
});

describe('signature stage: 403 FORBIDDEN for the whole request', () => {
  it('one leg signed by an unregistered key fails the whole batch with 403 and creates nothing', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const good = await t.signLeg(restingSpec(m, p));
    const bad = await t.signLeg(restingSpec(m, p, 'BUY', { signer: (await Trader.create(ctx, { register: false, fund: null })).agent }));
    expectError(await t.submitLegs([good, bad]), 403, 'FORBIDDEN');
    await ctx.advanceSteps(4, 1000);
    expect((await t.openOrders()).orders).toEqual([]);
  });

  it('a leg signed by the main wallet instead of the trading key: 403 FORBIDDEN', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectError(await t.place(restingSpec(m, p, 'BUY', { signer: t.wallet })), 403, 'FORBIDDEN');
  });
});

describe('business rules: HTTP 200, per-leg REJECTED with reason', () => {
  it('response data is index-aligned with the legs and echoes client_order_id; success true when every leg is SUBMITTED', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const a = cid('a');
    const b = cid('b');
    const res = await t.place(restingSpec(m, p, 'BUY', { client_order_id: a }), restingSpec(m, p, 'SELL', { client_order_id: b }));
    const data = legs(res);
    expect(res.body.success).toBe(true);
    expect(data.map((d) => d.client_order_id)).toEqual([a, b]);
    expect(data.map((d) => d.status)).toEqual(['SUBMITTED', 'SUBMITTED']);
    expect(data[0].order_id).not.toBe(data[1].order_id);
  });

  it('MARKET with GTC: leg REJECTED market_order_must_be_ioc; the other leg is unaffected (success false)', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const res = await t.place(restingSpec(m, p), marketSpec(m, p, 'BUY', { time_in_force: 'GTC' }));
    expectLegSubmitted(res, 0);
    expectLegRejected(res, 1, 'market_order_must_be_ioc');
  });

  it('MARKET with ALO: leg REJECTED market_order_must_be_ioc', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectLegRejected(await t.place(marketSpec(m, p, 'BUY', { time_in_force: 'ALO' })), 0, 'market_order_must_be_ioc');
  });

  it('MARKET with IOC is accepted (SUBMITTED)', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectLegSubmitted(await t.place(marketSpec(m, p, 'BUY')));
  });

  it('limit_price not a multiple of tick_size but within px_decimals: REJECTED price_off_tick', async () => {
    const mk = ctx.active((x) => D(x.tick_size).gt(D(10).pow(-x.px_decimals)))[0];
    expect(mk, 'the catalogue needs a market whose tick_size binds harder than px_decimals').toBeDefined();
    const t = await Trader.create(ctx);
    const p = await prices(ctx, mk!);
    const offTick = fmt(D(p.restBuy).plus(D(10).pow(-mk!.px_decimals)));
    expect(decimalsOf(offTick)).toBeLessThanOrEqual(mk!.px_decimals);
    expect(D(offTick).mod(mk!.tick_size).isZero()).toBe(false);
    expectLegRejected(await t.place(restingSpec(mk!, p, 'BUY', { limit_price: offTick })), 0, 'price_off_tick');
  });

  it('a price off tick on a MARKET leg is also price_off_tick', async () => {
    const mk = ctx.active((x) => D(x.tick_size).gt(D(10).pow(-x.px_decimals)))[0];
    expect(mk).toBeDefined();
    const t = await Trader.create(ctx);
    const p = await prices(ctx, mk!);
    const offTick = fmt(D(p.mktBuy).plus(D(10).pow(-mk!.px_decimals)));
    expectLegRejected(await t.place(marketSpec(mk!, p, 'BUY', { limit_price: offTick })), 0, 'price_off_tick');
  });

  it('a price with more than px_decimals places is not accepted', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const tooFine = fmt(D(p.restBuy).plus(D(10).pow(-(m.px_decimals + 1))));
    expectLegNotAccepted(await t.place(restingSpec(m, p, 'BUY', { limit_price: tooFine })));
  });

  it('a size with more than sz_decimals places is not accepted', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p);
    const tooFine = fmt(D(spec.size).plus(D(10).pow(-(m.sz_decimals + 1))));
    expectLegNotAccepted(await t.place({ ...spec, size: tooFine }));
  });

  it('size x price just under min_order_value is rejected; the next size step (at or above it) is accepted', async () => {
    // A market where one size step is worth less than min_order_value, so a size just under it exists.
    const mk = ctx.active((x) => D(10).pow(-x.sz_decimals).mul(x.tick_size).lt(x.min_order_value) && D(x.min_order_value).gt(0))[0];
    expect(mk).toBeDefined();
    const t = await Trader.create(ctx);
    const p = await prices(ctx, mk!);
    const px = D(p.restBuy);
    let under = D(floorSize(D(mk!.min_order_value).div(px), mk!.sz_decimals));
    if (under.mul(px).gte(mk!.min_order_value)) under = under.minus(D(10).pow(-mk!.sz_decimals));
    expect(under.gt(0), `px ${px} too high for min ${mk!.min_order_value}`).toBe(true);
    expect(under.mul(px).lt(mk!.min_order_value)).toBe(true);
    const res = await t.place(restingSpec(mk!, p, 'BUY', { size: fmt(under) }));
    expect(legs(res)[0].status, describeRes(res)).toBe('REJECTED');
    const at = ceilSize(D(mk!.min_order_value).div(px), mk!.sz_decimals);
    expect(D(at).mul(px).gte(mk!.min_order_value)).toBe(true);
    expectLegSubmitted(await t.place(restingSpec(mk!, p, 'BUY', { size: at })));
  });

  it('reduce-only legs are exempt from min_order_value', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const tiny = fmt(D(10).pow(-m.sz_decimals));
    expect(D(tiny).mul(p.restSell).lt(m.min_order_value)).toBe(true);
    expectLegSubmitted(await t.place(restingSpec(m, p, 'SELL', { size: tiny, reduce_only: true })));
  });

  it('an order value above a non-zero max_notional is rejected; exactly max_notional is accepted', async () => {
    const mk = ctx.active((x) => D(x.max_notional).gt(0))[0];
    expect(mk, 'the catalogue needs an active market with a max_notional').toBeDefined();
    const p = await prices(ctx, mk!);
    const px = D(p.restBuy);
    const lev = mk!.max_leverage;
    const fund = fmt(D(mk!.max_notional).mul(3).div(lev).plus(10_000).ceil());
    const t = await Trader.create(ctx, { fund });
    // Largest size at or under the ceiling, and the next step above it.
    const atOrUnder = floorSize(D(mk!.max_notional).div(px), mk!.sz_decimals);
    const over = fmt(D(atOrUnder).plus(D(10).pow(-mk!.sz_decimals)));
    expect(D(over).mul(px).gt(mk!.max_notional)).toBe(true);
    const rejected = await t.place(restingSpec(mk!, p, 'BUY', { size: over, leverage: lev }));
    expect(legs(rejected)[0].status, describeRes(rejected)).toBe('REJECTED');
    expectLegSubmitted(await t.place(restingSpec(mk!, p, 'BUY', { size: atOrUnder, leverage: lev })));
  });

  it("max_notional '0' is the no-ceiling sentinel, never a zero cap: a very large order is accepted", async () => {
    const mk = ctx.active((x) => x.max_notional === '0')[0];
    expect(mk, "the catalogue needs an active market whose max_notional is '0'").toBeDefined();
    const biggestCap = ctx.markets.reduce((acc, x) => Decimal_max(acc, D(x.max_notional)), D(1_000_000));
    const notional = biggestCap.mul(10);
    const lev = mk!.max_leverage;
    const t = await Trader.create(ctx, { fund: fmt(notional.mul(2).div(lev).plus(10_000).ceil()) });
    const p = await prices(ctx, mk!);
    const size = sizeForNotional(mk!, p.restBuy, notional);
    const id = expectLegSubmitted(await t.place(restingSpec(mk!, p, 'BUY', { size, leverage: lev })));
    const { order } = await ctx.waitStatus(id, ['ACCEPTED', 'REJECTED', 'CANCELLED', 'FAILED']);
    expect(order.status).toBe('ACCEPTED');
  });

  it('an order on an inactive market is not accepted', async () => {
    const inactive = ctx.markets.find((x) => !x.is_active);
    expect(inactive, 'the catalogue needs an inactive market').toBeDefined();
    const t = await Trader.create(ctx);
    // The venue still prices it (marks come from the venue); use the active default market's scale if not.
    const p = await prices(ctx, inactive!);
    expectLegNotAccepted(await t.place(restingSpec(inactive!, p)));
  });

  it('an order on an unknown market is not accepted', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectLegNotAccepted(await t.place(restingSpec(m, p, 'BUY', { market: 'NOPE-PERP' })));
  });

  it('leverage is not range-checked at validation: leverage far above max_leverage is SUBMITTED', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectLegSubmitted(await t.place(restingSpec(m, p, 'BUY', { leverage: m.max_leverage * 10 })));
  });

  it('server-generated order types are never accepted on submit (LIQUIDATION, ORPHAN_LIQUIDATION)', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectLegNotAccepted(await t.place(restingSpec(m, p, 'BUY', { order_type: 'LIQUIDATION' })));
    expectLegNotAccepted(await t.place(restingSpec(m, p, 'BUY', { order_type: 'ORPHAN_LIQUIDATION' })));
  });
});

describe('trigger rules (rule 3)', () => {
  it('trigger.is_market false is rejected', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const spec = triggerSpec(m, p.mark, 'LONG', 'SL');
    expectLegNotAccepted(await t.place({ ...spec, trigger: { ...spec.trigger!, is_market: false } }));
  });

  it('a trigger cannot be post-only: time_in_force ALO on a TRIGGER is not accepted', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const res = await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.1, { time_in_force: 'ALO', signAs: { timeInForce: 'ALO' } }));
    if (res.status === 403) expectError(res, 403, 'FORBIDDEN');
    else expectLegNotAccepted(res);
  });

  it('tpsl other than TP or SL is not accepted', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const spec = triggerSpec(m, p.mark, 'LONG', 'SL');
    expectLegNotAccepted(await t.place({ ...spec, trigger: { ...spec.trigger!, tpsl: 'STOP' } }));
  });

  it('long SL with its trigger already above the mark (past on its fire side) is rejected', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    // A long's SL fires when the mark falls to the trigger; a trigger above the mark is already past.
    const past = triggerSpec(m, p.mark, 'LONG', 'TP', 0.1, {});
    const res = await t.place({ ...past, trigger: { ...past.trigger!, tpsl: 'SL' } });
    expectLegNotAccepted(res);
  });

  it('long TP with its trigger already below the mark is rejected', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const past = triggerSpec(m, p.mark, 'LONG', 'SL', 0.1, {});
    expectLegNotAccepted(await t.place({ ...past, trigger: { ...past.trigger!, tpsl: 'TP' } }));
  });

  it('short SL with its trigger below the mark is rejected; above the mark it is SUBMITTED', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'SELL');
    const p = await prices(ctx, m);
    const past = triggerSpec(m, p.mark, 'SHORT', 'TP', 0.1);
    expectLegNotAccepted(await t.place({ ...past, trigger: { ...past.trigger!, tpsl: 'SL' } }));
    expectLegSubmitted(await t.place(triggerSpec(m, p.mark, 'SHORT', 'SL', 0.1)));
  });

  it('a valid long SL (trigger below mark, fire price below trigger) and TP are SUBMITTED', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const res = await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.1), triggerSpec(m, p.mark, 'LONG', 'TP', 0.1));
    expectLegSubmitted(res, 0);
    expectLegSubmitted(res, 1);
  });
});

describe('size 0 and trigger prices', () => {
  it("size '0' is only for reduce-only triggers: a LIMIT of size 0 is not accepted", async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    expectLegNotAccepted(await t.place(restingSpec(m, p, 'BUY', { size: '0' })));
  });

  it('trigger.trigger_price is a raw mark threshold: off the tick grid (within px_decimals) it is still SUBMITTED; the tick rule binds limit_price', async () => {
    const mk = ctx.active((x) => D(x.tick_size).gt(D(10).pow(-x.px_decimals)))[0];
    expect(mk).toBeDefined();
    const t = await Trader.create(ctx);
    await openPosition(t, mk!, 'BUY');
    const p = await prices(ctx, mk!);
    const spec = triggerSpec(mk!, p.mark, 'LONG', 'SL', 0.05);
    const raw = fmt(D(spec.trigger!.trigger_price).plus(D(10).pow(-mk!.px_decimals)));
    expect(D(raw).mod(mk!.tick_size).isZero()).toBe(false);
    expectLegSubmitted(await t.place({ ...spec, trigger: { ...spec.trigger!, trigger_price: raw } }));
    const offTickFire = fmt(D(spec.limit_price).plus(D(10).pow(-mk!.px_decimals)));
    expectLegRejected(await t.place({ ...spec, limit_price: offTickFire }), 0, 'price_off_tick');
  });
});

describe('close_trigger_coexistence (rule 5)', () => {
  it('a reduce-only order on a position with an armed reduce-only trigger is REJECTED close_trigger_coexistence', async () => {
    const t = await Trader.create(ctx);
    const { position } = await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const sl = expectLegSubmitted(await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.1)));
    await ctx.until('trigger armed', async () => ((await t.triggers()).some((o) => o.order_id === sl) ? true : undefined));
    const close = marketSpec(m, p, 'SELL', { size: position.closeable, reduce_only: true });
    expectLegRejected(await t.place(close), 0, 'close_trigger_coexistence');
    // A reduce-only LIMIT is refused the same way.
    expectLegRejected(await t.place(restingSpec(m, p, 'SELL', { size: position.closeable, reduce_only: true })), 0, 'close_trigger_coexistence');
  });
});

describe('max_open_orders (per market, per account)', () => {
  const capMarket = (): Market => [...ctx.active()].sort((a, b) => a.max_open_orders - b.max_open_orders)[0]!;

  async function fill(t: Trader, mk: Market, count: number): Promise<string[]> {
    const p = await prices(ctx, mk);
    const ids: string[] = [];
    while (ids.length < count) {
      const n = Math.min(20, count - ids.length);
      const res = await t.place(...Array.from({ length: n }, () => restingSpec(mk, p)));
      for (let i = 0; i < n; i++) ids.push(expectLegSubmitted(res, i));
    }
    return ids;
  }

  it('resting orders fill the cap: the next order is REJECTED, another market is unaffected, a cancel frees a slot', async () => {
    const mk = capMarket();
    const t = await Trader.create(ctx, { fund: fmt(comfortableNotional(mk).mul(mk.max_open_orders + 5).plus(100_000)) });
    const ids = await fill(t, mk, mk.max_open_orders);
    await ctx.advanceSteps(3, 1000);
    const p = await prices(ctx, mk);
    const over = await t.place(restingSpec(mk, p));
    expect(legs(over)[0].status, describeRes(over)).toBe('REJECTED');
    const other = ctx.active((x) => x.symbol !== mk.symbol)[0];
    if (other) expectLegSubmitted(await t.place(restingSpec(other, await prices(ctx, other))));
    expectOk(await t.cancel(ids[0]!, 'LIMIT'));
    await ctx.waitStatus(ids[0]!, 'CANCELLED');
    expectLegSubmitted(await t.place(restingSpec(mk, await prices(ctx, mk))));
  });

  it('armed triggers count toward the cap', async () => {
    const mk = capMarket();
    const t = await Trader.create(ctx, { fund: fmt(comfortableNotional(mk).mul(mk.max_open_orders + 5).plus(100_000)) });
    await openPosition(t, mk, 'BUY');
    const p = await prices(ctx, mk);
    expectLegSubmitted(await t.place(triggerSpec(mk, p.mark, 'LONG', 'SL', 0.3)));
    await fill(t, mk, mk.max_open_orders - 1);
    await ctx.advanceSteps(3, 1000);
    const over = await t.place(restingSpec(mk, await prices(ctx, mk)));
    expect(legs(over)[0].status, describeRes(over)).toBe('REJECTED');
  });

  it('TP/SL legs awaiting their entry (PENDING_PARENT) count toward the cap', async () => {
    const mk = capMarket();
    const t = await Trader.create(ctx, { fund: fmt(comfortableNotional(mk).mul(mk.max_open_orders + 5).plus(100_000)) });
    const p = await prices(ctx, mk);
    const entry = restingSpec(mk, p, 'BUY', { client_order_id: cid('entry') });
    const tp = triggerSpec(mk, D(entry.limit_price), 'LONG', 'TP', 0.1, { parent_client_order_id: entry.client_order_id });
    const res = await t.place(entry, tp);
    expectLegSubmitted(res, 0);
    expectLegSubmitted(res, 1);
    await fill(t, mk, mk.max_open_orders - 2);
    await ctx.advanceSteps(3, 1000);
    const over = await t.place(restingSpec(mk, await prices(ctx, mk)));
    expect(legs(over)[0].status, describeRes(over)).toBe('REJECTED');
  });
});

function Decimal_max(a: ReturnType<typeof D>, b: ReturnType<typeof D>): ReturnType<typeof D> {
  return a.gt(b) ? a : b;
}

/**
 * Cancel, cancel-batch and modify.
 * Spec: POST /orders/{orderId}/cancel, POST /orders/cancel-batch, POST /orders/{orderId}/modify,
 * the cancel and modify rows of "Order status", "Cancel-batch legs fail with FAILED".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Ctx,
  D,
  Trader,
  cid,
  expectError,
  expectLegSubmitted,
  expectOk,
  expectReplay,
  floorTick,
  marketSpec,
  openPosition,
  prices,
  restingSpec,
  triggerSpec,
  type J,
  type Market,
  type Res,
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

const TERMINAL = ['FILLED', 'PARTIALLY_FILLED_CANCELLED', 'CANCELLED', 'REJECTED', 'FAILED'];

async function restingOrder(t: Trader, side: 'BUY' | 'SELL' = 'BUY', extra = {}): Promise<{ id: string; spec: ReturnType<typeof restingSpec> }> {
  const p = await prices(ctx, m);
  const spec = restingSpec(m, p, side, extra);
  const id = expectLegSubmitted(await t.place(spec));
  await ctx.waitStatus(id, 'ACCEPTED');
  return { id, spec };
}

async function armedTrigger(t: Trader): Promise<{ id: string; spec: ReturnType<typeof triggerSpec> }> {
  await openPosition(t, m, 'BUY');
  const p = await prices(ctx, m);
  const spec = triggerSpec(m, p.mark, 'LONG', 'SL', 0.05);
  const id = expectLegSubmitted(await t.place(spec));
  await ctx.until('trigger armed', async () => ((await t.triggers()).some((o) => o.order_id === id) ? true : undefined));
  return { id, spec };
}

/** A modify that did not create a new order: 4xx, or 200 with data.status REJECTED. */
function expectModifyRefused(res: Res): void {
  if (res.status === 200) {
    expect(res.body.data?.status, describeRes(res)).toBe('REJECTED');
  } else {
    expect([400, 404], describeRes(res)).toContain(res.status);
    expect(res.body?.success, describeRes(res)).toBe(false);
  }
}

describe('POST /orders/{orderId}/cancel', () => {
  it('cancels a resting LIMIT asynchronously: SUBMITTED, then CANCELLED and gone from open-orders, logged cancelled', async () => {
    const t = await Trader.create(ctx);
    const { id } = await restingOrder(t);
    const data = expectOk(await t.cancel(id, 'LIMIT'));
    expect(data.status).toBe('SUBMITTED');
    const { order } = await ctx.waitStatus(id, TERMINAL);
    expect(order.status).toBe('CANCELLED');
    expect((await t.openOrders()).orders.some((o: J) => o.order_id === id)).toBe(false);
    expect((await t.history()).some((r) => r.order_id === id && r.status === 'cancelled')).toBe(true);
  });

  it('cancels an armed trigger with order_type TRIGGER: gone from position-triggers', async () => {
    const t = await Trader.create(ctx);
    const { id } = await armedTrigger(t);
    expect(expectOk(await t.cancel(id, 'TRIGGER')).status).toBe('SUBMITTED');
    expect((await ctx.waitStatus(id, TERMINAL)).order.status).toBe('CANCELLED');
    await ctx.until('trigger gone', async () => ((await t.triggers()).some((o) => o.order_id === id) ? undefined : true));
  });

  it('a cancel signed by a key that does not authorize the account answers 403 FORBIDDEN; the order stays', async () => {
    const t = await Trader.create(ctx);
    const other = await Trader.create(ctx, { fund: null });
    const { id } = await restingOrder(t);
    expectError(await t.cancel(id, 'LIMIT', { signer: other.agent }), 403, 'FORBIDDEN');
    expectError(await t.cancel(id, 'LIMIT', { signer: t.wallet }), 403, 'FORBIDDEN');
    await ctx.advanceSteps(3, 1000);
    expect((await ctx.getOrder(id)).body.data.status).toBe('ACCEPTED');
  });

  it('the path orderId is signed: a signature over another orderId answers 403', async () => {
    const t = await Trader.create(ctx);
    const { id } = await restingOrder(t);
    expectError(await t.cancel(id, 'LIMIT', { signOrderId: id + 'x' }), 403, 'FORBIDDEN');
  });

  it('account must be the wallet, not the account_id: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const { id } = await restingOrder(t);
    expectError(await t.cancel(id, 'LIMIT', { account: t.accountId }), 400, 'INVALID_REQUEST');
  });

  it('a cancel signed over the trading chainId of the other environment (999) answers 403', async () => {
    const t = await Trader.create(ctx);
    const { id } = await restingOrder(t);
    expectError(await t.cancel(id, 'LIMIT', { chainId: 999 }), 403, 'FORBIDDEN');
  });

  it('a replayed cancel answers 409', async () => {
    const t = await Trader.create(ctx);
    const { id } = await restingOrder(t);
    const body = await t.cancelBody(id, 'LIMIT');
    expectOk(await ctx.api.post(`/orders/${id}/cancel`, body));
    expectReplay(await ctx.api.post(`/orders/${id}/cancel`, body));
  });

  it('cancelling an order that already filled leaves it FILLED', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const id = expectLegSubmitted(await t.place(marketSpec(m, p, 'BUY')));
    await ctx.waitStatus(id, 'FILLED');
    const res = await t.cancel(id, 'LIMIT');
    expect([200, 404], describeRes(res)).toContain(res.status);
    if (res.status === 200) expect(['SUBMITTED', 'REJECTED']).toContain(res.body.data.status);
    await ctx.advanceSteps(3, 1000);
    expect((await ctx.getOrder(id)).body.data.status).toBe('FILLED');
  });

  it('cancelling an unknown order is not SUBMITTED', async () => {
    const t = await Trader.create(ctx, { fund: null });
    const res = await t.cancel('no-such-order', 'LIMIT');
    if (res.status === 200) expect(res.body.data.status, describeRes(res)).toBe('REJECTED');
    else expectError(res, 404, 'NOT_FOUND');
  });

  it('order_type other than LIMIT or TRIGGER: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const { id } = await restingOrder(t);
    expectError(await t.cancel(id, 'MARKET'), 400, 'INVALID_REQUEST');
  });

  it('missing order_type or nonce: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const { id } = await restingOrder(t);
    for (const field of ['order_type', 'nonce', 'signature', 'account']) {
      const body = await t.cancelBody(id, 'LIMIT');
      delete body[field];
      expectError(await ctx.api.post(`/orders/${id}/cancel`, body), 400, 'INVALID_REQUEST');
    }
  });
});

describe('POST /orders/cancel-batch', () => {
  it('cancels every leg: per-leg SUBMITTED, success true, orders end CANCELLED', async () => {
    const t = await Trader.create(ctx);
    const a = await restingOrder(t);
    const b = await restingOrder(t, 'SELL');
    const res = await t.cancelBatch([await t.cancelLeg(a.id, 'LIMIT'), await t.cancelLeg(b.id, 'LIMIT')]);
    const data = expectOk(res);
    expect(data.map((l: J) => l.status)).toEqual(['SUBMITTED', 'SUBMITTED']);
    for (const id of [a.id, b.id]) expect((await ctx.waitStatus(id, TERMINAL)).order.status).toBe('CANCELLED');
  });

  it('a bad signature fails only its leg: HTTP 200, success false, that leg FAILED with a reason; the others cancel', async () => {
    const t = await Trader.create(ctx);
    const stranger = await Trader.create(ctx, { register: false, fund: null });
    const a = await restingOrder(t);
    const b = await restingOrder(t);
    const c = await restingOrder(t);
    const res = await t.cancelBatch([await t.cancelLeg(a.id, 'LIMIT'), await t.cancelLeg(b.id, 'LIMIT', { signer: stranger.agent }), await t.cancelLeg(c.id, 'LIMIT')]);
    expect(res.status, describeRes(res)).toBe(200);
    expect(res.body.success).toBe(false);
    const data = res.body.data as J[];
    expect(data.map((l) => l.status)).toEqual(['SUBMITTED', 'FAILED', 'SUBMITTED']);
    expect(typeof data[1].reason).toBe('string');
    expect(data[1].reason.length).toBeGreaterThan(0);
    expect((await ctx.waitStatus(a.id, TERMINAL)).order.status).toBe('CANCELLED');
    expect((await ctx.waitStatus(c.id, TERMINAL)).order.status).toBe('CANCELLED');
    await ctx.advanceSteps(2, 1000);
    expect((await ctx.getOrder(b.id)).body.data.status).toBe('ACCEPTED');
  });

  it('a leg naming an unknown order fails with FAILED (never REJECTED) and a reason', async () => {
    const t = await Trader.create(ctx);
    const a = await restingOrder(t);
    const res = await t.cancelBatch([await t.cancelLeg(a.id, 'LIMIT'), await t.cancelLeg('no-such-order', 'LIMIT')]);
    expect(res.status, describeRes(res)).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.data[0].status).toBe('SUBMITTED');
    expect(res.body.data[1].status).toBe('FAILED');
    expect(typeof res.body.data[1].reason).toBe('string');
  });

  it('mixes LIMIT and TRIGGER legs', async () => {
    const t = await Trader.create(ctx);
    const trig = await armedTrigger(t);
    const lim = await restingOrder(t);
    expectOk(await t.cancelBatch([await t.cancelLeg(trig.id, 'TRIGGER'), await t.cancelLeg(lim.id, 'LIMIT')]));
    expect((await ctx.waitStatus(trig.id, TERMINAL)).order.status).toBe('CANCELLED');
    expect((await ctx.waitStatus(lim.id, TERMINAL)).order.status).toBe('CANCELLED');
  });

  it('0 legs and 21 legs: 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx);
    const a = await restingOrder(t);
    expectError(await t.cancelBatch([]), 400, 'INVALID_REQUEST');
    const many = [];
    for (let i = 0; i < 21; i++) many.push(await t.cancelLeg(a.id, 'LIMIT'));
    expectError(await t.cancelBatch(many), 400, 'INVALID_REQUEST');
    await ctx.advanceSteps(2, 1000);
    expect((await ctx.getOrder(a.id)).body.data.status).toBe('ACCEPTED');
  });
});

describe('POST /orders/{orderId}/modify (existing order -> new order in PENDING_MODIFY)', () => {
  it('returns a new order_id; the old id is dead; the new order rests at the new price', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t);
    const newPrice = floorTick(D(spec.limit_price).mul(0.99), m.tick_size);
    const newSize = D(spec.size).mul(2).toFixed();
    const res = await t.modify(id, { limit_price: newPrice, size: newSize, trigger_price: '0' });
    const newId = expectOk(res).order_id as string;
    expect(typeof newId).toBe('string');
    expect(newId).not.toBe(id);
    // Right after: the new order (if persisted) is PENDING_MODIFY; the listed old row, if any, is_modifying.
    const early = await ctx.getOrder(newId);
    if (early.status === 200) expect(['PENDING_MODIFY', 'ACCEPTED', 'SUBMITTED']).toContain(early.body.data.status);
    else expectError(early, 404, 'NOT_FOUND');
    const during = (await t.openOrders()).orders as J[];
    const oldRow = during.find((o) => o.order_id === id);
    if (oldRow) expect(oldRow.is_modifying).toBe(true);
    // PENDING_MODIFY has no list counterpart: lists only ever carry the list vocabulary.
    for (const o of during) expect(o.status).toBe('open');
    for (const r of await t.history()) expect(['open', 'triggered', 'filled', 'partially_filled_cancelled', 'cancelled', 'rejected']).toContain(r.status);
    const { order } = await ctx.waitStatus(newId, 'ACCEPTED');
    expect(order.order_id).toBe(newId);
    expect((await ctx.waitStatus(id, TERMINAL)).order.status).not.toBe('FILLED');
    const open = (await t.openOrders()).orders as J[];
    expect(open.map((o) => o.order_id)).toEqual([newId]);
    expect(open[0]).toMatchObject({ limit_price: newPrice, size: newSize, side: 'buy', order_type: 'LIMIT', time_in_force: 'GTC', is_modifying: false });
  });

  it('is observed in PENDING_MODIFY while the order it replaces terminates', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t);
    const newId = expectOk(await t.modify(id, { limit_price: floorTick(D(spec.limit_price).mul(0.98), m.tick_size), size: spec.size, trigger_price: '0' })).order_id as string;
    const { seen } = await ctx.waitStatus(newId, 'ACCEPTED', { stepMs: 10, maxSteps: 500 });
    expect(seen).toContain('PENDING_MODIFY');
    expect(seen.filter((s) => s !== 'NOT_FOUND')[0]).toBe('PENDING_MODIFY');
  });

  it('a modify inherits ALO: moving a post-only order across the book is rejected post_only_would_take', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t, 'BUY', { time_in_force: 'ALO' });
    const p = await prices(ctx, m);
    const newId = expectOk(await t.modify(id, { limit_price: p.mktBuy, size: spec.size, trigger_price: '0' })).order_id as string;
    const { order } = await ctx.waitStatus(newId, TERMINAL);
    expect(order).toMatchObject({ status: 'REJECTED', reason: 'post_only_would_take' });
  });

  it('a modified ALO order that rests is listed with time_in_force ALO', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t, 'BUY', { time_in_force: 'ALO' });
    const newId = expectOk(await t.modify(id, { limit_price: floorTick(D(spec.limit_price).mul(0.99), m.tick_size), size: spec.size, trigger_price: '0' })).order_id as string;
    await ctx.waitStatus(newId, 'ACCEPTED');
    expect((await t.openOrders()).orders.find((o: J) => o.order_id === newId)?.time_in_force).toBe('ALO');
  });

  it('modifies an armed trigger (trigger price and fire price), size 0 allowed on a TP/SL', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await armedTrigger(t);
    const newTrig = floorTick(D(spec.trigger!.trigger_price).mul(0.98), m.tick_size);
    const newFire = floorTick(D(newTrig).mul(0.95), m.tick_size);
    const newId = expectOk(await t.modify(id, { limit_price: newFire, size: '0', trigger_price: newTrig })).order_id as string;
    const row = await ctx.until('modified trigger armed', async () => (await t.triggers()).find((o) => o.order_id === newId));
    expect(row).toMatchObject({ trigger_price: newTrig, limit_price: newFire, order_type: 'TRIGGER', tpsl: 'sl' });
    expect((await t.triggers()).some((o) => o.order_id === id)).toBe(false);
  });

  it('reusing the modified order\'s client_order_id is rejected', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p, 'BUY', { client_order_id: cid('orig') });
    const id = expectLegSubmitted(await t.place(spec));
    await ctx.waitStatus(id, 'ACCEPTED');
    expectModifyRefused(await t.modify(id, { limit_price: spec.limit_price, size: spec.size, trigger_price: '0', client_order_id: spec.client_order_id! }));
    await ctx.advanceSteps(2, 1000);
    expect((await ctx.getOrder(id)).body.data.status).toBe('ACCEPTED');
  });

  it('size 0 on a LIMIT order is refused (0 is only for TP/SL triggers)', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t);
    expectModifyRefused(await t.modify(id, { limit_price: spec.limit_price, size: '0', trigger_price: '0' }));
    await ctx.advanceSteps(2, 1000);
    expect((await ctx.getOrder(id)).body.data.status).toBe('ACCEPTED');
  });

  it("trigger_price is '0' for a limit order: a non-zero trigger_price on a LIMIT modify is refused", async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t);
    expectModifyRefused(await t.modify(id, { limit_price: spec.limit_price, size: spec.size, trigger_price: spec.limit_price }));
    await ctx.advanceSteps(2, 1000);
    expect((await ctx.getOrder(id)).body.data.status).toBe('ACCEPTED');
  });

  it.each(['account_id', 'client_order_id', 'limit_price', 'size', 'trigger_price', 'nonce', 'signature'])('no partial modify: missing %s is 400 INVALID_REQUEST', async (field) => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t);
    const body = await t.modifyBody(id, { limit_price: spec.limit_price, size: spec.size, trigger_price: '0' }, { omit: [field] });
    expectError(await ctx.api.post(`/orders/${id}/modify`, body), 400, 'INVALID_REQUEST');
  });

  it('clientOrderId is signed: a body client_order_id differing from the signed one answers 403', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t);
    expectError(await t.modify(id, { limit_price: spec.limit_price, size: spec.size, trigger_price: '0' }, { signAs: { clientOrderId: 'something-else' } }), 403, 'FORBIDDEN');
  });

  it('the path orderId is signed: a signature over another orderId answers 403', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t);
    expectError(await t.modify(id, { limit_price: spec.limit_price, size: spec.size, trigger_price: '0' }, { signAs: { orderId: id + 'x' } }), 403, 'FORBIDDEN');
  });

  it('a modify signed by another account\'s key answers 403', async () => {
    const t = await Trader.create(ctx);
    const other = await Trader.create(ctx, { fund: null });
    const { id, spec } = await restingOrder(t);
    expectError(await t.modify(id, { limit_price: spec.limit_price, size: spec.size, trigger_price: '0' }, { signer: other.agent }), 403, 'FORBIDDEN');
  });

  it('a replayed modify answers 409', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await restingOrder(t);
    const body = await t.modifyBody(id, { limit_price: floorTick(D(spec.limit_price).mul(0.99), m.tick_size), size: spec.size, trigger_price: '0' });
    expectOk(await ctx.api.post(`/orders/${id}/modify`, body));
    expectReplay(await ctx.api.post(`/orders/${id}/modify`, body));
  });

  it('modifying an unknown order does not create one', async () => {
    const t = await Trader.create(ctx, { fund: null });
    expectModifyRefused(await t.modify('no-such-order', { limit_price: '100', size: '1', trigger_price: '0' }));
  });

  it('a trigger modify racing the trigger firing is dropped and the original stays (fires)', async () => {
    const t = await Trader.create(ctx);
    const { id, spec } = await armedTrigger(t);
    const before = await prices(ctx, m);
    // The mark crosses the trigger; before any time passes, a modify moving the trigger away arrives.
    await ctx.setMark(m.symbol, floorTick(D(spec.trigger!.trigger_price).mul(0.99), m.tick_size));
    const res = await t.modify(id, { limit_price: floorTick(D(spec.limit_price).mul(0.5), m.tick_size), size: '0', trigger_price: floorTick(D(spec.trigger!.trigger_price).mul(0.5), m.tick_size) });
    const newId: string | undefined = res.status === 200 ? res.body.data?.order_id : undefined;
    const { order } = await ctx.waitStatus(id, TERMINAL);
    expect(order.status, JSON.stringify({ order, modify: res.body })).toBe('FILLED');
    await t.waitPosition(m.symbol, (x) => x === undefined);
    if (newId) {
      await ctx.advanceSteps(3, 1000);
      expect((await t.triggers()).some((o) => o.order_id === newId)).toBe(false);
      const n = await ctx.getOrder(newId);
      if (n.status === 200) expect(TERMINAL).toContain(n.body.data.status);
    }
    await ctx.setMark(m.symbol, before.mark);
  });
});

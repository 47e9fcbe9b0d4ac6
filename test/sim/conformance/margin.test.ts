/**
 * Isolated margin adjustments: POST /positions/margin and GET /positions/margin/{requestId}.
 * Spec: "Margin request", "Margin adjustment request" transitions, "Margin" endpoints, margin reasons
 * NO_OPEN_POSITION, UNKNOWN_MARKET, INVALID_REQUEST, INSUFFICIENT_BALANCE, EXCEEDS_MAX_REMOVABLE,
 * TRANSFER_DECLINED, DECLINED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ctx, D, Trader, expectError, expectOk, expectReplay, fmt, openPosition, type J, type Market, type Res } from './support/fixtures.js';
import { describeRes } from './support/client.js';

let ctx: Ctx;
let m: Market;
beforeAll(async () => {
  ctx = await Ctx.boot();
  m = ctx.defaultMarket;
  // These tests compare isolated_margin before and after a request. Hourly funding is paid into isolated
  // margin and the sim clock starts from the wall clock, so an hour boundary could fall inside a test:
  // a zero rate keeps funding out of the comparison.
  await ctx.setFundingRate(m.symbol, '0');
});
afterAll(async () => {
  await ctx?.stop();
});

/** Submit answer: HTTP 200 with { request_id, status: SUBMITTED | REJECTED, reason? }. */
function submitted(res: Res): J {
  expect(res.status, describeRes(res)).toBe(200);
  const data = res.body.data;
  expect(['SUBMITTED', 'REJECTED'], describeRes(res)).toContain(data?.status);
  return data;
}

/** Follows a request to its verdict: 404 while pending, then APPLIED or REJECTED. */
async function verdict(res: Res): Promise<{ status: string; reason?: string; sawPending404: boolean }> {
  const data = submitted(res);
  if (data.status === 'REJECTED') return { status: 'REJECTED', reason: data.reason, sawPending404: false };
  expect(typeof data.request_id).toBe('string');
  const first = await ctx.api.get(`/positions/margin/${encodeURIComponent(data.request_id)}`);
  const sawPending404 = first.status === 404;
  if (sawPending404) expectError(first, 404, 'NOT_FOUND');
  const final = await ctx.until('margin verdict', async () => {
    const r = await ctx.api.get(`/positions/margin/${encodeURIComponent(data.request_id)}`);
    return r.status === 200 ? r.body.data : undefined;
  });
  expect(['APPLIED', 'REJECTED']).toContain(final.status);
  return { status: final.status, reason: final.reason, sawPending404 };
}

async function expectMarginReason(res: Res, reason: string): Promise<void> {
  const v = await verdict(res);
  expect(v.status, JSON.stringify(v)).toBe('REJECTED');
  expect(v.reason).toBe(reason);
}

describe('SUBMITTED -> APPLIED', () => {
  it('adding margin: SUBMITTED with a request_id, 404 while pending, then APPLIED; isolated_margin rises and free_balance falls by the amount', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    const { position } = await openPosition(t, m, 'BUY');
    const free = D(await t.freeBalance());
    const res = await t.margin(m.symbol, '25');
    const data = submitted(res);
    expect(data.status).toBe('SUBMITTED');
    const v = await verdict(res);
    expect(v).toMatchObject({ status: 'APPLIED', sawPending404: true });
    const after = await t.waitPosition(m.symbol, (p) => p !== undefined && D(p.isolated_margin).gt(position.isolated_margin));
    expect(D(after!.isolated_margin).minus(position.isolated_margin).eq(25)).toBe(true);
    expect(Number(after!.version)).toBeGreaterThan(Number(position.version));
    expect(free.minus(await t.freeBalance()).eq(25)).toBe(true);
  });

  it('removing margin (negative amount) after adding it: APPLIED; isolated_margin falls, free_balance rises', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    const { position } = await openPosition(t, m, 'BUY');
    expect((await verdict(await t.margin(m.symbol, '40'))).status).toBe('APPLIED');
    const free = D(await t.freeBalance());
    expect((await verdict(await t.margin(m.symbol, '-15'))).status).toBe('APPLIED');
    const p = await t.waitPosition(m.symbol, (x) => x !== undefined && D(x.isolated_margin).eq(D(position.isolated_margin).plus(25)));
    expect(p).toBeDefined();
    expect(D(await t.freeBalance()).minus(free).eq(15)).toBe(true);
  });
});

describe('rejections (HTTP 200 with a reason, up front or asynchronously)', () => {
  it('NO_OPEN_POSITION: no position on that market', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    await expectMarginReason(await t.margin(m.symbol, '10'), 'NO_OPEN_POSITION');
  });

  it('UNKNOWN_MARKET: an unknown market is a reason, not a 400', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    const res = await t.margin('NOPE-PERP', '10');
    expect(res.status, describeRes(res)).toBe(200);
    await expectMarginReason(res, 'UNKNOWN_MARKET');
  });

  it('INVALID_REQUEST: amount not a string is refused up front as REJECTED (HTTP 200)', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    await openPosition(t, m, 'BUY');
    const res = await t.margin(m.symbol, 10);
    expect(res.status, describeRes(res)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'REJECTED', reason: 'INVALID_REQUEST' });
  });

  it('INSUFFICIENT_BALANCE: adding more than free_balance', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    await openPosition(t, m, 'BUY');
    const free = D(await t.freeBalance());
    await expectMarginReason(await t.margin(m.symbol, fmt(free.plus(1000).ceil())), 'INSUFFICIENT_BALANCE');
    expect(D(await t.freeBalance()).eq(free)).toBe(true);
  });

  it('EXCEEDS_MAX_REMOVABLE: removing all posted margin', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    const { position } = await openPosition(t, m, 'BUY');
    await expectMarginReason(await t.margin(m.symbol, '-' + position.isolated_margin), 'EXCEEDS_MAX_REMOVABLE');
    const p = await t.position(m.symbol);
    expect(D(p!.isolated_margin).eq(position.isolated_margin)).toBe(true);
  });
});

describe('asynchronous refusals (SUBMITTED -> REJECTED with reason)', () => {
  it.each(['TRANSFER_DECLINED', 'DECLINED'])('%s: a submitted request later reads REJECTED with that reason; nothing moves', async (reason) => {
    const t = await Trader.create(ctx, { fund: '5000' });
    const { position } = await openPosition(t, m, 'BUY');
    const free = D(await t.freeBalance());
    await ctx.marginOutcome({ next: true, outcome: reason });
    const res = await t.margin(m.symbol, '20');
    expect(submitted(res).status).toBe('SUBMITTED');
    await expectMarginReason(res, reason);
    expect(D(await t.freeBalance()).eq(free)).toBe(true);
    expect(D((await t.position(m.symbol))!.isolated_margin).eq(position.isolated_margin)).toBe(true);
  });
});

describe('signing and shape', () => {
  /** Margin requests on record in the whole simulator (control route), to show a refusal left none. */
  async function marginRecords(): Promise<number> {
    const res = await ctx.ctl.get('/state');
    return expectOk(res).counts.margin_requests as number;
  }

  it('a request whose amount is not a string and that its trading key did not sign creates no record: the signature failure is answered first', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    await openPosition(t, m, 'BUY');
    const stranger = await Trader.create(ctx, { fund: null });
    const before = await marginRecords();
    const refusals: Res[] = [
      // signed by a key that is not active for the account (anyone can make one)
      await t.margin(m.symbol, 10, { signer: stranger.agent }),
      // the account's own key, but over other content than what is sent
      await t.margin(m.symbol, 10, { signAmount: '11' }),
      // a market that is not a string either
      await ctx.api.post('/positions/margin', { ...(await t.marginBody(m.symbol, 10, { signer: stranger.agent })), market: 7 }),
    ];
    for (const res of refusals) {
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body.data, describeRes(res)).toBeUndefined();
    }
    // Without a signature at all the request cannot be attributed: 400 naming the field.
    const unsigned = await t.marginBody(m.symbol, 10);
    delete unsigned.signature;
    const noSignature = await ctx.api.post('/positions/margin', unsigned);
    expectError(noSignature, 400, 'INVALID_REQUEST');
    expect(noSignature.body.error.message).toMatch(/signature/);
    expect(await marginRecords()).toBe(before);
    // Nothing was spent either: the refused nonce still works with a proper signature.
    const nonce = ctx.nonce();
    expectError(await t.margin(m.symbol, 10, { signer: stranger.agent, nonce }), 403, 'FORBIDDEN');
    expect((await t.margin(m.symbol, 10, { nonce })).status).toBe(200);
  });

  it('properly signed with an amount that is not a string: HTTP 200 REJECTED INVALID_REQUEST, on record, and its nonce is spent', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    await openPosition(t, m, 'BUY');
    const before = await marginRecords();
    const body = await t.marginBody(m.symbol, 10);
    const res = await ctx.api.post('/positions/margin', body);
    expect(res.status, describeRes(res)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'REJECTED', reason: 'INVALID_REQUEST' });
    expect(typeof res.body.data.request_id).toBe('string');
    const read = await ctx.api.get(`/positions/margin/${encodeURIComponent(res.body.data.request_id)}`);
    expect(expectOk(read)).toMatchObject({ request_id: res.body.data.request_id, status: 'REJECTED', reason: 'INVALID_REQUEST' });
    expect(await marginRecords()).toBe(before + 1);
    expectReplay(await ctx.api.post('/positions/margin', body));
  });

  it('signed by a key that is not active for the account: 403 FORBIDDEN', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    const other = await Trader.create(ctx, { fund: null });
    expectError(await t.margin(m.symbol, '10', { signer: other.agent }), 403, 'FORBIDDEN');
    expectError(await t.margin(m.symbol, '10', { signer: t.wallet }), 403, 'FORBIDDEN');
  });

  it('signed over the other environment\'s chainId (999): 403', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    expectError(await t.margin(m.symbol, '10', { chainId: 999 }), 403, 'FORBIDDEN');
  });

  it('the amount string is signed as sent: signing 10 and sending 10.0 does not verify (or is refused as non-canonical)', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    await openPosition(t, m, 'BUY');
    const res = await t.margin(m.symbol, '10.0', { signAmount: '10' });
    if (res.status === 403) expectError(res, 403, 'FORBIDDEN');
    else expect(res.body.data, describeRes(res)).toMatchObject({ status: 'REJECTED', reason: 'INVALID_REQUEST' });
  });

  it('a replayed margin request answers 409', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    await openPosition(t, m, 'BUY');
    const body = await t.marginBody(m.symbol, '10');
    submitted(await ctx.api.post('/positions/margin', body));
    expectReplay(await ctx.api.post('/positions/margin', body));
  });

  it('an unknown request id answers 404 NOT_FOUND', async () => {
    expectError(await ctx.api.get('/positions/margin/unknown-request'), 404, 'NOT_FOUND');
  });

  it('a successful submit envelope is success true', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    await openPosition(t, m, 'BUY');
    const data = expectOk(await t.margin(m.symbol, '5'));
    expect(data.status).toBe('SUBMITTED');
  });
});

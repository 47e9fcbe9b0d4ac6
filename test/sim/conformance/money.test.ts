/**
 * Deposits and withdrawals.
 * Spec: "Deposit", "Withdrawal" resources and transitions, POST /account/withdraw, "Balance",
 * withdrawal submit rejections (BELOW_MIN, BELOW_MIN_AFTER_FEE, ABOVE_MAX, DAILY_LIMIT_EXCEEDED,
 * RATE_LIMITED), 401 UNAUTHORIZED, "Funding config".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import {
  Ctx,
  D,
  DAY_MS,
  HOUR_MS,
  Trader,
  expectError,
  expectOk,
  expectReplay,
  fmt,
  newWallet,
  type J,
  type Res,
} from './support/fixtures.js';
import { describeRes } from './support/client.js';

let ctx: Ctx;
let minWithdraw: ReturnType<typeof D>;
let fee: ReturnType<typeof D>;
beforeAll(async () => {
  ctx = await Ctx.boot();
  minWithdraw = D(ctx.config.withdrawal.min_amount);
  fee = D(ctx.config.withdrawal.new_wallet_fee);
});
afterAll(async () => {
  await ctx?.stop();
});

const WD_TERMINAL = ['COMPLETED', 'REJECTED', 'REFUNDED', 'FAILED'];

/** A comfortable withdrawal amount: whole units, a few times the minimum plus the fee. */
const okAmount = (): string => fmt(minWithdraw.plus(fee).mul(3).plus(5).ceil());

async function getWithdrawal(id: string): Promise<Res> {
  return ctx.api.get(`/withdrawal-history/${encodeURIComponent(id)}`);
}

async function waitWithdrawal(id: string, wanted: string[], stepMs = 250, maxSteps = 400): Promise<{ w: J; seen: string[] }> {
  const seen: string[] = [];
  for (let i = 0; i <= maxSteps; i++) {
    const res = await getWithdrawal(id);
    const s = res.status === 200 ? String(res.body.data.status) : `HTTP${res.status}`;
    if (seen[seen.length - 1] !== s) seen.push(s);
    if (res.status === 200 && wanted.includes(res.body.data.status)) return { w: res.body.data, seen };
    if (i < maxSteps) await ctx.advance(stepMs);
  }
  throw new Error(`withdrawal ${id} never reached ${wanted.join('/')}; seen ${seen.join(' > ')}`);
}

function expectRequested(res: Res): string {
  const data = expectOk(res);
  expect(data.status, describeRes(res)).toBe('REQUESTED');
  expect(typeof data.withdrawal_id).toBe('string');
  return data.withdrawal_id as string;
}

function expectWithdrawRejected(res: Res, reason: string): J {
  expect(res.status, describeRes(res)).toBe(200);
  expect(res.body.data?.status, describeRes(res)).toBe('REJECTED');
  expect(res.body.data?.reason, describeRes(res)).toBe(reason);
  return res.body.data;
}

describe('deposits (control route stands in for a venue transfer)', () => {
  it('at or above the rail minimum: DETECTED, then CONFIRMED and credited to the sender\'s account', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    await ctx.deposit(t.address, '250');
    const first = await t.deposits();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ amount: '250', status: 'DETECTED' });
    expect(typeof first[0].tx_hash).toBe('string');
    expect(['send', 'spotTransfer', 'internalTransfer']).toContain(first[0].source);
    expect(first[0].detected_at).toBeDefined();
    expect(D(await t.freeBalance()).isZero()).toBe(true);
    const confirmed = await ctx.until('CONFIRMED', async () => {
      const d = (await t.deposits())[0];
      return d?.status === 'CONFIRMED' ? d : undefined;
    });
    expect(confirmed.credited_at).toBeDefined();
    expect(D(await t.freeBalance()).eq(250)).toBe(true);
  });

  it('exactly the hypercore min_amount is credited', async () => {
    const min = ctx.config.deposit.hypercore.min_amount as string;
    const t = await Trader.create(ctx, { register: false, fund: null });
    await ctx.deposit(t.address, min, 'hypercore');
    await ctx.until('CONFIRMED', async () => ((await t.deposits())[0]?.status === 'CONFIRMED' ? true : undefined));
    expect(D(await t.freeBalance()).eq(min)).toBe(true);
  });

  it('under the hypercore min_amount: BELOW_MIN, detected but never credited', async () => {
    const min = D(ctx.config.deposit.hypercore.min_amount);
    expect(min.gt(0)).toBe(true);
    const t = await Trader.create(ctx, { register: false, fund: null });
    await ctx.deposit(t.address, fmt(min.div(2)), 'hypercore');
    await ctx.advanceSteps(5, 2000);
    const d = await t.deposits();
    expect(d).toHaveLength(1);
    expect(d[0].status).toBe('BELOW_MIN');
    expect(D(await t.freeBalance()).isZero()).toBe(true);
  });

  it('each rail has its own minimum: under the arbitrum min_amount is BELOW_MIN', async () => {
    const min = D(ctx.config.deposit.arbitrum.min_amount);
    expect(min.gt(0)).toBe(true);
    const t = await Trader.create(ctx, { register: false, fund: null });
    await ctx.deposit(t.address, fmt(min.div(2)), 'arbitrum');
    await ctx.advanceSteps(5, 2000);
    expect((await t.deposits())[0]?.status).toBe('BELOW_MIN');
    expect(D(await t.freeBalance()).isZero()).toBe(true);
    await ctx.deposit(t.address, fmt(min), 'arbitrum');
    await ctx.until('CONFIRMED', async () => ((await t.deposits()).some((x) => x.status === 'CONFIRMED') ? true : undefined));
    expect(D(await t.freeBalance()).eq(min)).toBe(true);
  });

  it('deposit history is newest first', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    await ctx.deposit(t.address, '10');
    await ctx.advance(1000);
    await ctx.deposit(t.address, '20');
    await ctx.advance(5000);
    const d = await t.deposits();
    expect(d.map((x) => x.amount)).toEqual(['20', '10']);
  });
});

describe('withdrawal: REQUESTED -> ACCEPTED -> PROCESSING -> COMPLETED', () => {
  it('walks the happy path; free_balance drops at once (locked funds excluded); the record carries its fields', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const amount = okAmount();
    const id = expectRequested(await t.withdraw(amount));
    expect(D(await t.freeBalance()).eq(D(1000).minus(amount))).toBe(true);
    const { w, seen } = await waitWithdrawal(id, WD_TERMINAL);
    expect(seen).toEqual(['REQUESTED', 'ACCEPTED', 'PROCESSING', 'COMPLETED']);
    expect(w).toMatchObject({ withdrawal_id: id, amount, status: 'COMPLETED', failure_reason: null });
    expect(w.destination.toLowerCase()).toBe(t.address.toLowerCase());
    expect([amount, fmt(D(amount).minus(fee))]).toContain(fmt(D(w.l1_send_amount)));
    expect(typeof w.l1_tx_hash).toBe('string');
    expect(Number.isInteger(w.created_at)).toBe(true);
    expect(Number.isInteger(w.completed_at)).toBe(true);
    expect(D(await t.freeBalance()).eq(D(1000).minus(amount))).toBe(true);
    const hist = await t.withdrawals();
    expect(hist.map((x) => x.withdrawal_id)).toContain(id);
  });

  it('accepts any signing chainId above 0 equal to signature_chain_id', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    expectRequested(await t.withdraw(okAmount(), { chainId: 1 }));
    expectRequested(await t.withdraw(okAmount(), { chainId: 998 }));
  });

  it('insufficient balance is an asynchronous verdict: REQUESTED at submit, later REJECTED; balance unchanged', async () => {
    const t = await Trader.create(ctx, { register: false, fund: fmt(minWithdraw.plus(1)) });
    const amount = fmt(minWithdraw.plus(fee).plus(100).ceil());
    const id = expectRequested(await t.withdraw(amount));
    const { w } = await waitWithdrawal(id, WD_TERMINAL);
    expect(w.status).toBe('REJECTED');
    expect(D(await t.freeBalance()).eq(minWithdraw.plus(1))).toBe(true);
  });

  it('withdrawal history is newest first with no total', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const a = expectRequested(await t.withdraw(okAmount()));
    await ctx.advance(1000);
    const b = expectRequested(await t.withdraw(okAmount()));
    const data = expectOk(await ctx.api.get(`/account/${t.accountId}/withdrawal-history`));
    expect(data.total).toBeUndefined();
    expect(data.withdrawals.map((x: J) => x.withdrawal_id)).toEqual([b, a]);
  });
});

describe('terminal outcomes set through the control route', () => {
  it('REFUNDED: debited, then returned in full to the balance', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const id = expectRequested(await t.withdraw(okAmount()));
    await ctx.withdrawalOutcome({ withdrawal_id: id, outcome: 'REFUNDED' });
    const { w } = await waitWithdrawal(id, WD_TERMINAL);
    expect(w.status).toBe('REFUNDED');
    expect(D(await t.freeBalance()).eq(1000)).toBe(true);
  });

  it('FAILED: status FAILED with a failure_reason; the locked funds return only on a refund', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const amount = okAmount();
    const id = expectRequested(await t.withdraw(amount));
    await ctx.withdrawalOutcome({ withdrawal_id: id, outcome: 'FAILED' });
    const { w } = await waitWithdrawal(id, WD_TERMINAL);
    expect(w.status).toBe('FAILED');
    expect(typeof w.failure_reason).toBe('string');
    expect(D(await t.freeBalance()).eq(D(1000).minus(amount))).toBe(true);
  });

  it('REJECTED by the platform after acceptance', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const id = expectRequested(await t.withdraw(okAmount()));
    await ctx.withdrawalOutcome({ withdrawal_id: id, outcome: 'REJECTED' });
    expect((await waitWithdrawal(id, WD_TERMINAL)).w.status).toBe('REJECTED');
  });

  it('next: true applies the outcome to the next withdrawal', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    await ctx.withdrawalOutcome({ next: true, outcome: 'REFUNDED' });
    const id = expectRequested(await t.withdraw(okAmount()));
    expect((await waitWithdrawal(id, WD_TERMINAL)).w.status).toBe('REFUNDED');
    expect(D(await t.freeBalance()).eq(1000)).toBe(true);
  });
});

describe('the new-wallet fee: only a destination with no history on it pays it ("Funding config", l1_send_amount)', () => {
  it('a wallet that deposited has history: its first withdrawal to itself pays no fee (l1_send_amount = amount)', async () => {
    expect(fee.gt(0), 'needs a non-zero new_wallet_fee').toBe(true);
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const amount = okAmount();
    const id = expectRequested(await t.withdraw(amount));
    const { w } = await waitWithdrawal(id, WD_TERMINAL);
    expect(w.status).toBe('COMPLETED');
    expect(w.destination.toLowerCase()).toBe(t.address.toLowerCase());
    expect(D(w.l1_send_amount).eq(amount), `l1_send_amount ${w.l1_send_amount} of ${amount}`).toBe(true);
  });

  it('so a first withdrawal of exactly withdrawal.min_amount to its own deposited wallet is REQUESTED, not BELOW_MIN_AFTER_FEE', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const id = expectRequested(await t.withdraw(fmt(minWithdraw)));
    const { w } = await waitWithdrawal(id, WD_TERMINAL);
    expect(D(w.l1_send_amount).eq(minWithdraw)).toBe(true);
  });

  it('an Arbitrum-rail recipient that has deposited pays no fee; a recipient with no history pays it', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const amount = fmt(minWithdraw.plus(fee).plus(3).ceil());
    const depositor = await Trader.create(ctx, { register: false, fund: '50' });
    const toDepositor = (await waitWithdrawal(expectRequested(await t.withdraw(amount, { recipient: depositor.address })), WD_TERMINAL)).w;
    expect(toDepositor.status).toBe('COMPLETED');
    expect(D(toDepositor.l1_send_amount).eq(amount)).toBe(true);
    const fresh = newWallet().address;
    const toFresh = (await waitWithdrawal(expectRequested(await t.withdraw(amount, { recipient: fresh })), WD_TERMINAL)).w;
    expect(toFresh.status).toBe('COMPLETED');
    expect(D(toFresh.l1_send_amount).eq(D(amount).minus(fee))).toBe(true);
  });
});

describe('submit rejections (HTTP 200, status REJECTED, reason)', () => {
  it('BELOW_MIN: under withdrawal.min_amount; no progression, balance untouched', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const below = minWithdraw.gt(1) ? minWithdraw.minus(1) : minWithdraw.div(2);
    expectWithdrawRejected(await t.withdraw(fmt(below)), 'BELOW_MIN');
    await ctx.advanceSteps(4, 5000);
    expect(D(await t.freeBalance()).eq(1000)).toBe(true);
    expect((await t.withdrawals()).every((w) => w.status !== 'COMPLETED')).toBe(true);
  });

  it('exactly withdrawal.min_amount is REQUESTED (own wallet with history, default rail)', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    // Once the wallet has been credited before, no activation fee applies to it.
    const id = expectRequested(await t.withdraw(okAmount()));
    await waitWithdrawal(id, WD_TERMINAL);
    expectRequested(await t.withdraw(fmt(minWithdraw)));
  });

  it('BELOW_MIN_AFTER_FEE: Arbitrum rail to a fresh recipient, at the minimum but under it once new_wallet_fee is deducted; new_wallet_fee carries the fee', async () => {
    expect(fee.gt(0), 'needs a non-zero new_wallet_fee').toBe(true);
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const recipient = newWallet().address;
    const data = expectWithdrawRejected(await t.withdraw(fmt(minWithdraw), { recipient }), 'BELOW_MIN_AFTER_FEE');
    expect(D(data.new_wallet_fee).eq(fee)).toBe(true);
    expect(D(await t.freeBalance()).eq(1000)).toBe(true);
  });

  it('the new-wallet fee is charged once, on the first credit to a fresh destination: l1_send_amount = amount - fee, then the full amount', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const recipient = newWallet().address;
    const amount = fmt(minWithdraw.plus(fee).plus(3).ceil());
    const first = expectRequested(await t.withdraw(amount, { recipient }));
    const { w } = await waitWithdrawal(first, WD_TERMINAL);
    expect(w.status).toBe('COMPLETED');
    expect(w.destination.toLowerCase()).toBe(recipient.toLowerCase());
    expect(D(w.l1_send_amount).eq(D(amount).minus(fee))).toBe(true);
    const second = expectRequested(await t.withdraw(amount, { recipient }));
    const w2 = (await waitWithdrawal(second, WD_TERMINAL)).w;
    expect(D(w2.l1_send_amount).eq(amount)).toBe(true);
  });

  it('ABOVE_MAX: over the per-transaction ceiling (checked at submit, before any balance verdict)', async () => {
    const t = await Trader.create(ctx, { register: false, fund: null });
    expectWithdrawRejected(await t.withdraw('1000000000000'), 'ABOVE_MAX');
  });

  it('DAILY_LIMIT_EXCEEDED: repeated withdrawals at the per-transaction ceiling exhaust the rolling daily allowance', async () => {
    // Find the ceiling (not served by the API) with fresh wallets, so no probe touches the tested wallet's limits.
    let lo = D(okAmount());
    let hi = D('1000000000000');
    while (hi.minus(lo).gt(1)) {
      const mid = lo.plus(hi).div(2).floor();
      const probe = await Trader.create(ctx, { register: false, fund: null });
      const res = await probe.withdraw(fmt(mid));
      if (res.body?.data?.reason === 'ABOVE_MAX') hi = mid;
      else lo = mid;
    }
    const max = lo;
    const t = await Trader.create(ctx, { register: false, fund: fmt(max.mul(25)) });
    let rejected: J | undefined;
    for (let i = 0; i < 20 && !rejected; i++) {
      const res = await t.withdraw(fmt(max));
      expect(res.status, describeRes(res)).toBe(200);
      if (res.body.data.status === 'REJECTED') rejected = res.body.data;
      else expect(res.body.data.status).toBe('REQUESTED');
      await ctx.advance(5 * 60_000);
    }
    expect(rejected?.reason).toBe('DAILY_LIMIT_EXCEEDED');
    // Rolling: a day later the allowance is back.
    await ctx.advance(DAY_MS);
    expectRequested(await t.withdraw(fmt(max)));
  });

  it('RATE_LIMITED: too many requests in a short window; accepted again once the window has passed', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '100000' });
    let limited: J | undefined;
    for (let i = 0; i < 50 && !limited; i++) {
      const res = await t.withdraw(okAmount());
      expect(res.status, describeRes(res)).toBe(200);
      if (res.body.data.status === 'REJECTED') limited = res.body.data;
    }
    expect(limited?.reason).toBe('RATE_LIMITED');
    await ctx.advance(HOUR_MS);
    expectRequested(await t.withdraw(okAmount()));
  });
});

describe('withdrawal signatures (main wallet; 401 UNAUTHORIZED)', () => {
  it('signed by the trading key: 401 UNAUTHORIZED (a leaked trading key cannot withdraw)', async () => {
    const t = await Trader.create(ctx, { fund: '1000' });
    expectError(await t.withdraw(okAmount(), { signer: t.agent }), 401, 'UNAUTHORIZED');
    expect(D(await t.freeBalance()).eq(1000)).toBe(true);
  });

  it('amount signed as whole units instead of 6-decimal base units: 401', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const amount = okAmount();
    // Signing the raw number (uint256 = amount, i.e. amount / 10^6 USDC) is the classic mistake.
    expectError(await t.withdraw(amount, { signAmount: fmt(D(amount).div(1_000_000)) }), 401, 'UNAUTHORIZED');
  });

  it('default rail: a signed destination other than the wallet itself: 401', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    expectError(await t.withdraw(okAmount(), { signDestination: newWallet().address }), 401, 'UNAUTHORIZED');
  });

  it("signed for the other environment ('Mainnet') on the testnet service: 401", async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    expectError(await t.withdraw(okAmount(), { env: 'Mainnet' }), 401, 'UNAUTHORIZED');
  });

  it('signature_chain_id differing from the signed chainId: 401', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    expectError(await t.withdraw(okAmount(), { chainId: 42161, bodyChainId: 10 }), 401, 'UNAUTHORIZED');
  });

  it('another wallet signing for this account_id: 401', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    expectError(await t.withdraw(okAmount(), { signer: Wallet.createRandom() }), 401, 'UNAUTHORIZED');
    expect(D(await t.freeBalance()).eq(1000)).toBe(true);
  });

  it('Arbitrum rail: the recipient is the signed destination; signing the wallet instead is 401', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const recipient = newWallet().address;
    expectError(await t.withdraw(okAmount(), { recipient, signDestination: t.address }), 401, 'UNAUTHORIZED');
    expectRequested(await t.withdraw(fmt(minWithdraw.plus(fee).plus(1).ceil()), { recipient }));
  });

  it("Arbitrum rail: the mainnet destination_chain_id (42161) is refused on testnet", async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const res = await t.withdraw(okAmount(), { recipient: newWallet().address, destinationChainId: 42161 });
    if (res.status === 200) expect(res.body.data.status, describeRes(res)).toBe('REJECTED');
    else expectError(res, 400, 'INVALID_REQUEST');
    expect(D(await t.freeBalance()).eq(1000)).toBe(true);
  });

  it('the signature must be the { r, s, v } object, not a hex string', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const res = await t.withdraw(okAmount(), { hexSignature: true });
    expect([400, 401], describeRes(res)).toContain(res.status);
    expect(res.body.success).toBe(false);
    expect(D(await t.freeBalance()).eq(1000)).toBe(true);
  });

  it('signature_chain_id 0 is refused with 400', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const res = await t.withdraw(okAmount(), { chainId: 0 });
    expectError(res, 400);
  });

  it('a replayed withdrawal answers 409 and debits once', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    const amount = okAmount();
    const body = await t.withdrawBody(amount);
    expectRequested(await ctx.api.post('/account/withdraw', body));
    expectReplay(await ctx.api.post('/account/withdraw', body));
    expect(D(await t.freeBalance()).eq(D(1000).minus(amount))).toBe(true);
  });

  it('missing fields are 400 INVALID_REQUEST', async () => {
    const t = await Trader.create(ctx, { register: false, fund: '1000' });
    for (const field of ['account_id', 'amount', 'nonce', 'signature', 'signature_chain_id']) {
      const body = await t.withdrawBody(okAmount());
      delete body[field];
      expectError(await ctx.api.post('/account/withdraw', body), 400, 'INVALID_REQUEST');
    }
  });
});

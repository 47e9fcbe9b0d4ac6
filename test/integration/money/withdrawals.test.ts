/**
 * Withdrawals against the simulator over loopback HTTP: the checks made before signing (nothing signed,
 * nothing sent), the happy path to COMPLETED with the new-wallet fee preview, every submit-time
 * rejection the simulator produces, an asynchronous REJECTED, and REFUNDED / FAILED forced through the
 * control API. Limits the spec leaves unnamed (per-transaction ceiling, daily allowance, rate limit)
 * are configured on the simulator here and read back from it, never assumed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import type { ServiceContext } from '../../../src/main/services/serviceContext.js';
import { OperationError, ValidationError } from '../../../src/main/services/errors.js';
import { balanceOf, depositInfo, withdrawalHistory } from '../../../src/main/services/money/funds.js';
import { WithdrawalTracker } from '../../../src/main/services/money/tracker.js';
import { checkWithdrawal, listTrackedWithdrawals, unsuccessfulError, withdraw } from '../../../src/main/services/money/withdrawals/index.js';
import { SimHarness, cleanupKeychain, contextFor, newMainWallet, withdrawUnchecked, type MainWallet } from '../support/keysMoney.js';

let h: SimHarness;
let ctx: ServiceContext;
let dataDir: string;
let service: string;
let tracker: WithdrawalTracker;

const LIMITS = { max_per_tx: '50', daily_limit: '80', rate_limit_max: 3, rate_limit_window_ms: 60_000 };

beforeAll(async () => {
  h = await SimHarness.boot({ config: { withdrawal_limits: LIMITS } });
  const c = contextFor(h);
  ctx = c.ctx;
  dataDir = c.setup.dataDir;
  service = c.setup.keychainService;
  tracker = new WithdrawalTracker(ctx, { minIntervalMs: 10, maxIntervalMs: 50 });
});

afterAll(async () => {
  await cleanupKeychain(service);
  await h.stop();
});

const cfg = () => h.sim.config.funding_config.withdrawal;
const D = (s: string): Decimal => new Decimal(s);

async function funded(amount: string): Promise<MainWallet> {
  const main = newMainWallet();
  await h.fund(main.address, amount);
  return main;
}

async function rejection(p: Promise<unknown>): Promise<OperationError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OperationError);
  return err as OperationError;
}

function noncesOf(wallet: string): unknown {
  const file = path.join(dataDir, 'nonces.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>)[wallet.toLowerCase()] : undefined;
}

describe('deposit information', () => {
  it('comes from GET /config: address and every rail minimum', async () => {
    const info = await depositInfo(ctx);
    expect(info.address).toBe(h.sim.config.funding_config.deposit.hypercore.address);
    expect(info.rails.map((r) => r.rail).sort()).toEqual(Object.keys(h.sim.config.funding_config.deposit).sort());
    for (const r of info.rails) expect(r.min_amount).toBe(h.sim.config.funding_config.deposit[r.rail]!.min_amount);
  });
});

describe('checks before signing', () => {
  it('refuses bad amounts, amounts under the minimum and over the free balance: nothing signed, nothing sent', async () => {
    const main = await funded('20');
    const bad = ['0', '-1', '1.1234567', '1e3', 'abc', '', D(cfg().min_amount).minus('0.000001').toFixed(), '20.000001'];
    for (const amount of bad) {
      const err = await withdraw(ctx, { wallet: main.address, amount, signer: main.signer }).catch((e: unknown) => e);
      expect(err, amount).toBeInstanceOf(ValidationError);
    }
    const codes = await Promise.all(
      [D(cfg().min_amount).minus('0.5').toFixed(), '21'].map((amount) => withdraw(ctx, { wallet: main.address, amount, signer: main.signer }).catch((e: ValidationError) => e.code)),
    );
    expect(codes).toEqual(['BELOW_MIN', 'INSUFFICIENT_BALANCE']);
    expect(main.signer.signed).toHaveLength(0);
    expect(noncesOf(main.address)).toBeUndefined();
    expect(await withdrawalHistory(ctx, main.address)).toEqual([]);
    expect(listTrackedWithdrawals(ctx, { wallet: main.address })).toEqual([]);
  });

  it('canonicalises the amount typed by a person (no rounding); lenient spellings are refused, not completed', async () => {
    const main = await funded('20');
    const check = await checkWithdrawal(ctx, { wallet: main.address, amount: '5.50' });
    expect(check.amount).toBe('5.5');
    for (const amount of ['05.50', '5.', '.5', ' 5', '5 ']) {
      await expect(checkWithdrawal(ctx, { wallet: main.address, amount }), amount).rejects.toMatchObject({ code: 'INVALID_AMOUNT', kind: 'validation' });
    }
  });
});

describe('happy path', () => {
  it('withdraws to COMPLETED; a wallet that deposited has history, so no new-wallet fee is previewed or charged', async () => {
    const main = await funded('100');
    const first = await withdraw(ctx, { wallet: main.address, amount: '10', signer: main.signer });
    // Spec, Funding config: the fee is charged on the first-ever credit to a destination with no history;
    // this wallet's deposit is history.
    expect(first.check?.fee_preview).toBeNull();
    expect(first.withdrawal).toMatchObject({ phase: 'TRACKING', status: 'REQUESTED', amount: '10' });
    expect(main.signer.signed.map((d) => d.primaryType)).toEqual(['Withdraw']);
    // The signed body travelled with { r, s, v } and the amount as sent.
    expect(first.withdrawal.body.signature).toMatchObject({ r: expect.stringMatching(/^0x[0-9a-f]{64}$/), v: expect.any(Number) });
    expect((await balanceOf(ctx, main.address)).free_balance).toBe('90');

    const done = await h.advanceDuring(tracker.waitFor(first.withdrawal.intent_id, { timeoutMs: 20_000 }));
    expect(done).toMatchObject({ phase: 'DONE', status: 'COMPLETED', withdrawal_id: first.withdrawal.withdrawal_id });
    // The wallet deposited, so it has history: the venue charges no new-wallet fee on it, as previewed.
    expect(done.l1_send_amount).toBe('10');
    expect(done.l1_tx_hash).toMatch(/^0x/);

    const second = await withdraw(ctx, { wallet: main.address, amount: '5', signer: main.signer });
    expect(second.check?.fee_preview).toBeNull();
    const history = await withdrawalHistory(ctx, main.address);
    expect(history.map((w) => w.withdrawal_id)).toEqual([second.withdrawal.withdrawal_id, first.withdrawal.withdrawal_id]);
  });

  it('a repeated intent id never signs twice', async () => {
    const main = await funded('50');
    const a = await withdraw(ctx, { wallet: main.address, amount: '7', signer: main.signer, intentId: 'dialog-1' });
    const b = await withdraw(ctx, { wallet: main.address, amount: '7', signer: main.signer, intentId: 'dialog-1' });
    expect(b.withdrawal.withdrawal_id).toBe(a.withdrawal.withdrawal_id);
    expect(main.signer.signed).toHaveLength(1);
    expect(await withdrawalHistory(ctx, main.address)).toHaveLength(1);
  });
});

describe('submit-time rejections', () => {
  it('BELOW_MIN (the service verdict, reached past the local check)', async () => {
    const main = await funded('20');
    const amount = D(cfg().min_amount).minus('0.5').toFixed();
    const err = await rejection(withdrawUnchecked(ctx, { wallet: main.address, amount, signer: main.signer }));
    expect(err.code).toBe('BELOW_MIN');
    expect(err.message).toMatch(/rejected: BELOW_MIN/);
    const [record] = listTrackedWithdrawals(ctx, { wallet: main.address });
    expect(record).toMatchObject({ phase: 'DONE', status: 'REJECTED', reason: 'BELOW_MIN', withdrawal_id: null });
    expect(await withdrawalHistory(ctx, main.address)).toEqual([]);
  });

  it('BELOW_MIN_AFTER_FEE carries new_wallet_fee', async () => {
    // Only a destination with no history pays the fee, and a wallet that deposited has history: the
    // verdict needs a wallet that never deposited, sent past the local free-balance check (the submit
    // rules come before the service's asynchronous balance check).
    const main = newMainWallet();
    const amount = D(cfg().min_amount).plus(D(cfg().new_wallet_fee).div(2)).toFixed();
    const err = await rejection(withdrawUnchecked(ctx, { wallet: main.address, amount, signer: main.signer }));
    expect(err.code).toBe('BELOW_MIN_AFTER_FEE');
    expect(err.details?.['new_wallet_fee']).toBe(cfg().new_wallet_fee);
    expect(err.message).toContain(`new_wallet_fee ${cfg().new_wallet_fee}`);
    expect(err.hint).toMatch(/new-wallet fee/);
  });

  it('ABOVE_MAX', async () => {
    const limits = h.sim.config.withdrawal_limits;
    const main = await funded(D(limits.max_per_tx).mul(2).toFixed());
    const err = await rejection(withdraw(ctx, { wallet: main.address, amount: D(limits.max_per_tx).plus(1).toFixed(), signer: main.signer }));
    expect(err.code).toBe('ABOVE_MAX');
  });

  it('DAILY_LIMIT_EXCEEDED', async () => {
    const limits = h.sim.config.withdrawal_limits;
    const main = await funded(D(limits.daily_limit).mul(2).toFixed());
    let total = D('0');
    // Whole per-transaction withdrawals until the next one would cross the daily allowance.
    while (total.plus(limits.max_per_tx).lte(limits.daily_limit)) {
      await withdraw(ctx, { wallet: main.address, amount: limits.max_per_tx, signer: main.signer });
      total = total.plus(limits.max_per_tx);
    }
    const err = await rejection(withdraw(ctx, { wallet: main.address, amount: limits.max_per_tx, signer: main.signer }));
    expect(err.code).toBe('DAILY_LIMIT_EXCEEDED');
    expect(err.hint).toMatch(/24-hour/);
  });

  it('RATE_LIMITED', async () => {
    const limits = h.sim.config.withdrawal_limits;
    const main = await funded('100');
    const amount = D(cfg().min_amount).plus(cfg().new_wallet_fee).plus(1).toFixed();
    for (let i = 0; i < limits.rate_limit_max; i++) await withdraw(ctx, { wallet: main.address, amount, signer: main.signer });
    const err = await rejection(withdraw(ctx, { wallet: main.address, amount, signer: main.signer }));
    expect(err.code).toBe('RATE_LIMITED');
    expect(await withdrawalHistory(ctx, main.address)).toHaveLength(limits.rate_limit_max);
  });
});

describe('asynchronous outcomes', () => {
  it('REJECTED after submission when the balance check fails', async () => {
    const main = await funded('10');
    // Past the local free-balance check on purpose: the service's balance check is asynchronous.
    const record = await withdrawUnchecked(ctx, { wallet: main.address, amount: '20', signer: main.signer });
    expect(record.status).toBe('REQUESTED');
    const done = await h.advanceDuring(tracker.waitFor(record.intent_id, { timeoutMs: 20_000 }));
    expect(done).toMatchObject({ phase: 'DONE', status: 'REJECTED', failure_reason: 'INSUFFICIENT_BALANCE' });
    expect(unsuccessfulError(done).code).toBe('WITHDRAWAL_REJECTED');
    expect((await balanceOf(ctx, main.address)).free_balance).toBe('10');
  });

  it('REFUNDED through the control route returns the amount to the balance', async () => {
    const main = await funded('30');
    const { withdrawal } = await withdraw(ctx, { wallet: main.address, amount: '10', signer: main.signer });
    expect((await balanceOf(ctx, main.address)).free_balance).toBe('20');
    await h.control('/withdrawal-outcome', { withdrawal_id: withdrawal.withdrawal_id, outcome: 'REFUNDED' });
    const done = await tracker.waitFor(withdrawal.intent_id, { timeoutMs: 5_000 });
    expect(done).toMatchObject({ status: 'REFUNDED', phase: 'DONE' });
    expect(unsuccessfulError(done).message).toMatch(/returned in full/);
    expect((await balanceOf(ctx, main.address)).free_balance).toBe('30');
  });

  it('FAILED at the end of processing (forced for the next withdrawal)', async () => {
    const main = await funded('30');
    await h.control('/withdrawal-outcome', { next: true, outcome: 'FAILED' });
    const { withdrawal } = await withdraw(ctx, { wallet: main.address, amount: '10', signer: main.signer });
    const done = await h.advanceDuring(tracker.waitFor(withdrawal.intent_id, { timeoutMs: 20_000 }));
    expect(done).toMatchObject({ status: 'FAILED', phase: 'DONE' });
    expect(done.failure_reason).toBeTruthy();
    expect(unsuccessfulError(done).code).toBe('WITHDRAWAL_FAILED');
  });

  it('REJECTED by review through the control route', async () => {
    const main = await funded('30');
    const { withdrawal } = await withdraw(ctx, { wallet: main.address, amount: '10', signer: main.signer });
    await h.control('/withdrawal-outcome', { withdrawal_id: withdrawal.withdrawal_id, outcome: 'REJECTED' });
    const done = await tracker.waitFor(withdrawal.intent_id, { timeoutMs: 5_000 });
    expect(done.status).toBe('REJECTED');
    expect((await balanceOf(ctx, main.address)).free_balance).toBe('30');
    expect(accountIdFromWallet(main.address)).toBe(done.account_id);
  });
});

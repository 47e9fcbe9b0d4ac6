/**
 * Withdrawals that must survive trouble: a restart mid-withdrawal (a new ServiceContext on the same data
 * folder picks up tracking), a send that never reached the service (resent unchanged after restart), a
 * connection dropped after the service processed the request (resent unchanged, the 409 proves it
 * landed, exactly one withdrawal), and the tracker's economy: one history read per account per poll,
 * backing off while nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../../src/main/services/serviceContext.js';
import { OperationError } from '../../../src/main/services/errors.js';
import { withdrawalHistory } from '../../../src/main/services/money/funds.js';
import { WithdrawalTracker } from '../../../src/main/services/money/tracker.js';
import { listTrackedWithdrawals, resumeWithdrawals, withdraw } from '../../../src/main/services/money/withdrawals/index.js';
import { SimHarness, cleanupKeychain, contextFor, newMainWallet, withdrawUnchecked, type MainWallet } from '../support/keysMoney.js';

let h: SimHarness;
const services: string[] = [];

beforeAll(async () => {
  h = await SimHarness.boot();
});

afterAll(async () => {
  await cleanupKeychain(...services);
  await h.stop();
});

function fresh(dataDir?: string, requests?: string[]): { ctx: ServiceContext; dataDir: string } {
  const c = contextFor(h, { ...(dataDir ? { dataDir } : {}), ...(requests ? { requests } : {}) });
  services.push(c.setup.keychainService);
  return { ctx: c.ctx, dataDir: c.setup.dataDir };
}

async function funded(amount: string): Promise<MainWallet> {
  const main = newMainWallet();
  await h.fund(main.address, amount);
  return main;
}

describe('restart', () => {
  it('a new service context on the same data folder resumes tracking a withdrawal in flight', async () => {
    const main = await funded('50');
    const first = fresh();
    const { withdrawal } = await withdraw(first.ctx, { wallet: main.address, amount: '10', signer: main.signer });
    await h.advance(h.sim.config.timings.withdrawal_accept_ms);
    // The first process is gone; a second one starts on the same folder.
    const second = fresh(first.dataDir);
    const resumed = await resumeWithdrawals(second.ctx);
    expect(resumed.records.map((r) => r.intent_id)).toEqual([withdrawal.intent_id]);
    const tracker = new WithdrawalTracker(second.ctx, { minIntervalMs: 10, maxIntervalMs: 50 });
    const done = await h.advanceDuring(tracker.waitFor(withdrawal.intent_id, { timeoutMs: 20_000 }));
    expect(done.status).toBe('COMPLETED');
    expect(listTrackedWithdrawals(second.ctx, { open: true })).toEqual([]);
  });

  it('a signed withdrawal that never reached the service is sent, unchanged, by the next process', async () => {
    const main = await funded('50');
    const first = fresh();
    await first.ctx.clock.now(); // the clock is read before the service goes away
    await h.chaos({ error_rate: 1 });
    const err = await withdrawUnchecked(first.ctx, { wallet: main.address, amount: '10', signer: main.signer }).catch((e: unknown) => e);
    await h.chaos({ error_rate: 0 });
    expect((err as OperationError).code).toBe('SUBMIT_UNCONFIRMED');
    const [stored] = listTrackedWithdrawals(first.ctx, { wallet: main.address });
    expect(stored).toMatchObject({ phase: 'SIGNED', withdrawal_id: null });
    expect(await withdrawalHistory(first.ctx, main.address)).toEqual([]);

    const second = fresh(first.dataDir);
    const { records } = await resumeWithdrawals(second.ctx, { wallet: main.address });
    expect(records).toEqual([expect.objectContaining({ intent_id: stored!.intent_id, phase: 'TRACKING', status: 'REQUESTED', nonce: stored!.nonce })]);
    expect(main.signer.signed).toHaveLength(1);
    expect(await withdrawalHistory(second.ctx, main.address)).toHaveLength(1);
  });
});

describe('dropped connection during submit', () => {
  it('drop_rate 1 then 0 produces exactly one withdrawal, found through the 409 of the identical resend', async () => {
    const main = await funded('50');
    const { ctx } = fresh();
    await ctx.clock.now();
    await h.chaos({ drop_rate: 1 });
    const err = await withdrawUnchecked(ctx, { wallet: main.address, amount: '12.5', signer: main.signer }).catch((e: unknown) => e);
    await h.chaos({ drop_rate: 0 });
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).code).toBe('SUBMIT_UNCONFIRMED');
    expect((err as OperationError).hint).toMatch(/never signed again/);

    const { records } = await resumeWithdrawals(ctx, { wallet: main.address });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ phase: 'TRACKING', status: 'REQUESTED', amount: '12.5' });
    expect(records[0]!.withdrawal_id).toBeTruthy();
    expect(records[0]!.send_attempts).toBe(2);

    const history = await withdrawalHistory(ctx, main.address);
    expect(history).toHaveLength(1);
    expect(history[0]!.withdrawal_id).toBe(records[0]!.withdrawal_id);
    expect(main.signer.signed).toHaveLength(1);

    const tracker = new WithdrawalTracker(ctx, { minIntervalMs: 10, maxIntervalMs: 50 });
    const done = await h.advanceDuring(tracker.waitFor(records[0]!.intent_id, { timeoutMs: 20_000 }));
    expect(done.status).toBe('COMPLETED');
    expect(await withdrawalHistory(ctx, main.address)).toHaveLength(1);
  });
});

describe('tracker economy', () => {
  it('one withdrawal-history read per account per poll, however many withdrawals are tracked', async () => {
    const requests: string[] = [];
    const { ctx } = fresh(undefined, requests);
    const a = await funded('100');
    const b = await funded('100');
    for (const amount of ['10', '11', '12']) await withdraw(ctx, { wallet: a.address, amount, signer: a.signer });
    for (const amount of ['13', '14']) await withdraw(ctx, { wallet: b.address, amount, signer: b.signer });
    const tracker = new WithdrawalTracker(ctx, { minIntervalMs: 10, maxIntervalMs: 50 });

    requests.length = 0;
    const poll = await tracker.pollOnce();
    expect(poll.requests).toBe(2);
    expect(requests.filter((r) => r.includes('/withdrawal-history'))).toHaveLength(2);
    expect(requests.every((r) => /\/account\/0x[0-9a-f]{64}\/withdrawal-history/.test(r))).toBe(true);

    requests.length = 0;
    const done = await h.advanceDuring(tracker.waitUntilClosed((r) => r.wallet === a.address || r.wallet === b.address, { timeoutMs: 20_000 }));
    expect(done.map((r) => r.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED']);
    // Never a per-withdrawal lookup.
    expect(requests.some((r) => /\/withdrawal-history\/[^/?]+$/.test(r.split('?')[0]!) && !r.includes('/account/'))).toBe(false);
  });

  it('backs off while nothing changes and stops as soon as the withdrawal is done', async () => {
    const intervals: string[] = [];
    let sleeps = 0;
    const c = contextFor(h, {
      sleep: async (ms) => {
        intervals.push(String(ms));
        sleeps++;
        // After five quiet polls the withdrawal moves, all the way to COMPLETED.
        if (sleeps === 5) await h.advance(h.withdrawalMs);
      },
    });
    services.push(c.setup.keychainService);
    const main = await funded('40');
    const { withdrawal } = await withdraw(c.ctx, { wallet: main.address, amount: '10', signer: main.signer });
    const tracker = new WithdrawalTracker(c.ctx, { minIntervalMs: 100, maxIntervalMs: 800, backoffFactor: 2 });
    const done = await tracker.waitFor(withdrawal.intent_id, { timeoutMs: 20_000 });
    expect(done.status).toBe('COMPLETED');
    expect(intervals).toEqual(['100', '200', '400', '800', '800']);
  });
});

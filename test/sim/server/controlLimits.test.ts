/**
 * Issue #26 item 7: every number the control API takes is bounded (a 400 naming the field and its range,
 * nothing changed), and advancing costs what happens in the span, not its length. Before the fix,
 * POST /sim/advance {"ms": 9007199254740991} ran the venue's walk once per skipped second until the
 * process ran out of heap, and POST /sim/deposit credited 10^400 USDC.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { EXACT_REPLAY_MS } from '../../../src/sim/runtime/clock.js';
import { nextHour } from '../../../src/sim/funding/funding.js';
import { Api, startTestSim } from './helpers.js';

let sim: RunningSimulator;
let api: Api;

beforeAll(async () => {
  ({ sim, api } = await startTestSim());
});
afterAll(async () => {
  await sim?.stop();
});

const HUGE = '1' + '0'.repeat(400);
const limits = () => sim.config.control_limits;

async function refused(path: string, body: unknown, field: string): Promise<string> {
  const res = await api.request('POST', sim.urls.control_url + path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
  const message = res.body.error.message as string;
  expect(message.startsWith(`${field}: `), message).toBe(true);
  return message;
}

describe('the control API bounds every number it takes', () => {
  it('POST /sim/advance: ms above max_advance_ms (2^53 - 1 among them), negative or fractional is 400 and the clock stays', async () => {
    const before = sim.clock.now();
    const message = await refused('/advance', { ms: Number.MAX_SAFE_INTEGER }, 'ms');
    expect(message).toContain(`from 0 to ${limits().max_advance_ms}`);
    expect(message).toContain('control_limits.max_advance_ms');
    await refused('/advance', { ms: limits().max_advance_ms + 1 }, 'ms');
    await refused('/advance', { ms: -1 }, 'ms');
    await refused('/advance', { ms: 1.5 }, 'ms');
    await refused('/advance', { ms: '1000' }, 'ms');
    expect(sim.clock.now()).toBe(before);
  });

  it('POST /sim/deposit: an amount above max_deposit (10^400 among them) is 400 and nothing is deposited; max_deposit itself is fine', async () => {
    const wallet = Wallet.createRandom().address;
    const count = () => sim.engine.ctx.store.deposits.size;
    const before = count();
    // 10^400 is refused by the shared decimal grammar's length bound before any number is built.
    expect(await refused('/deposit', { wallet, amount: HUGE }, 'amount')).toContain('at most 64 characters');
    expect(await refused('/deposit', { wallet, amount: `${limits().max_deposit}.000001` }, 'amount')).toContain(`at most ${limits().max_deposit} USDC`);
    expect(count()).toBe(before);
    const ok = await api.control('/deposit', { wallet, amount: limits().max_deposit });
    expect(ok.amount).toBe(limits().max_deposit);
  });

  it('POST /sim/mark: a price above max_mark or zero is 400 and the mark stays', async () => {
    const mark = async () => (await api.control('/state')).marks.BTC as string;
    const before = await mark();
    expect(await refused('/mark', { market: 'BTC', price: HUGE }, 'price')).toContain('at most 64 characters');
    expect(await refused('/mark', { market: 'BTC', price: `${limits().max_mark}.1` }, 'price')).toContain(`at most ${limits().max_mark}`);
    await refused('/mark', { market: 'BTC', price: '0' }, 'price');
    expect(await mark()).toBe(before);
  });

  it('POST /sim/funding-rate: a rate beyond ±max_funding_rate is 400; the bound itself is fine', async () => {
    const max = limits().max_funding_rate;
    expect(await refused('/funding-rate', { market: 'BTC', rate: `${max}1` }, 'rate')).toContain(`from -${max} to ${max}`);
    await refused('/funding-rate', { market: 'BTC', rate: `-${HUGE}` }, 'rate');
    expect((await api.control('/funding-rate', { market: 'BTC', rate: `-${max}` })).rate).toBe(`-${max}`);
    await api.control('/funding-rate', { market: 'BTC', rate: '0' });
  });

  it('POST /sim/chaos: latency and persist lag beyond their bounds are 400 and chaos stays', async () => {
    const before = (await api.control('/state')).chaos;
    await refused('/chaos', { latency_ms: Number.MAX_SAFE_INTEGER }, 'latency_ms');
    await refused('/chaos', { persist_lag_ms: Number.MAX_SAFE_INTEGER }, 'persist_lag_ms');
    await refused('/chaos', { error_rate: 2 }, 'error_rate');
    expect((await api.control('/state')).chaos).toEqual(before);
  });

  it('POST /sim/companion/rpc/fund: an amount beyond uint256 is 400', async () => {
    const res = await api.request('POST', `${sim.urls.companion_control_url}/rpc/fund`, { chain: 'arbitrum', address: Wallet.createRandom().address, amount: HUGE });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('uint256');
  });

  it('POST /sim/companion/inference/keys: a USD amount above max_deposit is 400 naming it; max_deposit itself is fine', async () => {
    const url = `${sim.urls.companion_control_url}/inference/keys`;
    for (const field of ['balance', 'spendingLimit', 'spent']) {
      const res = await api.request('POST', url, { key: 'sk-limits-test', [field]: HUGE });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toContain(field);
      expect(res.body.error).toContain(`at most ${limits().max_deposit} USD`);
    }
    const ok = await api.request('POST', url, { key: 'sk-limits-test', balance: limits().max_deposit });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe('advancing costs what happens in the span, not its length', () => {
  /** Walk steps (one mark event per market per step) and the wall time of one advance over HTTP. */
  async function walkStepsOf(ms: number): Promise<number> {
    let marks = 0;
    const off = sim.venue.onMark(() => {
      marks++;
    });
    try {
      await api.advance(ms);
    } finally {
      off();
    }
    return marks / sim.config.markets.length;
  }

  it('the longest advance allowed walks no more steps than the exact replay window, and jobs in the span still run on time', async () => {
    const tick = sim.config.timings.venue_tick_ms;
    const wallet = Wallet.createRandom().address;
    const deposit = await api.control('/deposit', { wallet, amount: '100' });
    const start = sim.clock.now();

    const replaySteps = await walkStepsOf(EXACT_REPLAY_MS);
    expect(replaySteps).toBe(EXACT_REPLAY_MS / tick);
    const maxSteps = await walkStepsOf(limits().max_advance_ms);
    // A year in one call: the replay window's steps plus the one late step that starts it.
    expect(maxSteps).toBeLessThanOrEqual(replaySteps + 1);
    expect(sim.clock.now()).toBe(start + EXACT_REPLAY_MS + limits().max_advance_ms);

    // The deposit's confirmation job fell inside the first advance and ran at its own time.
    const history = await api.get(`/account/${wallet.toLowerCase()}${'0'.repeat(24)}/deposit-history`);
    const credited = history.body.data.deposits.find((d: { tx_hash: string }) => d.tx_hash === deposit.tx_hash);
    expect(credited.credited_at).toBe(deposit.detected_at + sim.config.timings.deposit_confirm_ms);
    // Funding ran every hour of the span: each settlement schedules the next, and the next is the hour after now.
    const funding = sim.engine.ctx.jobs.snapshot().jobs.filter((job) => job.kind === 'funding.settle');
    expect(funding.map((job) => job.at)).toEqual([nextHour(sim.clock.now())]);
    expect((await api.control('/state')).job_errors).toEqual([]);
  }, 60_000);
});

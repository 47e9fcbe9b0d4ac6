/**
 * Cancelling an OCO pair in the app (oco:cancel), sim profile, the real IPC handlers: the watching runner
 * is let go, both resting legs are cancelled at the service, the pair ends `cancelled` and leaves the
 * background work; a finished or unknown pair is refused and nothing is sent. A pair whose leg's order id
 * was edited to another order is refused as damaged before any cancel is sent.
 *
 * The simulator runs a manual clock (issue 37): legs rest and cancels land as the test moves it, and the
 * refused cancel is checked by moving the clock past the moment a cancel sent would have landed.
 */
import { Wallet } from 'ethers';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppHarness, FAST_SIM_CONFIG } from './appHarness.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { SimBed } from '../../support/simBed.js';

const MAIN = 'PERPS_OCO_APP_MAIN_KEY';

describe('OCO pairs in the app: cancel', () => {
  let h: AppHarness;
  let sim: RunningSimulator;
  const env = { [MAIN]: Wallet.createRandom().privateKey };
  const control = async (route: string, body: unknown): Promise<void> => {
    await new SimBed(sim).control(route, body);
  };
  const ethOrders = async () => (await h.call('orders:listOpen', { market: 'ETH' })).orders;

  beforeAll(async () => {
    h = await AppHarness.start('oco', {
      env,
      core: {
        startSimulator: async ({ stateFile }) => {
          sim = await startSimulator({ port: 0, seed: 38, stateFile, manualClock: true, config: FAST_SIM_CONFIG });
          return sim;
        },
      },
    });
    await control('/freeze-marks', {});
    await control('/mark', { market: 'ETH', price: '3400' });
    await h.call('wallet:connectEnv', { variable: MAIN });
    const { agent } = await h.call('keys:create', { name: 'oco' });
    await h.call('keys:authorize', { review_id: (await h.call('keys:review', { action: 'authorize', agent, expires_in_days: 30 })).review_id });
    await h.call('funding:faucet', { amount: '5000' });
    await h.advanceUntil('the deposit', async () => (await h.call('account:balance', {})).free_balance === '5000', 100);
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  async function startPair(buy: string, sell: string, resting = 2) {
    const preview = await h.call('oco:preview', { market: 'ETH', buy, sell, size: '0.01', leverage: 3 });
    const pair = await h.call('oco:start', { preview_id: preview.preview_id });
    await h.advanceUntil('both legs resting', async () => (await ethOrders()).length === resting, 100);
    return pair;
  }

  it('cancels both resting legs and ends the pair; a finished or unknown pair is refused', async () => {
    const pair = await startPair('3300', '3500');
    expect(h.core.backgroundWork.active()).toEqual([expect.objectContaining({ kind: 'oco', id: pair.id })]);
    // The cancel waits for both legs' cancels to land: the clock moves until it answers.
    const cancelled = await h.advanceDuring('the cancel', h.call('oco:cancel', { id: pair.id }));
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.legs.map((l) => l.status)).toEqual(['cancelled', 'cancelled']);
    expect(cancelled.last_note).toMatch(/cancelled by the person: leg 1 cancelled; leg 2 cancelled$/);
    expect(await ethOrders()).toEqual([]);
    expect(h.core.backgroundWork.active()).toEqual([]);
    expect(await h.fail('oco:cancel', { id: pair.id })).toMatchObject({ code: 'OCO_FINISHED' });
    expect(await h.fail('oco:cancel', { id: '0123456789ab' })).toMatchObject({ code: 'OCO_NOT_FOUND' });
    expect(await h.fail('oco:cancel', { id: '../../etc' })).toMatchObject({ code: 'INVALID_PAYLOAD' });
  });

  it('a pair whose leg now names another order is refused as damaged: nothing is cancelled', async () => {
    // Another resting order of the wallet, which an edited record points at.
    const other = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'LIMIT', size: '0.02', limit_price: '3100', time_in_force: 'GTC', leverage: 3 } });
    const placed = await h.call('orders:place', { preview_id: other.preview_id });
    const otherId = placed.legs[0]!.order_id!;
    await h.advanceUntil('the other order resting', async () => (await ethOrders()).length === 1, 100);
    const pair = await startPair('3300', '3500', 3);
    // Quit-like: stop watching, then edit the record on disk as a hostile file would.
    await h.call('wallet:disconnect', { forget: true });
    await h.advanceUntil('the pair to be let go', () => h.core.backgroundWork.active().length === 0, 100);
    const dir = path.join(h.dataDir, ...fs.readdirSync(h.dataDir, { recursive: true }).map(String).find((p) => p.endsWith(`oco${path.sep}${pair.id}.json`))!.split(path.sep).slice(0, -1));
    const file = path.join(dir, `${pair.id}.json`);
    const record = JSON.parse(fs.readFileSync(file, 'utf8'));
    record.legs[0].order_id = otherId;
    fs.writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
    await h.call('wallet:connectEnv', { variable: MAIN });
    expect(await h.fail('oco:cancel', { id: pair.id })).toMatchObject({ code: 'VALIDATION', reason: 'OCO_RECORD_DAMAGED' });
    // Nothing was cancelled: the other order and both legs rest, now and at each step of the clock past the
    // moment a cancel sent with the refusal would have landed (the simulator's cancel takes 100 ms).
    for (let step = 0; step <= 5; step++) {
      if (step > 0) h.advance(100);
      expect((await ethOrders()).map((o) => o.order_id)).toContain(otherId);
      expect((await ethOrders()).length).toBe(3);
    }
    expect((await h.call('oco:list', {})).damaged.map((d) => d.id)).toContain(pair.id);
  });
});

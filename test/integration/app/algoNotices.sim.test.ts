/**
 * The algorithm host notifies from typed events (issue 38, item 2), through the app (sim profile, the real
 * IPC handlers): a TWAP paused by a risk limit (a `paused` event, reason risk_limit) is a notification
 * with the limit in words; the same TWAP paused by the person (twap:pause) is not, nor is its cancel.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { SimBed } from '../../support/simBed.js';
import { AppHarness, FAST_SIM_CONFIG } from './appHarness.js';

const MAIN = 'PERPS_ALGO_NOTICES_MAIN_KEY';

describe('notifications of running algorithms', () => {
  let h: AppHarness;
  let sim: RunningSimulator;
  const env = { [MAIN]: Wallet.createRandom().privateKey };
  const control = (route: string, body: unknown) => new SimBed(sim).control(route, body);
  const twapNotices = () => h.notifications.filter((n) => n.title.startsWith('TWAP '));

  beforeAll(async () => {
    h = await AppHarness.start('algo-notices', {
      env,
      core: {
        startSimulator: async ({ stateFile }) => {
          sim = await startSimulator({ port: 0, seed: 39, stateFile, manualClock: true, config: FAST_SIM_CONFIG });
          return sim;
        },
      },
    });
    await control('/freeze-marks', {});
    await control('/mark', { market: 'ETH', price: '3400' });
    await h.call('wallet:connectEnv', { variable: MAIN });
    const { agent } = await h.call('keys:create', { name: 'notices' });
    await h.call('keys:authorize', { review_id: (await h.call('keys:review', { action: 'authorize', agent, expires_in_days: 30 })).review_id });
    await h.call('funding:faucet', { amount: '5000' });
    await h.advanceUntil('the deposit', async () => (await h.call('account:balance', {})).free_balance === '5000', 100);
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  async function startTwap(): Promise<string> {
    const preview = await h.call('twap:preview', { market: 'ETH', side: 'BUY', total_size: '0.05', duration_s: 25, slices: 5, leverage: 5 });
    return (await h.call('twap:start', { preview_id: preview.preview_id })).id;
  }

  const statusOf = async (id: string) => (await h.call('twap:list', {})).twaps.find((t) => t.id === id)?.status;

  it('a pause and a cancel the person asked are not notified; a risk-limit pause is, with the limit in words', async () => {
    // The person's own pause and cancel: answered in the panel, not notified.
    const mine = await startTwap();
    await h.waitFor('it running', async () => (await statusOf(mine)) === 'running');
    await h.advanceDuring('the pause', h.call('twap:pause', { id: mine }));
    expect(await statusOf(mine)).toBe('paused');
    await h.call('twap:resume', { id: mine });
    await h.advanceDuring('the cancel', h.call('twap:cancel', { id: mine }));
    expect(await statusOf(mine)).toBe('cancelled');
    // Every event was logged, typed; none notified.
    expect(h.logs.some((l) => new RegExp(`\\[twap\\] twap ${mine} \\(ETH\\) paused: `).test(l))).toBe(true);
    expect(twapNotices()).toEqual([]);

    // A position limit with room for one more 0.01 ETH slice (34 USD), not two: the TWAP pauses before slice 2.
    // What the first TWAP bought shows on /positions a moment (the simulator's position lag) after its fill.
    const bought = (await h.call('twap:list', {})).twaps.find((t) => t.id === mine)!.filled_size;
    const held = await h.advanceUntil('the first TWAP on the position', async () => {
      const size = (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH')?.size ?? '0';
      return new Decimal(size).eq(bought) && size;
    }, 100);
    const limit = new Decimal(held).plus('0.015').mul(3400).toFixed(0);
    await h.call('risk:setLimits', { market: 'ETH', limits: { max_position_notional: limit } });
    const paused = await startTwap();
    await h.advanceUntil('the risk-limit pause', async () => (await statusOf(paused)) === 'paused', 500);
    const notice = await h.waitFor('its notification', () => twapNotices()[0]);
    expect(twapNotices()).toHaveLength(1);
    expect(notice).toEqual({ title: 'TWAP ETH paused', body: expect.stringMatching(/paused by a risk limit before slice 2\/5.*max_position_notional/) });
  }, 90_000);
});

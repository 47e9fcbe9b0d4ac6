/**
 * A trailing stop in the app (sim profile, the real IPC handlers): the data folder is shared with the
 * command line, so a trailing stop armed and run there shows on the app's position row as
 * "Trailing 20 · SL 3,380 · high 3,400", and, once nothing trails it, as paused with its last level armed.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareTrail, startTrail } from '../../../src/main/services/algos/trailing/index.js';
import { createServiceContext } from '../../../src/main/services/serviceContext.js';
import { simProfile } from '../../../src/main/profiles/profiles.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { AppHarness, FAST_SIM_CONFIG } from './appHarness.js';

const MAIN = 'PERPS_TRAIL_APP_MAIN_KEY';

describe('a trailing stop on the app position row', () => {
  let h: AppHarness;
  let sim: RunningSimulator;
  let wallet: string;

  beforeAll(async () => {
    h = await AppHarness.start('trailing', {
      env: { [MAIN]: Wallet.createRandom().privateKey },
      core: {
        startSimulator: async ({ stateFile }) => {
          sim = await startSimulator({ port: 0, seed: 27, stateFile, config: FAST_SIM_CONFIG });
          return sim;
        },
      },
    });
    await fetch(sim.urls.control_url + '/freeze-marks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await fetch(sim.urls.control_url + '/mark', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ market: 'ETH', price: '3400' }) });
    wallet = (await h.call('wallet:connectEnv', { variable: MAIN })).address!;
    const { agent } = await h.call('keys:create', { name: 'trail' });
    await h.call('keys:authorize', { review_id: (await h.call('keys:review', { action: 'authorize', agent, expires_in_days: 30 })).review_id });
    await h.call('funding:faucet', { amount: '5000' });
    await h.waitFor('the deposit', async () => (await h.call('account:balance', {})).free_balance === '5000');
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  it('shows the trailing stop in words while it runs, and as paused with its last level armed once it stops', async () => {
    const preview = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.05', leverage: 5 } });
    await h.call('orders:place', { preview_id: preview.preview_id });
    await h.waitFor('the ETH position', async () => (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH'));
    // The command line's side of the shared data folder: the same profile, data folder and keychain.
    const ctx = createServiceContext(simProfile(sim.urls, h.dataDir), { keychainService: h.keychainService });
    const runner = await startTrail(ctx, await prepareTrail(ctx, { wallet, market: 'ETH', distance: '20' }), await ctx.tradingSigner(wallet), { pollMs: 200 });
    const running = runner.run();
    const shown = await h.waitFor('the trailing stop on the row', async () => (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH' && p.trailing?.running));
    expect(shown.trailing).toMatchObject({ summary: 'Trailing 20 · SL 3,380 · high 3,400', distance: '20', stop: '3380', high_water: '3400', running: true });
    expect(shown.sl?.trigger_price).toBe('3380');
    runner.requestStop();
    await running;
    const after = (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH')!;
    expect(after.trailing).toMatchObject({ running: false, stop: '3380' });
    expect(after.sl?.trigger_price).toBe('3380');
  });
});

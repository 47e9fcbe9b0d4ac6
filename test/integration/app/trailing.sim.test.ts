/**
 * A trailing stop in the app (sim profile, the real IPC handlers): the data folder is shared with the
 * command line, so a trailing stop armed and run there shows on the app's position row as
 * "Trailing 20 · SL 3,380 · high 3,400", and, once nothing trails it, as paused with its last level armed.
 *
 * The simulator runs a manual clock (issue 37): the app's core and the command line's runner both wait on
 * it, and the test moves it (advanceUntil) wherever something takes time: a poll, a fill, time away.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareTrail, startTrail } from '../../../src/main/services/algos/trailing/index.js';
import { createServiceContext } from '../../../src/main/services/serviceContext.js';
import { simProfile } from '../../../src/main/profiles/profiles.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { SimBed } from '../../support/simBed.js';
import { sleepOnSimClock } from '../../support/simClockSleep.js';
import { AppHarness, FAST_SIM_CONFIG } from './appHarness.js';

const MAIN = 'PERPS_TRAIL_APP_MAIN_KEY';

describe('a trailing stop on the app position row', () => {
  let h: AppHarness;
  let sim: RunningSimulator;
  let wallet: string;
  /** The keychain service of the first start; a restart reopens the same one. */
  let service: string;

  const env = { [MAIN]: Wallet.createRandom().privateKey };
  const control = async (route: string, body: unknown): Promise<void> => {
    await new SimBed(sim).control(route, body);
  };
  const boot = (label: string, extra: { dataDir?: string; core?: { keychainService: string } } = {}) =>
    AppHarness.start(label, {
      env,
      ...(extra.dataDir ? { dataDir: extra.dataDir } : {}),
      core: {
        ...(extra.core ?? {}),
        startSimulator: async ({ stateFile }) => {
          sim = await startSimulator({ port: 0, seed: 27, stateFile, manualClock: true, config: FAST_SIM_CONFIG });
          return sim;
        },
      },
    });

  beforeAll(async () => {
    h = await boot('trailing');
    service = h.keychainService;
    await control('/freeze-marks', {});
    await control('/mark', { market: 'ETH', price: '3400' });
    wallet = (await h.call('wallet:connectEnv', { variable: MAIN })).address!;
    const { agent } = await h.call('keys:create', { name: 'trail' });
    await h.call('keys:authorize', { review_id: (await h.call('keys:review', { action: 'authorize', agent, expires_in_days: 30 })).review_id });
    await h.call('funding:faucet', { amount: '5000' });
    await h.advanceUntil('the deposit', async () => (await h.call('account:balance', {})).free_balance === '5000');
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  const ethRow = async () => (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH');

  /** A long of 0.05 ETH (opened at 3,400 if there is none yet). */
  async function openLong(): Promise<void> {
    if (await ethRow()) return;
    const preview = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.05', leverage: 5 } });
    await h.call('orders:place', { preview_id: preview.preview_id });
    await h.advanceUntil('the ETH position', ethRow);
  }

  /** A trailing stop 20 under the high run from the command line's side of the shared data folder (same profile, data folder and keychain). */
  async function trailFromCli(): Promise<{ running: Promise<unknown>; requestStop: () => void }> {
    const ctx = createServiceContext(simProfile(sim.urls, h.dataDir), { keychainService: service, sleep: sleepOnSimClock(() => sim.clock), localNow: () => sim.clock.now() });
    const runner = await startTrail(ctx, await prepareTrail(ctx, { wallet, market: 'ETH', distance: '20' }), await ctx.tradingSigner(wallet), { pollMs: 200 });
    return { running: runner.run(), requestStop: () => runner.requestStop() };
  }

  it('shows the trailing stop in words while it runs, and as paused with its last level armed once it stops', async () => {
    // From flat at 3,400, whatever ran before (the other test leaves a long with a stop at 3,465).
    if (await ethRow()) {
      await h.call('positions:close', { market: 'ETH' });
      await h.advanceUntil('no ETH position', async () => !(await ethRow()));
    }
    await control('/mark', { market: 'ETH', price: '3400' });
    await openLong();
    const runner = await trailFromCli();
    const running = runner.running;
    const shown = await h.advanceUntil('the trailing stop on the row', async () => (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH' && p.trailing?.running));
    expect(shown.trailing).toMatchObject({ summary: 'Trailing 20 · SL 3,380 · high 3,400', distance: '20', stop: '3380', high_water: '3400', running: true });
    expect(shown.sl?.trigger_price).toBe('3380');
    runner.requestStop();
    await running;
    const after = (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH')!;
    expect(after.trailing).toMatchObject({ running: false, stop: '3380' });
    expect(after.sl?.trigger_price).toBe('3380');
  });

  it('set from the app (trail:start), off leaves the level armed; bad input is refused; after a restart it is taken up and says what happened while away', async () => {
    // The long with the 3,380 stop the first test leaves, made here when this test runs alone.
    await openLong();
    if ((await ethRow())?.sl?.trigger_price !== '3380') {
      const runner = await trailFromCli();
      await h.advanceUntil('the 3,380 stop armed', async () => {
        const row = await ethRow();
        return row?.trailing?.running === true && row.sl?.trigger_price === '3380';
      });
      runner.requestStop();
      await runner.running;
    }
    for (const distance of ['0%', 'abc', '150%', '1e3', '0.01']) expect(await h.fail('trail:start', { market: 'ETH', distance })).toMatchObject({ code: 'VALIDATION' });
    expect((await h.fail('trail:start', { market: 'ETH', distance: 'x'.repeat(41) })).code).toBe('INVALID_PAYLOAD');
    const started = await h.call('trail:start', { market: 'ETH', distance: '1%' });
    // The stop armed by the first test (3,380) is adopted; 1% under 3,400 is 3,366, so it stays.
    expect(started.trailing).toMatchObject({ distance: '1%', stop: '3380', running: true });
    await control('/mark', { market: 'ETH', price: '3420' });
    const moved = await h.advanceUntil('the stop to trail up', async () => (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH' && p.sl?.trigger_price === '3385.8' && p.trailing?.stop === '3385.8'));
    expect(moved.trailing).toMatchObject({ summary: 'Trailing 1% · SL 3,385.8 · high 3,420', running: true });
    // A stop trailing here is background work: closing the window would keep the app in the tray, naming it.
    expect(h.core.backgroundWork.active()).toEqual([expect.objectContaining({ kind: 'trailing_stop', label: 'Trailing stop on ETH' })]);

    // Quit the app: trailing stops, the level stays armed. Start it again on the same data folder and keychain.
    // The trader disconnects (the signer dropped, the address forgotten) and quits: nothing trails the stop
    // from here, and the next start does not reopen the wallet by itself. Without that, the remembered
    // wallet reopened with the app and its runner, started within a second of the old one's last look,
    // rightly counted no time away and then followed the marks below live (no notice): a race.
    await h.call('wallet:disconnect', { forget: true });
    await h.advanceUntil('trailing to be let go', () => h.core.backgroundWork.active().every((w) => w.kind !== 'trailing_stop'));
    await h.core.stop();
    h = await boot('trailing-restart', { dataDir: h.dataDir, core: { keychainService: service } });
    await control('/freeze-marks', {});
    // While nothing trailed it: a high of 3,500, then back to 3,480, 1.2 s apart on the clock; nothing
    // took the stop up meanwhile.
    await control('/mark', { market: 'ETH', price: '3500' });
    h.advance(1_200);
    await control('/mark', { market: 'ETH', price: '3480' });
    h.advance(1_200);
    expect(h.core.backgroundWork.active().filter((w) => w.kind === 'trailing_stop')).toEqual([]);
    await h.call('wallet:connectEnv', { variable: MAIN });
    const notice = await h.advanceUntil('the notice of what happened while away', () => h.notifications.find((n) => /trailing stop/.test(n.title) && /While the desk was away/.test(n.body)));
    expect(notice.body).toMatch(/^While the desk was away \(\d+ s\), ETH made a high of 3,500; the mark is 3,480 now\. The stop moved from 3,385\.8 to 3,465\.$/);
    const back = await h.advanceUntil('the row after the restart', async () => (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH' && p.sl?.trigger_price === '3465' && p.trailing?.stop === '3465'));
    expect(back.trailing).toMatchObject({ summary: 'Trailing 1% · SL 3,465 · high 3,500', running: true });

    const off = await h.call('trail:off', { market: 'ETH' });
    expect(off.trailing).toBeNull();
    const left = await h.advanceUntil('trailing to stop', async () => (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH' && !p.trailing));
    expect(left.sl?.trigger_price).toBe('3465');
    await h.advanceUntil('the trailing stop to leave the background work', () => h.core.backgroundWork.active().every((w) => w.kind !== 'trailing_stop'));
  });
});

/**
 * `perps limits` and `perps panic` as a user's shell runs them (bin/perps.js in a child process) against
 * the simulator over loopback, on the wall clock (a child process cannot move a manual clock):
 *  - limits set/show/log with --json, `none`, bad input refused with exit 2 and nothing stored, and an
 *    order beyond a limit refused RISK_LIMIT with exit 2 (`perps order place` and `perps do`);
 *  - panic with 3 positions, 5 resting orders, a running TWAP and a trailing stop: every algorithm
 *    stopped, every order and trigger cancelled, every position closed, the report says so;
 *  - panic killed with SIGKILL after its cancel step, then finished by the next `perps panic`: the
 *    record says it resumed, nothing is left open, no order was cancelled twice.
 *
 * Where each run happens (issue 37): `limits` (set, show, log, refusals), the orders refused by a limit,
 * `balance`, the panic run over an empty account and the run that finishes a killed panic are `perps` in
 * this process (perpsInProcess.ts: same main, output and exit code). Children stay where the process is
 * the point: the refusal without a terminal (exit 2, as a shell with no terminal runs it), the panic that
 * stops a TWAP and a trailing stop running in ANOTHER process (this one; exit 0), and the SIGKILLed panic.
 *
 * Two simulators (issue 37). `limits` and the refusal run against one on a manual clock: the runs in this
 * process keep its time, and the refused child makes no request at all (it stops at "no terminal"), so
 * the test moves the clock past the moment anything it sent would have settled, then checks. The panic
 * that runs and the killed one are children that cancel, close and wait on the service while the TWAP and
 * the trailing stop run here: a child cannot wait on a clock living in this process, so they run against
 * a second simulator on the wall clock, with the in-process runs beside them (the empty panic, the one
 * that finishes the killed panic).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrders } from '../../../src/main/services/orders/submitOrder.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import { prepareTwap, startTwap } from '../../../src/main/services/algos/twap/index.js';
import { prepareTrail, startTrail } from '../../../src/main/services/algos/trailing/index.js';
import { PANIC_FOLDER, type PanicRecord } from '../../../src/main/services/risk/panic.js';
import { REPO_ROOT } from '../../support/paths.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { TradingWorld, type Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';

/** The simulator on a manual clock, which the runs in this process move. */
let w: TradingWorld;
/** The simulator on the wall clock, for the panics that run as children. */
let wall: TradingWorld;
beforeAll(async () => {
  [w, wall] = await Promise.all([TradingWorld.boot('risk-panic-cli'), TradingWorld.boot('risk-panic-cli-wall', { manualClock: false })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([w?.stop(), wall?.stop()]);
});

interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** `perps ARGS` as a shell runs it: bin/perps.js in a child process, against `world`. */
function perps(world: TradingWorld, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const globals = ['--profile', 'sim', '--base-url', world.sim.urls.base_url, '--venue-url', world.sim.urls.venue_info_url, '--data-dir', world.dataDir];
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [path.join(REPO_ROOT, 'bin/perps.js'), ...globals, ...args], { cwd: REPO_ROOT, env: { ...process.env, PERPS_KEYCHAIN_SERVICE: world.keychainService, ...env }, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: child.exitCode, signal: child.signalCode, stdout, stderr });
      void err;
    });
    child.stdin?.end();
  });
}
const onManual = perpsOn(() => w);
const onWall = perpsOn(() => wall);
/** `perps ARGS` in this process against `world`, for what its own process is not the point of. */
async function inProcess(world: TradingWorld, args: string[]): Promise<Run> {
  const r = await (world === w ? onManual : onWall)(args);
  return { code: r.code, signal: null, stdout: r.stdout, stderr: r.stderr };
}
const json = (r: Run): Record<string, unknown> => JSON.parse(r.stdout) as Record<string, unknown>;

async function openLong(t: Trader, market: string, multiple = 3): Promise<void> {
  const world = t.world;
  const m = world.market(market);
  const r = await placeOrders(world.ctx, { wallet: t.wallet, legs: [{ market, side: 'BUY', size: sizeFor(m, await world.mark(market), multiple), leverage: 5 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(world.ctx, t.accountId, market, (p) => p !== undefined, `${market} long`);
}

async function restingBuy(t: Trader, market: string, factor: string): Promise<void> {
  const world = t.world;
  const m = world.market(market);
  const mark = await world.mark(market);
  const r = await placeOrders(world.ctx, { wallet: t.wallet, legs: [{ market, side: 'BUY', size: sizeFor(m, mark, 2), order_type: 'LIMIT', limit_price: priceAt(m, mark, factor) }] });
  expect(r.success).toBe(true);
}

describe('perps limits', () => {
  it('set, show --json, log; bad input is exit 2 and changes nothing; an order beyond a limit is RISK_LIMIT, exit 2', async () => {
    const t = await w.trader();
    const set = await inProcess(w, ['--json', 'limits', 'set', '--wallet', t.wallet, '--daily-loss', '100', '--max-drawdown', '5', '--max-order-notional', '20', '--cooldown', '2h']);
    expect(set.code, set.stderr).toBe(0);
    const shown = await inProcess(w, ['--json', 'limits', 'show', '--wallet', t.wallet]);
    const doc = json(shown);
    expect(doc).toMatchObject({ limits: { daily_loss: '100', max_drawdown: '5', max_order_notional: '20' }, pending: [], lockout: null, cooldown_ms: 7_200_000 });
    expect((doc['room'] as { text: string }[]).map((r) => r.text)).toEqual(['Daily loss: 100 of 100 USD left', 'Drawdown: 5 of 5% left']);

    const loosen = await inProcess(w, ['--json', 'limits', 'set', '--wallet', t.wallet, '--daily-loss', 'none']);
    expect(loosen.code).toBe(0);
    expect(json(loosen)['pending']).toEqual([{ limit: 'daily_loss', value: null, effective_at: expect.any(Number) }]);
    const human = await inProcess(w, ['limits', 'show', '--wallet', t.wallet]);
    expect(human.stdout).toMatch(/Pending \(loosening waits its cool-down\):[\s\S]*daily_loss\s+none/);
    expect(human.stdout).toContain('Daily loss: 100 of 100 USD left');
    // `perps balance` says the same.
    const balance = await inProcess(w, ['balance', '--wallet', t.wallet]);
    expect(balance.stdout).toContain('Daily loss: 100 of 100 USD left');
    expect(balance.stdout).toContain('Drawdown: 5 of 5% left');

    for (const bad of [['--daily-loss', '-5'], ['--max-leverage', '2.5'], ['--reset-time', '25:00'], ['--cooldown', '10s'], ['--max-drawdown', '120'], ['--daily-loss', '1e3']]) {
      const r = await inProcess(w, ['--json', 'limits', 'set', '--wallet', t.wallet, ...bad]);
      expect(r.code, bad.join(' ')).toBe(2);
      expect((json(r)['error'] as { code: string }).code).toBe('INVALID_LIMIT');
    }
    const after = json(await inProcess(w, ['--json', 'limits', 'show', '--wallet', t.wallet]));
    expect(after['limits']).toEqual(doc['limits']);

    const m = w.market('BTC');
    const size = sizeFor(m, await w.mark('BTC'), 3);
    const refused = await inProcess(w, ['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--size', size]);
    expect(refused.code).toBe(2);
    expect(json(refused)['error']).toMatchObject({ code: 'RISK_LIMIT', exit_code: 2, limit: 'max_order_notional', value: '20' });
    const viaDo = await inProcess(w, ['--json', 'do', `buy ${size} btc`, '--wallet', t.wallet, '--yes']);
    expect(viaDo.code).toBe(2);
    expect(viaDo.stdout).toContain('RISK_LIMIT');
    expect(await t.historyIds()).toEqual(new Set());

    const log = json(await inProcess(w, ['--json', 'limits', 'log', '--wallet', t.wallet]));
    expect((log['entries'] as { limit: string; action: string }[]).map((e) => `${e.limit} ${e.action}`)).toEqual(['daily_loss applied', 'max_drawdown applied', 'max_order_notional applied', 'cooldown applied', 'daily_loss pending']);
    expect(fs.statSync(path.join(w.dataDir, 'risk-limits.log')).mode & 0o777).toBe(0o600);
  });
});

describe('perps panic', () => {
  it('refuses without a terminal and without --yes (exit 2, nothing done)', async () => {
    const t = await w.trader();
    await restingBuy(t, 'BTC', '0.9');
    const r = await perps(w, ['--json', 'panic', '--wallet', t.wallet]);
    expect(r.code).toBe(2);
    // Past the moment a cancel it sent would have settled (the simulator settles any order path within 1 s).
    await w.advance(1_000);
    expect((await t.openOrders()).length).toBe(1);
  });

  it('with 3 positions, 5 orders, a TWAP and a trailing stop: stops, cancels and closes everything, and says so', async () => {
    const t = await wall.trader();
    for (const m of ['BTC', 'ETH', 'SOL']) await openLong(t, m);
    for (const [m, f] of [['BTC', '0.9'], ['BTC', '0.89'], ['ETH', '0.9'], ['ETH', '0.88'], ['SOL', '0.9']] as const) await restingBuy(t, m, f);
    const twap = await startTwap(wall.ctx, await prepareTwap(wall.ctx, { wallet: t.wallet, market: 'ETH', side: 'BUY', totalSize: '0.05', durationMs: 600_000, slices: 10, leverage: 5, seed: 1 }));
    const twapDone = twap.run();
    const trail = await startTrail(wall.ctx, await prepareTrail(wall.ctx, { wallet: t.wallet, market: 'BTC', distance: '2%' }), await wall.ctx.tradingSigner(t.wallet));
    const trailDone = trail.run();
    // All listed (open-orders shows an order once its persist lag has passed: read at once, the trailing
    // stop's SL was once missing).
    let openBefore = await t.openOrders();
    for (let i = 0; i < 50 && openBefore.length < 6; i++) {
      await new Promise((r) => setTimeout(r, 100));
      openBefore = await t.openOrders();
    }
    expect(openBefore.length).toBeGreaterThanOrEqual(6); // 5 resting + the trailing stop's SL

    const r = await perps(wall, ['--json', 'panic', '--wallet', t.wallet, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const rec = json(r) as unknown as PanicRecord;
    expect(rec.step).toBe('done');
    expect(rec.stopped_algos).toEqual(expect.arrayContaining([expect.stringMatching(/^TWAP .* \(ETH\)$/), 'trailing stop BTC']));
    expect(new Set(rec.cancelled_orders)).toEqual(new Set(openBefore.map((o) => o.order_id)));
    expect(rec.closed.map((c) => c.market).sort()).toEqual(['BTC', 'ETH', 'SOL']);
    expect(rec.failures).toEqual([]);
    expect(rec.remaining_orders).toBe(0);
    expect(rec.remaining_positions).toEqual([]);
    expect((await twapDone).status).toBe('cancelled');
    expect((await trailDone).status).toBe('off');
    expect((await wall.ctx.api.positions(t.accountId)).positions).toEqual([]);
    const human = await inProcess(wall, ['panic', '--wallet', t.wallet, '--yes']);
    expect(human.stdout).toContain('Positions closed: none');
  });

  it('killed with SIGKILL after cancelling, finished by the next run: nothing left open, nothing done twice', async () => {
    const t = await wall.trader();
    for (const m of ['BTC', 'SOL']) await openLong(t, m);
    await restingBuy(t, 'BTC', '0.9');
    await restingBuy(t, 'SOL', '0.9');
    // Both listed (open-orders shows an order once its persist lag has passed).
    let ids: string[] = [];
    for (let i = 0; i < 50 && ids.length < 2; i++) {
      ids = (await t.openOrders()).map((o) => o.order_id);
      if (ids.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ids.length).toBe(2);

    const killed = await perps(wall, ['--json', 'panic', '--wallet', t.wallet, '--yes'], { PERPS_TEST_PANIC_KILL_AFTER: 'cancel' });
    expect(killed.signal).toBe('SIGKILL');
    const file = path.join(wall.dataDir, PANIC_FOLDER, `sim-${t.wallet.toLowerCase()}.json`);
    const cut = JSON.parse(fs.readFileSync(file, 'utf8')) as PanicRecord;
    expect(cut).toMatchObject({ step: 'close', finished_at: null });
    expect(new Set(cut.cancelled_orders)).toEqual(new Set(ids));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await wall.ctx.api.positions(t.accountId)).positions.length).toBe(2);

    const finished = await inProcess(wall, ['--json', 'panic', '--wallet', t.wallet, '--yes']);
    expect(finished.code, finished.stderr).toBe(0);
    const rec = json(finished) as unknown as PanicRecord;
    expect(rec).toMatchObject({ step: 'done', resumed: 1, started_at: cut.started_at, remaining_orders: 0, remaining_positions: [] });
    expect(rec.cancelled_orders).toEqual(cut.cancelled_orders);
    expect(rec.closed.map((c) => c.market).sort()).toEqual(['BTC', 'SOL']);
    // Each order was cancelled once: the service's history has one cancelled row per order.
    const cancelledRows = (await t.history()).filter((h) => h.status === 'cancelled' && ids.includes(h.order_id));
    expect(cancelledRows.length).toBe(ids.length);
  });
});

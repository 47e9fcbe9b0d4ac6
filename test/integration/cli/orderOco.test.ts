/**
 * `perps order oco` as a user's shell runs it, against a simulator on loopback: a dry run sends nothing
 * and hostile input is exit 2; killed with kill -9 while both legs rest, then one leg fills while nothing
 * watches: `--resume` finds the fill and cancels the other leg, exactly once (the simulator's own order
 * history: one leg filled, the other cancelled, one cancelled row), and a second
 * resume has nothing left to do.
 *
 * Where each run happens (issue 37): the dry run and the refusals are `perps` in this process
 * (perpsInProcess.ts: same main, output and exit code) but for one refusal (exit 2) as a shell sees it;
 * the OCO killed with kill -9, the --resume that runs to its real exit (0) and the second resume (exit 1)
 * are children.
 *
 * Two clocks (issue 37): the dry run and the refusals run against a simulator with a manual clock (the
 * default; nothing there waits, and the one child refusal ends before any wait). The kill -9 test runs
 * on a second simulator on the wall clock: its children are the point, and a child cannot wait on a clock
 * living in this process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TradingWorld } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, perpsJson, simOrders } from '../twap/twapWorld.js';

/** The simulator on a manual clock: the dry run and the refusals. */
let w: TradingWorld;
/** The simulator on the wall clock, for the children killed and resumed. */
let wall: TradingWorld;

beforeAll(async () => {
  [w, wall] = await Promise.all([TradingWorld.boot('cli-oco'), TradingWorld.boot('cli-oco-wall', { manualClock: false })]);
  await Promise.all([w.setMark('ETH', '3400'), wall.setMark('ETH', '3400')]);
}, 60_000);
afterAll(async () => {
  await Promise.all([w?.stop(), wall?.stop()]);
});

/** `perps` as a child: on the wall clock (`run`), or on the manual clock for the one refusal. */
const child = (world: () => TradingWorld) => (args: string[]) => new PerpsChild(world(), args).done;
const run = child(() => wall);
/** `perps` in this process: the dry run and the refusals. */
const inProcess = perpsOn(() => w);

async function historyRows(wallet: string): Promise<{ client_order_id: string; status: string }[]> {
  const res = await fetch(`${wall.sim.urls.base_url}/account/order-history?wallet=${wallet}&limit=200`);
  return ((await res.json()) as { data: { orders: { client_order_id: string; status: string }[] } }).data.orders;
}

describe('perps order oco', () => {
  it('--dry-run sends nothing; hostile input is exit 2', async () => {
    const t = await w.trader();
    const base = ['--json', 'order', 'oco', '--wallet', t.wallet, '--market', 'ETH', '--size', '0.01'];
    const dry = await inProcess([...base, '--buy', '3300', '--sell', '3500', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(perpsJson(dry)).toMatchObject({ dry_run: true, action: 'oco', view: { market: 'ETH', legs: [{ side: 'BUY', price: '3300' }, { side: 'SELL', price: '3500' }] } });
    for (const args of [['--buy', '3450', '--sell', '3500'], ['--buy', '3300', '--sell', '3350'], ['--buy', 'abc', '--sell', '3500'], ['--buy', '3300.05', '--sell', '3500'], ['--buy', '3300']]) {
      const bad = await (args[1] === 'abc' ? child(() => w) : inProcess)([...base, ...args]);
      expect(bad.code, `${args.join(' ')}: ${bad.stdout}${bad.stderr}`).toBe(2);
    }
    expect(await simOrders(w.sim.urls.base_url, t.wallet)).toEqual([]);
  });

  it('kill -9 with both legs resting, a fill while down: --resume cancels the other leg exactly once', async () => {
    const t = await wall.trader();
    await wall.setMark('ETH', '3400');
    const fg = new PerpsChild(wall, ['order', 'oco', '--wallet', t.wallet, '--market', 'ETH', '--size', '0.01', '--buy', '3300', '--sell', '3500', '--leverage', '5']);
    const id = (await fg.waitForStderr(/^OCO ([0-9a-f]{12}): watching both legs/m))[1]!;
    fg.child.kill('SIGKILL');
    expect((await fg.done).signal).toBe('SIGKILL');
    // Down: the buy leg fills (read at the simulator, not given a fixed time); the sell leg still rests.
    await wall.setMark('ETH', '3290');
    for (let i = 0; !(await simOrders(wall.sim.urls.base_url, t.wallet)).some((o) => o.client_order_id === `oco-${id}-0` && o.status === 'filled'); i++) {
      if (i > 100) throw new Error('the buy leg never filled');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const resumed = await run(['--json', 'order', 'oco', '--resume', id]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(perpsJson(resumed)).toMatchObject({ id, status: 'done', winner: 0, legs: [{ status: 'filled' }, { status: 'cancelled' }] });
    const sim = await simOrders(wall.sim.urls.base_url, t.wallet);
    expect(sim.map((o) => [o.client_order_id, o.status]).sort()).toEqual([
      [`oco-${id}-0`, 'filled'],
      [`oco-${id}-1`, 'cancelled'],
    ]);
    expect((await historyRows(t.wallet)).filter((r) => r.client_order_id === `oco-${id}-1` && r.status === 'cancelled')).toHaveLength(1);
    const again = await run(['--json', 'order', 'oco', '--resume', id]);
    expect(again.code).toBe(1);
    expect(perpsJson(again).error).toMatchObject({ code: 'OCO_FINISHED' });
  });
});

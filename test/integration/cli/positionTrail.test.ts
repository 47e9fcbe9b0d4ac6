/**
 * `perps position trail` as a user's shell runs it, against a simulator on loopback. A dry run sends
 * nothing and hostile input is exit 2; a foreground trailing stop moves the stop with a new high; kill -9
 * leaves the last level armed at the service; run again after the mark made a high and fell back while it
 * was down, it reads the candles it missed, moves the stop to where it should be now and says what
 * happened; --off stops it and leaves the level armed.
 *
 * Where each run happens (issue 37): the dry run, the refusals, `--off` and `--list` are `perps` in this
 * process (perpsInProcess.ts: same main, output and exit code). Children stay where the process is the
 * point: the foreground trail killed with kill -9, the one run again to its real exit, the second process
 * refused while another trails (exit 1), and one refusal (no --wallet, exit 2) as a shell sees it.
 *
 * Two clocks (issue 37): the dry run and the refusals run against a simulator with a manual clock (the
 * default; the test's order waits move it, and the one child refusal ends before any wait). The kill -9
 * test runs on a second simulator on the wall clock: its children are the point, and a child cannot wait
 * on a clock living in this process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import { TradingWorld, sizeFor, type Trader } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, perpsJson } from '../twap/twapWorld.js';

/** The simulator on a manual clock: the dry run and the refusals. */
let w: TradingWorld;
/** The simulator on the wall clock, for the trailing children. */
let wall: TradingWorld;

beforeAll(async () => {
  [w, wall] = await Promise.all([TradingWorld.boot('cli-trail'), TradingWorld.boot('cli-trail-wall', { manualClock: false })]);
  for (const x of [w, wall]) {
    await x.control('/funding-rate', { market: 'ETH', rate: '0' });
    await x.setMark('ETH', '3400');
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([w?.stop(), wall?.stop()]);
});

const child = (world: TradingWorld, args: string[]) => new PerpsChild(world, args).done;
/** `perps` in this process: the dry run and refusals (manual clock), --off and --list (wall clock). */
const run = perpsOn(() => w);
const runBesideChildren = perpsOn(() => wall);

async function openLong(t: Trader): Promise<void> {
  const x = t.world;
  const r = await placeOrders(x.ctx, { wallet: t.wallet, legs: [{ market: 'ETH', side: 'BUY', size: sizeFor(x.market('ETH'), await x.mark('ETH'), 6), leverage: 5 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(x.ctx, t.accountId, 'ETH', (p) => p !== undefined && new Decimal(p.size).isPos(), 'position');
}

async function stops(t: Trader): Promise<string[]> {
  return (await t.world.ctx.api.positionTriggers(t.wallet)).orders.filter((o) => o.market === 'ETH' && o.tpsl === 'sl').map((o) => canonical(o.trigger_price!));
}

describe('perps position trail', () => {
  it('--dry-run prints what would be armed and sends nothing; hostile input is exit 2 and changes nothing', async () => {
    const t = await w.trader();
    // The mark the levels below are read from (the other test moves it).
    await w.setMark('ETH', '3400');
    await openLong(t);
    const dry = await run(['--json', 'position', 'trail', '--wallet', t.wallet, '--market', 'ETH', '--distance', '1%', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const doc = perpsJson(dry);
    expect(doc).toMatchObject({ dry_run: true, action: 'trail', view: { market: 'ETH', side: 'LONG', distance: '1%', level_from_mark: '3366', stop_now: null } });
    expect(doc.requests).toHaveLength(1);
    for (const [args, code] of [
      [['--distance', '0%'], 'INVALID_TRAIL_DISTANCE'],
      [['--distance', '150%'], 'INVALID_TRAIL_DISTANCE'],
      [['--distance', '1e3'], 'INVALID_TRAIL_DISTANCE'],
      [['--distance=-5'], 'INVALID_TRAIL_DISTANCE'],
      [['--distance', '0.01'], 'INVALID_TRAIL_DISTANCE'],
      [['--distance', '1%', '--activate=-3500'], 'VALIDATION'],
      [['--distance', '\u001b[31m1%'], 'INVALID_TRAIL_DISTANCE'],
    ] as const) {
      const bad = await run(['--json', 'position', 'trail', '--wallet', t.wallet, '--market', 'ETH', ...args]);
      expect(bad.code, `${args.join(' ')}: ${bad.stdout}`).toBe(2);
      if (code !== 'VALIDATION') expect(perpsJson(bad).error.code).toBe(code);
    }
    const noWallet = await child(w, ['--json', 'position', 'trail', '--market', 'ETH', '--distance', '1%']);
    expect(noWallet.code).toBe(2);
    expect(await stops(t)).toEqual([]);
  });

  it('trails in the foreground; kill -9 leaves the last level armed; run again, it catches up from the candles missed and says so; --off', async () => {
    const t = await wall.trader();
    await wall.setMark('ETH', '3400');
    await openLong(t);
    const args = ['position', 'trail', '--wallet', t.wallet, '--market', 'ETH', '--distance', '20'];
    const fg = new PerpsChild(wall, args);
    await fg.waitForStderr(/^trailing the ETH long; Ctrl-C stops trailing and leaves the last level armed$/m);
    expect(await stops(t)).toEqual(['3380']);
    await wall.setMark('ETH', '3410');
    await fg.waitForStderr(/^stop moved 3,380 -> 3,390 \(new high 3,410\)$/m);
    fg.child.kill('SIGKILL');
    expect((await fg.done).signal).toBe('SIGKILL');
    // Nothing trails it now; the last level is still armed at the service.
    expect(await stops(t)).toEqual(['3390']);

    // While it is down: a high of 3,450, then the mark falls back to 3,440. The simulator's candles hold
    // each mark as it is set: what the run below reads is waited for there, not for a fixed time.
    await wall.setMark('ETH', '3450');
    await wall.setMark('ETH', '3440');
    const venue = wall.ctx.venue;
    for (let i = 0; ; i++) {
      const now = Date.now();
      const candles = await venue.candleSnapshot({ coin: wall.market('ETH').venue_symbol, interval: '1m', startTime: now - 120_000, endTime: now });
      if (candles.some((c) => new Decimal(c.h).eq(3450)) && (await wall.mark('ETH')).eq(3440)) break;
      if (i > 100) throw new Error(`the candles never showed the high of 3,450: ${JSON.stringify(candles)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const again = new PerpsChild(wall, args);
    await again.waitForStderr(/While the desk was away \(\d+ s\), ETH made a high of 3,450; the mark is 3,440 now\. The stop moved from 3,390 to 3,430\./);
    expect(await stops(t)).toEqual(['3430']);
    // A second process never trails the same position.
    const second = await child(wall, ['--json', ...args]);
    expect(second.code).toBe(1);
    expect(perpsJson(second).error).toMatchObject({ code: 'TRAIL_LOCKED' });
    // --off from another terminal: the trailing process stops at its next look; the level stays armed.
    const off = await runBesideChildren(['--json', 'position', 'trail', '--market', 'ETH', '--wallet', t.wallet, '--off']);
    expect(off.code, off.stderr).toBe(0);
    expect(perpsJson(off)).toMatchObject({ status: 'off' });
    const done = await again.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^trailing: +Trailing 20 · SL 3,430 · high 3,450$/m);
    expect(done.stdout).toMatch(/^status: +off: the last level stays armed/m);
    expect(await stops(t)).toEqual(['3430']);
    const listed = await runBesideChildren(['--json', 'position', 'trail', '--list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect((perpsJson(listed) as unknown as { trailing: { market: string; wallet: string; status: string; runner: number | null }[] }).trailing.find((r) => r.wallet === t.wallet)).toMatchObject({ market: 'ETH', status: 'off', runner: null });
  });
});

/**
 * `perps position trail` as a user's shell runs it: the real bin/perps.js in child processes against a
 * simulator on loopback (wall clock). A dry run sends nothing and hostile input is exit 2; a foreground
 * trailing stop moves the stop with a new high; kill -9 leaves the last level armed at the service; run
 * again after the mark made a high and fell back while it was down, it reads the candles it missed, moves
 * the stop to where it should be now and says what happened; --off stops it and leaves the level armed.
 *
 * Where each run happens (issue 37): the dry run, the refusals, `--off` and `--list` are `perps` in this
 * process (perpsInProcess.ts: same main, output and exit code). Children stay where the process is the
 * point: the foreground trail killed with kill -9, the one run again to its real exit, the second process
 * refused while another trails (exit 1), and one refusal (no --wallet, exit 2) as a shell sees it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import { TradingWorld, sizeFor, type Trader } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, perpsJson } from '../twap/twapWorld.js';

let w: TradingWorld;

beforeAll(async () => {
  w = await TradingWorld.boot('cli-trail', { manualClock: false });
  await w.control('/funding-rate', { market: 'ETH', rate: '0' });
  await w.setMark('ETH', '3400');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

const child = (args: string[]) => new PerpsChild(w, args).done;
/** `perps` in this process: the dry run, refusals, --off and --list. */
const run = perpsOn(() => w);

async function openLong(t: Trader): Promise<void> {
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: 'ETH', side: 'BUY', size: sizeFor(w.market('ETH'), await w.mark('ETH'), 6), leverage: 5 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(w.ctx, t.accountId, 'ETH', (p) => p !== undefined && new Decimal(p.size).isPos(), 'position');
}

async function stops(t: Trader): Promise<string[]> {
  return (await w.ctx.api.positionTriggers(t.wallet)).orders.filter((o) => o.market === 'ETH' && o.tpsl === 'sl').map((o) => canonical(o.trigger_price!));
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
    const noWallet = await child(['--json', 'position', 'trail', '--market', 'ETH', '--distance', '1%']);
    expect(noWallet.code).toBe(2);
    expect(await stops(t)).toEqual([]);
  });

  it('trails in the foreground; kill -9 leaves the last level armed; run again, it catches up from the candles missed and says so; --off', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openLong(t);
    const args = ['position', 'trail', '--wallet', t.wallet, '--market', 'ETH', '--distance', '20'];
    const fg = new PerpsChild(w, args);
    await fg.waitForStderr(/^trailing the ETH long; Ctrl-C stops trailing and leaves the last level armed$/m);
    expect(await stops(t)).toEqual(['3380']);
    await w.setMark('ETH', '3410');
    await fg.waitForStderr(/^stop moved 3,380 -> 3,390 \(new high 3,410\)$/m);
    fg.child.kill('SIGKILL');
    expect((await fg.done).signal).toBe('SIGKILL');
    // Nothing trails it now; the last level is still armed at the service.
    expect(await stops(t)).toEqual(['3390']);

    // While it is down: a high of 3,450, then the mark falls back to 3,440.
    await w.setMark('ETH', '3450');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await w.setMark('ETH', '3440');
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const again = new PerpsChild(w, args);
    await again.waitForStderr(/While the desk was away \(\d+ s\), ETH made a high of 3,450; the mark is 3,440 now\. The stop moved from 3,390 to 3,430\./);
    expect(await stops(t)).toEqual(['3430']);
    // A second process never trails the same position.
    const second = await child(['--json', ...args]);
    expect(second.code).toBe(1);
    expect(perpsJson(second).error).toMatchObject({ code: 'TRAIL_LOCKED' });
    // --off from another terminal: the trailing process stops at its next look; the level stays armed.
    const off = await run(['--json', 'position', 'trail', '--market', 'ETH', '--wallet', t.wallet, '--off']);
    expect(off.code, off.stderr).toBe(0);
    expect(perpsJson(off)).toMatchObject({ status: 'off' });
    const done = await again.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^trailing: +Trailing 20 · SL 3,430 · high 3,450$/m);
    expect(done.stdout).toMatch(/^status: +off: the last level stays armed/m);
    expect(await stops(t)).toEqual(['3430']);
    const listed = await run(['--json', 'position', 'trail', '--list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect((perpsJson(listed) as unknown as { trailing: { market: string; wallet: string; status: string; runner: number | null }[] }).trailing.find((r) => r.wallet === t.wallet)).toMatchObject({ market: 'ETH', status: 'off', runner: null });
  });
});

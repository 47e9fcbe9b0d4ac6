/**
 * `perps order chase` as a user's shell runs it, against a simulator on loopback:
 *  - a dry run prints the first order (post-only at the best bid) and sends nothing; bad flags are exit 2
 *    and send nothing;
 *  - a damaged chase record is listed beside the others with what is wrong, and refused by --resume;
 *  - killed with kill -9 while a Modify is in flight (the simulator holds every request for a while),
 *    then `--resume`: the Modify is settled from order history, never sent twice; the simulator's open
 *    orders, read over and over from the start, never show more than one live order; one fill in total.
 *
 * Where each run happens (issue 37): the dry runs, the refusals and the damaged record's list and resume run
 * `perps` in this process (perpsInProcess.ts: same main, output and exit code); what a chase's own process
 * is tested for stays a child: Ctrl-C, kill -9, the --resume that runs to its real exit, and one refusal
 * (`--side up`, exit 2) as a shell sees it.
 *
 * Two clocks (issue 37): the dry runs, the refusals and the damaged record run against a simulator with a
 * manual clock (the default; nothing there waits, and the one child refusal ends before any wait). Ctrl-C
 * and kill -9 run on a second simulator on the wall clock: their children are the point, and a child
 * cannot wait on a clock living in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { TradingWorld, sizeFor, type Trader } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, perpsJson } from '../twap/twapWorld.js';

/** The simulator on a manual clock: dry runs, refusals and the damaged record. */
let w: TradingWorld;
/** The simulator on the wall clock, for the chases run as children. */
let wall: TradingWorld;

beforeAll(async () => {
  [w, wall] = await Promise.all([TradingWorld.boot('cli-chase'), TradingWorld.boot('cli-chase-wall', { manualClock: false })]);
  await Promise.all([w.setMark('ETH', '3400'), wall.setMark('ETH', '3400')]);
}, 60_000);
afterAll(async () => {
  await Promise.all([w?.stop(), wall?.stop()]);
});

const child = (args: string[]) => new PerpsChild(w, args).done;
/** `perps` in this process: dry runs, refusals and reads. */
const run = perpsOn(() => w);

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('perps order chase', () => {
  it('--dry-run prints the first order and sends nothing; bad flags are exit 2 and send nothing', async () => {
    const t = await w.trader();
    const base = ['--json', 'order', 'chase', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy'];
    const dry = await run([...base, '--size', '0.01', '--offset-ticks', '1', '--max-distance', '0.5%', '--timeout', '5m', '--taker-after', '1m', '--on-limit', 'cancel', '--leverage', '5', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const doc = perpsJson(dry);
    expect(doc).toMatchObject({
      dry_run: true,
      action: 'chase',
      view: { market: 'ETH', side: 'BUY', size: '0.01', price: '3399.9', best_bid: '3399.8', best_ask: '3400.2', tick_size: '0.1', offset_ticks: 1, post_only: true, leverage: 5, max_distance: '0.5%', timeout_ms: 300_000, interval_ms: 1_000, taker_after_ms: 60_000, on_limit: 'cancel' },
    });
    expect(doc.requests).toHaveLength(1);
    expect(doc.requests[0].typed_data.primaryType).toBe('Order');
    const usd = perpsJson(await run([...base, '--usd', '100', '--dry-run']));
    expect(usd.view).toMatchObject({ size: '0.0294', price: '3399.8' });
    for (const args of [
      ['--size', '0.01', '--timeout', '300'],
      ['--size', '0.01', '--interval', '0s'],
      ['--size', '0.01', '--max-distance', '0%'],
      ['--size', '0.01', '--max-distance', 'far'],
      ['--size', '0.01', '--offset-ticks', '1.5'],
      ['--size', '0.01', '--on-limit', 'keep'],
      ['--size', '0.01', '--timeout', '1m', '--taker-after', '2m'],
      ['--size', 'abc'],
      ['--size', '0.01', '--usd', '50'],
      ['--size', '0.001'],
    ]) {
      const bad = await run([...base, ...args]);
      expect(bad.code, `${args.join(' ')}: ${bad.stdout}${bad.stderr}`).toBe(2);
    }
    const side = await child(['--json', 'order', 'chase', '--wallet', t.wallet, '--market', 'ETH', '--side', 'up', '--size', '0.01']);
    expect(side.code).toBe(2);
    expect((await w.ctx.api.orderHistory({ wallet: t.wallet })).total).toBe(0);
  });

  it('a damaged chase record is listed with what is wrong and refused by --resume', async () => {
    const dir = path.join(w.dataDir, 'chases');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const id = 'dddddddddddd';
    fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ version: 1, id, profile: 'sim', market: 'ETH', size: 'lots' }), { mode: 0o600 });
    const listed = perpsJson(await run(['--json', 'order', 'chase', '--list']));
    expect(listed.damaged).toEqual([expect.objectContaining({ id, status: 'damaged', market: 'ETH', damage: expect.stringMatching(/size|wallet/) })]);
    const resumed = await run(['--json', 'order', 'chase', '--resume', id]);
    expect(resumed.code).toBe(2);
    expect(perpsJson(resumed).error).toMatchObject({ code: 'CHASE_RECORD_DAMAGED' });
    fs.rmSync(path.join(dir, `${id}.json`));
  });

  it('Ctrl-C stops chasing, leaves the order resting and says how to chase again', async () => {
    const t = await wall.trader();
    await wall.setMark('ETH', '3400');
    const fg = new PerpsChild(wall, ['order', 'chase', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--size', sizeFor(wall.market('ETH'), new Decimal('3400'), 2), '--leverage', '5']);
    const id = (await fg.waitForStderr(/^chase ([0-9a-f]{12}): following the best bid/m))[1]!;
    await fg.waitForStderr(/^post-only buy [\d.]+ at 3,399\.8 as order \d+$/m);
    fg.child.kill('SIGINT');
    const stopped = await fg.done;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain(`stopping: the order keeps resting; \`perps order chase --resume ${id}\` chases again`);
    expect(stopped.stdout).toMatch(/^status: +stopped chasing/m);
    // Left resting (it goes live at the service a moment after it was placed).
    await until('the order resting', async () => (await t.openOrders('ETH')).length > 0, 5_000);
    expect((await t.openOrders('ETH')).map((o) => o.limit_price)).toEqual(['3399.8']);
    expect((await t.history()).filter((r) => r.status === 'cancelled')).toEqual([]);
  });

  it('kill -9 during a Modify, then --resume: settled from history, one live order at every read, one fill', async () => {
    const t: Trader = await wall.trader();
    await wall.setMark('ETH', '3400');
    const size = sizeFor(wall.market('ETH'), new Decimal('3400'), 2);
    const counts: number[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        // A read the chaos below leaves unanswered is no read of the open orders: it is not counted.
        const open = await t.openOrders('ETH').catch(() => null);
        if (open) counts.push(open.length);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    try {
      const fg = new PerpsChild(wall, ['order', 'chase', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--size', size, '--leverage', '5']);
      const id = (await fg.waitForStderr(/^chase ([0-9a-f]{12}): following the best bid/m))[1]!;
      await fg.waitForStderr(/^post-only buy [\d.]+ at 3,399\.8 as order \d+$/m);
      // Every request now waits 2 s at the simulator before it is processed: the re-price the book move
      // causes is in flight when its line is printed; the process is killed before it has settled it
      // (its answer comes back after 2 s, the read of the new order is held as long).
      await wall.chaos({ latency_ms: 2_000 });
      await wall.setMark('ETH', '3410');
      await fg.waitForStderr(/^re-pricing 3,399\.8 -> 3,409\.8: Modify of order \d+ sent/m);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      fg.child.kill('SIGKILL');
      expect((await fg.done).signal).toBe('SIGKILL');
      await wall.resetChaos();
      const resumed = new PerpsChild(wall, ['--json', 'order', 'chase', '--resume', id]);
      // Settled (applied, or found never sent and sent again): one order rests at the new best bid.
      await until('the order at 3409.8', async () => (await t.openOrders('ETH')).some((o) => o.limit_price === '3409.8'));
      await wall.setMark('ETH', '3405');
      const done = await resumed.done;
      expect(done.code, done.stderr).toBe(0);
      const doc = perpsJson(done);
      expect(doc).toMatchObject({ id, status: 'done', end_reason: 'filled' });
      // Found in order history (it landed after the process died), never taken for unsent and sent again.
      // Settled from the service: the move it sent (found, or after the grace period known never to have
      // reached it and sent again), never two.
      expect(doc.notes.join('\n')).toMatch(/moved 3,399\.8 -> 3,409\.8 as order \d+/);
      expect(doc.moves).toBe(1);
    } finally {
      reading = false;
      await reader;
    }
    expect(counts.length).toBeGreaterThan(10);
    expect(Math.max(...counts)).toBe(1);
    expect(await t.openOrders('ETH')).toEqual([]);
    const latest = new Map<string, { status: string; filled_size: string }>();
    for (const r of await t.history()) if (!latest.has(r.order_id)) latest.set(r.order_id, r);
    const filled = [...latest.values()].filter((r) => new Decimal(r.filled_size).gt(0));
    expect(filled).toHaveLength(1);
    expect(new Decimal(filled[0]!.filled_size).eq(size)).toBe(true);
    // One Modify applied: one order ended by it, one replacement that filled.
    expect([...latest.values()].filter((r) => r.status === 'cancelled').length).toBe(1);
  });
});

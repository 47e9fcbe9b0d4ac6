/**
 * `perps twap` against a simulator on loopback. A dry run sends nothing; a
 * foreground TWAP prints each slice and ends with one JSON document; Ctrl-C pauses it and says how to
 * resume; `resume` runs it again in the foreground, a second process trying the same TWAP is refused
 * with a clear error, and `pause` / `cancel` from another terminal reach the process running it. A
 * damaged record is listed beside the healthy ones and refused by everything that would act on it.
 *
 * Two clocks (issue 37). The CLI's main runs in this process against a simulator with a manual clock: its
 * waits move that clock (perpsWorld.ts), so a 10 s TWAP runs in simulated time, at once and the same on
 * every machine. What only a process of its own shows (Ctrl-C, a second process refused, pause and cancel
 * from another terminal) runs bin/perps.js as children against a second simulator on the wall clock, as a
 * child cannot wait on a clock living in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTwapId, twapStoreOf } from '../../../src/main/services/algos/twap/index.js';
import { TradingWorld } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, byCloid, pausedRecord, perpsJson, simOrders } from '../twap/twapWorld.js';

/** The simulator on a manual clock, which the runs in this process move. */
let w: TradingWorld;
/** The simulator on the wall clock, for the children. */
let wall: TradingWorld;

beforeAll(async () => {
  [w, wall] = await Promise.all([TradingWorld.boot('cli-twap'), TradingWorld.boot('cli-twap-wall', { manualClock: false })]);
  await Promise.all([w.setMark('ETH', '3400'), wall.setMark('ETH', '3400')]);
}, 60_000);
afterAll(async () => {
  await Promise.all([w?.stop(), wall?.stop()]);
});

const run = perpsOn(() => w);
/**
 * One-shot commands beside the children (status, list, resume refused, pause, cancel) run the CLI's main
 * in this process too: a child's start-up (seconds on a busy machine) raced the TWAPs' wall-clock
 * schedules. Foreground runners that are signalled stay children (PerpsChild).
 */
const runBesideChildren = perpsOn(() => wall);

describe.concurrent('perps twap', () => {
  it('--dry-run prints the schedule and slice 1 as it would be signed now; bad input is exit 2; nothing is sent', async () => {
    const t = await w.trader();
    const dry = await run(['--json', 'twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--total-size', '0.05', '--duration', '1m', '--slices', '5', '--randomize-size', '20', '--leverage', '5', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const doc = perpsJson(dry);
    expect(doc).toMatchObject({ dry_run: true, action: 'twap', signer: { role: 'trading-key' } });
    expect(doc.view).toMatchObject({ market: 'ETH', side: 'BUY', total_size: '0.05', slices: 5, interval_ms: 12_000, arrival_mark: '3400', randomize_size_pct: 20, leverage: 5 });
    expect(doc.view.schedule.map((s: { offset_ms: number }) => s.offset_ms)).toEqual([0, 12_000, 24_000, 36_000, 48_000]);
    expect(doc.view.first_slice.legs[0]).toMatchObject({ order_type: 'MARKET', time_in_force: 'IOC', limit_price: '3417', label: 'slice 1/5' });
    expect(doc.requests).toHaveLength(1);
    expect(doc.requests[0].typed_data.primaryType).toBe('Order');

    const tight = await run(['--json', 'twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--total-size', '0.05', '--duration', '12s', '--slices', '3']);
    expect(tight.code).toBe(2);
    expect(perpsJson(tight).error).toMatchObject({ code: 'TWAP_INTERVAL_TOO_SHORT', hint: 'Use at most 2 slices, or a longer duration.' });
    const dust = await run(['--json', 'twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--total-size', '0.005', '--duration', '1m', '--slices', '5']);
    expect(dust.code).toBe(2);
    expect(perpsJson(dust).error.message).toMatch(/the smallest slice, 1 of 5 \(0\.001\), is worth 3\.4 USDC at 3400, below ETH's min_order_value 10/);
    const badSpan = await run(['--json', 'twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--total-size', '0.05', '--duration', '5 minutes', '--slices', '5']);
    expect(badSpan.code).toBe(2);
    expect((await w.ctx.api.orderHistory({ wallet: t.wallet })).total).toBe(0);
  });

  it('runs in the foreground to the end: one JSON document with every slice filled', async () => {
    const t = await w.trader();
    const done = await run(['--json', 'twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--total-size', '0.02', '--duration', '10s', '--slices', '2', '--leverage', '5']);
    expect(done.code, done.stderr).toBe(0);
    const v = perpsJson(done);
    expect(v).toMatchObject({ status: 'completed', stop_reason: 'target_reached', filled_size: '0.02', remaining_size: '0', slices_total: 2, slices_missed: 0, needs_decision: false, runner: null });
    expect(v.slices.map((s: { status: string }) => s.status)).toEqual(['filled', 'filled']);
    // Slice 2 went out at its time, 5 s after slice 1's (not when slice 1 happened to be sent, which
    // includes preparing it on a busy machine).
    expect(v.slices[1].due_at - v.slices[0].due_at).toBe(5_000);
    expect(v.slices[1].sent_at).toBeGreaterThanOrEqual(v.slices[1].due_at);
    const orders = byCloid(await simOrders(w.sim.urls.base_url, t.wallet));
    expect([...orders.keys()].sort()).toEqual(v.slices.map((s: { client_order_id: string }) => s.client_order_id).sort());
  });

  it('the foreground log says each note as it happens, without the stamp the record keeps; status shows the stamped history', async () => {
    const t = await w.trader();
    const done = await run(['twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--total-size', '0.02', '--duration', '10s', '--slices', '2', '--leverage', '5']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/^completed: filled 0\.02 of 0\.02$/m);
    expect(done.stderr).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z completed/);
    const id = /^TWAP ([0-9a-f]{12}):/m.exec(done.stderr)![1]!;
    const status = await run(['twap', 'status', id]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z completed: filled 0\.02 of 0\.02$/m);
  });

  it('Ctrl-C pauses and says how to resume; resume runs it again; a second process is refused; pause and cancel reach the runner', async () => {
    const t = await wall.trader();
    // Slices 15 s apart on the wall clock: the paused TWAP's status and list (two processes) and the resume
    // fit before the next slice is due even on a loaded machine (at 5 s apart, 12 s of them let a resumed
    // TWAP miss two slices and complete before the test saw it run).
    const fg = new PerpsChild(wall, ['twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--total-size', '0.04', '--duration', '60s', '--slices', '4', '--leverage', '5']);
    const id = (await fg.waitForStderr(/^TWAP ([0-9a-f]{12}): BUY 0\.04 ETH in 4 slices every 15 s/m))[1]!;
    await fg.waitForStderr(/^slice 1\/4 filled 0\.01 @ [\d.]+ \| 0\.01 of 0\.04 filled, avg [\d.]+ \(arrival 3400, \+[\d.]+ bps\); next slice \d\d:\d\d:\d\dZ$/m);
    fg.child.kill('SIGINT');
    const paused = await fg.done;
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stderr).toContain(`paused: resume it with \`perps twap resume ${id}\``);
    expect(paused.stdout).toMatch(/^status: +paused$/m);

    const status = perpsJson(await runBesideChildren(['--json', 'twap', 'status', id]));
    expect(status).toMatchObject({ id, status: 'paused', needs_decision: true, runner: null, filled_size: '0.01' });
    const listed = perpsJson(await runBesideChildren(['--json', 'twap', 'list', '--wallet', t.wallet]));
    expect(listed.twaps.map((x: { id: string }) => x.id)).toEqual([id]);

    const resumed = new PerpsChild(wall, ['--json', 'twap', 'resume', id]);
    // Wait until the resumed process has sent another slice: it holds the TWAP now.
    for (let i = 0; ; i++) {
      const v = perpsJson(await runBesideChildren(['--json', 'twap', 'status', id]));
      if (v.status === 'running' && v.runner && v.slices.some((s: { index: number; status: string }) => s.index > 0 && s.status === 'filled')) break;
      if (i > 100) throw new Error(`the resumed TWAP never sent a slice: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const second = await runBesideChildren(['--json', 'twap', 'resume', id]);
    expect(second.code).toBe(1);
    expect(perpsJson(second).error).toMatchObject({ code: 'TWAP_LOCKED', message: expect.stringMatching(new RegExp(`^TWAP ${id} is already running in process \\d+`)) });

    const pause = await runBesideChildren(['--json', 'twap', 'pause', id]);
    expect(pause.code, pause.stderr).toBe(0);
    expect(perpsJson(pause)).toMatchObject({ status: 'paused', requested: null });
    const resumedDone = await resumed.done;
    expect(resumedDone.code).toBe(0);
    expect(perpsJson(resumedDone).status).toBe('paused');

    const cancel = await runBesideChildren(['--json', 'twap', 'cancel', id]);
    expect(cancel.code, cancel.stderr).toBe(0);
    const cancelled = perpsJson(cancel);
    expect(cancelled).toMatchObject({ status: 'cancelled', stop_reason: 'cancelled', needs_decision: false });
    expect(cancelled.slices.filter((s: { status: string }) => s.status === 'skipped').length).toBeGreaterThan(0);
    const again = await runBesideChildren(['--json', 'twap', 'resume', id]);
    expect(again.code).toBe(1);
    expect(perpsJson(again).error.code).toBe('TWAP_FINISHED');
    // What the simulator holds is what the TWAP says it sent, one order per slice.
    const orders = byCloid(await simOrders(wall.sim.urls.base_url, t.wallet));
    for (const s of cancelled.slices) expect(orders.get(s.client_order_id)?.length ?? 0).toBe(s.order_id ? 1 : 0);
  });

  it('item 13: a damaged record is listed beside the healthy ones as damaged; resume, pause and cancel refuse it (exit 2) and send nothing', async () => {
    const t = await w.trader();
    const store = twapStoreOf(w.ctx);
    const healthy = pausedRecord(t.wallet);
    store.create(healthy);
    // Hand edits: slices out of index order, and a file cut short (no wallet can be read: listed for every wallet).
    const bad = pausedRecord(t.wallet);
    fs.writeFileSync(path.join(store.dir, `${bad.id}.json`), JSON.stringify({ ...bad, slices: [{ ...bad.slices[0]!, index: 1 }, { ...bad.slices[1]!, index: 0 }] }, null, 2), { mode: 0o600 });
    const cut = newTwapId();
    fs.writeFileSync(path.join(store.dir, `${cut}.json`), `{ "version": 1, "id": "${cut}", "slices": [`, { mode: 0o600 });

    const listed = await run(['--json', 'twap', 'list', '--wallet', t.wallet]);
    expect(listed.code, listed.stderr).toBe(0);
    const doc = perpsJson(listed);
    expect(doc.twaps.map((x: { id: string }) => x.id)).toEqual([healthy.id]);
    expect(doc.twaps[0]).toMatchObject({ status: 'paused', filled_size: '0', total_size: '0.02' });
    expect(doc.damaged).toEqual(
      expect.arrayContaining([
        { id: bad.id, status: 'damaged', market: 'ETH', side: 'BUY', total_size: '0.02', created_at: bad.created_at, updated_at: expect.any(Number), damage: expect.stringMatching(/^slice 1 says it is index 1, but it is at position 0/) },
        expect.objectContaining({ id: cut, status: 'damaged', market: null, side: null, damage: expect.stringMatching(/not valid JSON/) }),
      ]),
    );
    const human = await run(['twap', 'list', '--wallet', t.wallet]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^${healthy.id} +ETH +BUY +0/0\\.02 .*paused`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^${bad.id} +ETH +BUY +\\?/0\\.02 +damaged: slice 1 says it is index 1`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^${cut} +\\? +\\? +\\?/\\? +damaged: its file is not valid JSON`, 'm'));

    const status = await run(['--json', 'twap', 'status', bad.id]);
    expect(status.code, status.stderr).toBe(0);
    expect(perpsJson(status)).toMatchObject({ id: bad.id, status: 'damaged' });
    const text = fs.readFileSync(path.join(store.dir, `${bad.id}.json`), 'utf8');
    for (const cmd of ['resume', 'pause', 'cancel']) {
      const refused = await run(['--json', 'twap', cmd, bad.id]);
      expect(refused.code, `${cmd}: ${refused.stderr}`).toBe(2);
      expect(perpsJson(refused).error).toMatchObject({
        code: 'TWAP_RECORD_DAMAGED',
        message: expect.stringMatching(new RegExp(`^TWAP ${bad.id} is damaged: slice 1 says it is index 1.*; nothing was sent$`)),
        hint: expect.stringContaining(path.join(store.dir, `${bad.id}.json`)),
      });
    }
    expect(fs.readFileSync(path.join(store.dir, `${bad.id}.json`), 'utf8')).toBe(text);
    expect((await w.ctx.api.orderHistory({ wallet: t.wallet })).total).toBe(0);
  });
});

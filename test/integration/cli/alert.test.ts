/**
 * `perps alert` against a simulator on loopback: the watchers as a user's shell runs them (the real
 * bin/perps.js, stopped with SIGINT), the one-shot commands in this process (see `run` below), the
 * mark and funding driven with the simulator's control API (/sim/mark, /sim/funding-rate). Bad input is
 * exit 2 and stores nothing; two `perps alert watch` processes on the same data folder (a server's and a
 * terminal's, or the app's) fire a one-shot crossing exactly once between them, printed once and logged
 * as one line of alerts.log; a repeating alert re-arms only after the mark went back across by its band.
 *
 * The simulator stays on the wall clock (issue 37): the watchers are children stopped with SIGINT (the
 * damaged-store test reads the store they leave), and a child cannot wait on a clock living in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TradingWorld } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, perpsJson } from '../twap/twapWorld.js';

let w: TradingWorld;

beforeAll(async () => {
  w = await TradingWorld.boot('cli-alert', { manualClock: false });
  await w.setMark('ETH', '3400');
  await w.setMark('BTC', '60000');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

/**
 * One-shot commands (add, list, rm, refusals, the order placed for the PnL alert) run in this process
 * (perpsWorld.ts: the same main a shell runs); the watchers are children, stopped with SIGINT, and so is one
 * run for each exit code a one-shot command ends with here (2: a refused add; 1: a missing alert).
 */
const run = perpsOn(() => w);
const child = (args: string[]) => new PerpsChild(w, args).done;
const logLines = () => {
  const file = path.join(w.dataDir, 'alerts.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
};

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The marker: a repeating alert on SOL (above 150) that the test crosses on purpose. The watchers read one
 * ordered stream, so once the marker's firing is logged, a watcher has evaluated every mark set before it:
 * what did not fire by then did not fire on those marks (an event, never a fixed sleep).
 */
let markerId = '';
let markerFirings = 0;
const markerLines = (text: string) => text.split('\n').filter((l) => l.includes(markerId));
const withoutMarker = (text: string) => text.split('\n').filter((l) => l !== '' && !l.includes(markerId));
const markerArmed = () => (JSON.parse(fs.readFileSync(path.join(w.dataDir, 'alerts.json'), 'utf8')) as { alerts: { id: string; armed: boolean | null }[] }).alerts.find((x) => x.id === markerId)?.armed === true;
/** What the watchers said so far (for a failure's message). */
let watchersSaid: () => string = () => '';
async function sync(): Promise<void> {
  // Below the band first, seen (re-armed, written to the store), then across: each mark is evaluated, none coalesced away.
  await w.setMark('SOL', '100');
  await until('the marker re-armed', markerArmed);
  await w.setMark('SOL', '200');
  markerFirings += 1;
  try {
    await until(`marker firing ${markerFirings}`, () => logLines().filter((l) => l['id'] === markerId).length >= markerFirings);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nalerts.json: ${fs.readFileSync(path.join(w.dataDir, 'alerts.json'), 'utf8')}\n${watchersSaid()}`);
  }
}

describe('perps alert', () => {
  it('refuses bad input with exit 2 and a clear error, storing nothing', async () => {
    // Another test may have stored alerts already: nothing is judged against the store as this test found it.
    const file = path.join(w.dataDir, 'alerts.json');
    const stored = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    const listed = perpsJson(await run(['--json', 'alert', 'list'])).alerts;
    const cases: [string[], RegExp][] = [
      [['--market', 'NOPE', '--above', '1'], /market: 'NOPE' is not a market of this service/],
      [['--market', 'ETH', '--above', '0'], /above: a price level must be above 0/],
      [['--market', 'ETH', '--below', '1e400'], /below: '1e400' is not a decimal/],
      [['--market', 'ETH', '--move', '2', '--window', '0'], /window: '0' is not a duration/],
      [['--market', 'ETH', '--above', '1', '--below', '2'], /give exactly one of --above/],
      [['--market', 'ETH'], /give exactly one of --above/],
      [['--market', 'ETH', '--funding-above', '5'], /funding-above: a funding rate is a raw hourly fraction/],
      [['--market', 'ETH', '--above', '3500', '--note', 'a\u0007b'], /note: no control characters/],
    ];
    for (const [i, [args, message]] of cases.entries()) {
      const r = await (i === 0 ? child : run)(['--json', 'alert', 'add', ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(2);
      expect(perpsJson(r).error.message).toMatch(message);
    }
    expect(perpsJson(await run(['--json', 'alert', 'list'])).alerts).toEqual(listed);
    expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null).toBe(stored);
    const rm = await child(['--json', 'alert', 'rm', '../../etc']);
    expect(rm.code).toBe(1);
    expect(perpsJson(rm).error.code).toBe('ALERT_NOT_FOUND');
  });

  it('two watchers: a one-shot crossing fires once, printed once and logged once; a repeat re-arms only back across the band', async () => {
    // The watchers start on this test's four alerts alone, and only the log lines from here on are theirs.
    for (const left of perpsJson(await run(['--json', 'alert', 'list'])).alerts as { id: string; status: string }[]) {
      if (left.status === 'active') expect((await run(['--json', 'alert', 'rm', left.id])).code).toBe(0);
    }
    const logged = logLines().length;
    const ours = () => logLines().slice(logged);
    const once = perpsJson(await run(['--json', 'alert', 'add', '--market', 'ETH', '--above', '3500', '--note', 'breakout: take profit']));
    expect(once).toMatchObject({ market: 'ETH', rule: { kind: 'price_above', level: '3500' }, repeat: false, status: 'active', armed: true, note: 'breakout: take profit' });
    const again = perpsJson(await run(['--json', 'alert', 'add', '--market', 'BTC', '--below', '59000', '--repeat']));
    expect(again).toMatchObject({ rule: { kind: 'price_below', level: '59000' }, repeat: true, armed: true });
    const funding = perpsJson(await run(['--json', 'alert', 'add', '--market', 'ETH', '--funding-below', '0']));
    await w.setMark('SOL', '100');
    markerId = (perpsJson(await run(['--json', 'alert', 'add', '--market', 'SOL', '--above', '150', '--repeat', '--note', 'marker'])) as { id: string }).id;
    const human = await run(['alert', 'list']);
    expect(human.stdout).toMatch(new RegExp(`^${once.id}  ETH mark above 3500 +once +armed +- +breakout: take profit$`, 'm'));
    const mode = fs.statSync(path.join(w.dataDir, 'alerts.json')).mode & 0o777;
    expect(mode).toBe(0o600);

    const a = new PerpsChild(w, ['alert', 'watch']);
    const b = new PerpsChild(w, ['--json', 'alert', 'watch']);
    watchersSaid = () => `watcher a: ${a.stdout}\n${a.stderr}\nwatcher b: ${b.stdout}\n${b.stderr}`;
    try {
      await a.waitForStderr(/^watching 4 alert\(s\) of profile 'sim' on the venue's stream/m);
      await b.waitForStderr(/^$|watching/m).catch(() => undefined); // --json prints no notes: just give it time to connect
      await sync();
      expect([...withoutMarker(a.stdout), ...withoutMarker(b.stdout)]).toEqual([]);

      await w.setMark('ETH', '3512.5');
      await until('the ETH firing', () => a.stdout.includes(once.id) || b.stdout.includes(once.id));
      await sync();
      const printed = [...a.stdout.split('\n'), ...b.stdout.split('\n')].filter((l) => l.includes(once.id));
      expect(printed).toHaveLength(1);
      expect(printed[0]).toMatch(new RegExp(`(ALERT ${once.id} ETH mark 3512.5 is at or above 3500 \\| breakout: take profit$)|("id":"${once.id}")`));
      expect(logLines().filter((l) => l['id'] === once.id)).toEqual([expect.objectContaining({ market: 'ETH', kind: 'price_above', value: '3512.5', note: 'breakout: take profit', done: true })]);
      expect(fs.statSync(path.join(w.dataDir, 'alerts.log')).mode & 0o777).toBe(0o600);

      // Down and back up: a one-shot alert is done.
      await w.setMark('ETH', '3400');
      await sync();
      await w.setMark('ETH', '3600');
      await sync();
      expect(logLines().filter((l) => l['id'] === once.id)).toHaveLength(1);

      // The repeating alert: fires, a wobble inside the band (59 BTC) does not re-arm, going back past it does.
      await w.setMark('BTC', '58990');
      await until('the first BTC firing', () => logLines().some((l) => l['id'] === again.id));
      await w.setMark('BTC', '59050');
      await sync();
      await w.setMark('BTC', '58900');
      await sync();
      expect(logLines().filter((l) => l['id'] === again.id)).toHaveLength(1);
      await w.setMark('BTC', '59100');
      await sync();
      await w.setMark('BTC', '58800');
      await until('the second BTC firing', () => logLines().filter((l) => l['id'] === again.id).length === 2);

      // Funding turning negative, from the venue's asset context.
      await w.control('/funding-rate', { market: 'ETH', rate: '-0.00002' });
      // The venue pushes the asset context with its next update: a print moves the mark.
      await w.setMark('ETH', '3601');
      await until('the funding firing', () => logLines().some((l) => l['id'] === funding.id));
      await sync();
    } finally {
      a.child.kill('SIGINT');
      b.child.kill('SIGINT');
    }
    const [ad, bd] = await Promise.all([a.done, b.done]);
    expect(ad.code, ad.stderr).toBe(0);
    expect(bd.code, bd.stderr).toBe(0);
    // Every firing was printed by exactly one of the two watchers, and logged once.
    const printedIds = [...ad.stdout.matchAll(/ALERT ([0-9a-f]{12})/g)].map((m) => m[1]).concat(bd.stdout.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id));
    expect(printedIds.sort()).toEqual(ours().map((l) => l['id'] as string).sort());
    expect(ours().filter((l) => l['id'] !== markerId)).toHaveLength(4);
    // The marker too, crossed by both watchers one reading behind the other at times: once per crossing.
    const said = `alerts.log:\n${fs.readFileSync(path.join(w.dataDir, 'alerts.log'), 'utf8')}watcher a:\n${ad.stdout}\nwatcher b:\n${bd.stdout}`;
    expect(logLines().filter((l) => l['id'] === markerId), said).toHaveLength(markerFirings);
    expect(markerLines(ad.stdout).length + markerLines(bd.stdout).length, said).toBe(markerFirings);

    const listed = perpsJson(await run(['--json', 'alert', 'list'])).alerts;
    expect(listed.find((x: { id: string }) => x.id === once.id)).toMatchObject({ status: 'done', fired_count: 1, last_fired_value: '3512.5' });
    expect(listed.find((x: { id: string }) => x.id === again.id)).toMatchObject({ status: 'active', fired_count: 2 });
    expect(perpsJson(await run(['--json', 'alert', 'rm', markerId])).removed.id).toBe(markerId);
    const rm = perpsJson(await run(['--json', 'alert', 'rm', again.id]));
    expect(rm.removed.id).toBe(again.id);
    expect(perpsJson(await run(['--json', 'alert', 'list'])).alerts.map((x: { id: string }) => x.id)).not.toContain(again.id);
  }, 120_000);

  it('a damaged alerts.json is reported by every command, never dropped or rewritten', async () => {
    const file = path.join(w.dataDir, 'alerts.json');
    if (!fs.existsSync(file)) {
      // Run first, it finds no store yet: one is made as a person would, by adding an alert and removing it.
      const added = perpsJson(await run(['--json', 'alert', 'add', '--market', 'ETH', '--above', '1000000']));
      expect((await run(['--json', 'alert', 'rm', added.id])).code).toBe(0);
    }
    const before = fs.readFileSync(file, 'utf8');
    expect(before).toContain('"version": 1');
    fs.writeFileSync(file, before.replace('"version": 1', '"version": 7'));
    try {
      for (const args of [['alert', 'list'], ['alert', 'add', '--market', 'ETH', '--above', '4000']]) {
        const r = await run(['--json', ...args]);
        expect(r.code).toBe(1);
        expect(perpsJson(r).error).toMatchObject({ code: 'ALERT_STORE_DAMAGED', message: expect.stringContaining('alerts.json does not hold alerts (version') });
      }
      expect(fs.readFileSync(file, 'utf8')).toBe(before.replace('"version": 1', '"version": 7'));
    } finally {
      fs.writeFileSync(file, before);
    }
  });
  it("a PnL alert on a wallet's position fires in watch (its positions read every 5 s); without --wallet it is refused", async () => {
    await w.setMark('SOL', '180');
    const t = await w.trader();
    const placed = await run(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'SOL', '--side', 'buy', '--size', '1', '--type', 'market', '--wait']);
    expect(placed.code, placed.stderr).toBe(0);
    const noWallet = await run(['--json', 'alert', 'add', '--market', 'SOL', '--pnl-above', '5']);
    expect(noWallet.code).toBe(2);
    expect(perpsJson(noWallet).error.message).toMatch(/^wallet: a position alert needs the wallet/);
    const walletOnPrice = await run(['--json', 'alert', 'add', '--market', 'SOL', '--above', '200', '--wallet', t.wallet]);
    expect(walletOnPrice.code).toBe(2);
    const a = perpsJson(await run(['--json', 'alert', 'add', '--market', 'SOL', '--pnl-above', '5', '--wallet', t.wallet, '--note', 'scale out']));
    expect(a).toMatchObject({ wallet: t.wallet.toLowerCase(), rule: { kind: 'pnl_above', level: '5' }, armed: null });
    const watcher = new PerpsChild(w, ['alert', 'watch']);
    try {
      await watcher.waitForStderr(/positions every 5 s/);
      // The first read of the position (PnL about 0) arms it.
      await until('the alert armed', () => (JSON.parse(fs.readFileSync(path.join(w.dataDir, 'alerts.json'), 'utf8')) as { alerts: { id: string; armed: boolean | null }[] }).alerts.find((x) => x.id === a.id)?.armed === true);
      await w.setMark('SOL', '190');
      await until('the PnL firing', () => logLines().some((l) => l['id'] === a.id), 30_000);
      await until('the printed firing', () => watcher.stdout.includes(a.id));
      expect(watcher.stdout).toMatch(new RegExp(`ALERT ${a.id} SOL unrealized PnL [\\d.]+ USDC is at or above 5 USDC \\| scale out$`, 'm'));
    } finally {
      watcher.child.kill('SIGINT');
    }
    expect((await watcher.done).code).toBe(0);
  }, 90_000);
});

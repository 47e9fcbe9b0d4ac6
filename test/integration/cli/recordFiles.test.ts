/**
 * Record folders planted with what is not a record (issue 36, items 6 and 7), listed by the real
 * bin/perps.js: a FIFO named like a record never blocks a list (it used to block `twap list` forever), a
 * folder never fails the list for every record (it used to fail with INTERNAL EISDIR), a symlink to
 * /dev/zero is never followed (it used to abort with std::bad_alloc), and a file past the size cap is never
 * read. Each is listed as damaged, saying what it is, beside the healthy ones; damaged trailing stops and
 * OCO pairs are listed by `--list` in text and `--json` as damaged TWAPs are by `twap list`.
 *
 * Where each run happens (issue 37): the lists over planted special files are children, killed after 30 s:
 * a list that blocked on the FIFO (synchronously, as a regression might) must fail the test, not hang the
 * test process with it. The lists of damaged records and of 200,000 alerts only read regular files and run
 * in this process (perpsInProcess.ts: same main, same output, same exit code; a stack overflow there is
 * the same RangeError main reports).
 *
 * The simulator keeps a manual clock (issue 37), the default: nothing here waits on it, and the children
 * only list records in the data folder, so they need no simulator on the wall clock.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TradingWorld } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, perpsJson } from '../twap/twapWorld.js';

let w: TradingWorld;
/** `perps` in this process, for lists of regular files only (nothing there can block). */
const read = perpsOn(() => w);

beforeAll(async () => {
  w = await TradingWorld.boot('cli-record-files');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

/** Runs perps; a run still going after 30 s (blocked on a FIFO) is killed and fails the test. */
async function run(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const c = new PerpsChild(w, args);
  const timer = setTimeout(() => c.child.kill('SIGKILL'), 30_000);
  try {
    return await c.done;
  } finally {
    clearTimeout(timer);
  }
}

/** Plants, in `folder`, a FIFO, a folder, a symlink to /dev/zero and a 9 MiB file, each named like a record. */
function plantSpecialFiles(folder: string): Record<string, RegExp> {
  const dir = path.join(w.dataDir, folder);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  execFileSync('mkfifo', [path.join(dir, 'aaaaaaaaaaa1.json')]);
  fs.mkdirSync(path.join(dir, 'aaaaaaaaaaa2.json'));
  fs.symlinkSync('/dev/zero', path.join(dir, 'aaaaaaaaaaa3.json'));
  fs.writeFileSync(path.join(dir, 'aaaaaaaaaaa4.json'), Buffer.alloc(9 * 1024 * 1024, 0x20), { mode: 0o600 });
  return {
    aaaaaaaaaaa1: /is a FIFO, not a regular file/,
    aaaaaaaaaaa2: /is a folder/,
    aaaaaaaaaaa3: /is a symbolic link \(links are never followed\)/,
    aaaaaaaaaaa4: /is 9437184 bytes, more than the 8388608 a record file may hold/,
  };
}

describe('record folders with special files', () => {
  it('twap list, position trail --list and order oco --list list each special file as damaged, and end', async () => {
    const cases: [string, string[], (doc: Record<string, unknown>) => unknown[]][] = [
      ['twaps', ['twap', 'list'], (d) => d['damaged'] as unknown[]],
      ['trailing', ['position', 'trail', '--list'], (d) => d['damaged'] as unknown[]],
      ['oco', ['order', 'oco', '--list'], (d) => d['damaged'] as unknown[]],
    ];
    for (const [folder, args, damagedOf] of cases) {
      const expected = plantSpecialFiles(folder);
      const started = Date.now();
      const r = await run(['--json', ...args]);
      expect(r.signal, `${args.join(' ')} was killed: it blocked`).toBeNull();
      expect(r.code, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0);
      expect(Date.now() - started).toBeLessThan(20_000);
      // The four planted here (another test may have planted damaged records of its own in the folder).
      const damaged = (damagedOf(perpsJson(r)) as { id: string; damage?: string; reason?: string }[]).filter((d) => d.id.startsWith('aaaaaaaaaaa'));
      expect(damaged.map((d) => d.id).sort()).toEqual(Object.keys(expected));
      for (const d of damaged) expect(d.damage ?? d.reason, d.id).toMatch(expected[d.id]!);
      // The text table lists them too.
      const text = await run(args);
      expect(text.code, text.stderr).toBe(0);
      for (const id of Object.keys(expected)) expect(text.stdout).toContain(id);
    }
  }, 120_000);
});

describe('damaged trailing stops and OCO pairs', () => {
  it('are listed by --list in text and --json, saying what is wrong', async () => {
    const trailDir = path.join(w.dataDir, 'trailing');
    const ocoDir = path.join(w.dataDir, 'oco');
    fs.mkdirSync(trailDir, { recursive: true, mode: 0o700 });
    fs.mkdirSync(ocoDir, { recursive: true, mode: 0o700 });
    const wallet = '0x00000000000000000000000000000000000000bb';
    fs.writeFileSync(path.join(trailDir, 'bbbbbbbbbbb1.json'), JSON.stringify({ version: 1, id: 'bbbbbbbbbbb1', profile: 'sim', wallet, market: 'ETH', status: 'trailing' }), { mode: 0o600 });
    fs.writeFileSync(path.join(ocoDir, 'bbbbbbbbbbb2.json'), '{"version": 1, "profile": "sim", "market": "ETH", "legs": [', { mode: 0o600 });

    const trails = await read(['--json', 'position', 'trail', '--list']);
    expect(trails.code, trails.stderr).toBe(0);
    expect((perpsJson(trails)['damaged'] as unknown[]).find((d) => (d as { id: string }).id === 'bbbbbbbbbbb1')).toMatchObject({ status: 'damaged', wallet, market: 'ETH', damage: expect.stringMatching(/side/) });
    const trailText = await read(['position', 'trail', '--list']);
    expect(trailText.stdout).toMatch(new RegExp(`^ETH +${wallet} +\\(record .*bbbbbbbbbbb1\\.json\\) +damaged: .*; never run$`, 'm'));

    const pairs = await read(['--json', 'order', 'oco', '--list']);
    expect(pairs.code, pairs.stderr).toBe(0);
    expect((perpsJson(pairs)['damaged'] as unknown[]).find((d) => (d as { id: string }).id === 'bbbbbbbbbbb2')).toMatchObject({ status: 'damaged', damage: expect.stringMatching(/not valid JSON/) });
    const ocoText = await read(['order', 'oco', '--list']);
    expect(ocoText.stdout).toMatch(/^bbbbbbbbbbb2 +\? +\(record .*bbbbbbbbbbb2\.json\) +- +damaged: its file is not valid JSON.*; never resumed$/m);
  }, 60_000);
});

describe('alert list at scale', () => {
  it('lists 200,000 stored alerts (text and --json) instead of overflowing the stack', async () => {
    const base = { created_at: 1, status: 'active', armed: true, fired_count: 0, last_fired_at: null, last_fired_value: null, repeat: false, note: '', wallet: null, profile: 'sim' };
    const alerts = Array.from({ length: 200_000 }, (_, i) => ({ ...base, id: i.toString(16).padStart(12, '0'), market: i % 2 === 0 ? 'ETH' : 'BTC', rule: { kind: 'price_above', level: String(1000 + i) } }));
    const file = path.join(w.dataDir, 'alerts.json');
    fs.writeFileSync(file, JSON.stringify({ version: 1, alerts }, null, 2) + '\n', { mode: 0o600 });
    const bytes = fs.statSync(file).size;
    try {
      const started = Date.now();
      const text = await read(['alert', 'list']);
      const textMs = Date.now() - started;
      expect(text.code, text.stderr.slice(0, 2_000)).toBe(0);
      expect(text.stdout.trimEnd().split('\n').length).toBe(200_000 + 2);
      expect(text.stdout).toMatch(/^00000000000a +ETH mark above 1010 +once +armed/m);
      const json = await read(['--json', 'alert', 'list']);
      expect(json.code, json.stderr.slice(0, 2_000)).toBe(0);
      const doc = perpsJson(json);
      expect((doc['alerts'] as unknown[]).length).toBe(200_000);
      expect(doc['damaged']).toEqual([]);
      console.log(`alert list: 200,000 alerts (${Math.round(bytes / 1e6)} MB) listed as text in ${textMs} ms`);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }, 120_000);
});

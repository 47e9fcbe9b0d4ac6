/**
 * What `perps` loads to start (issue 12): bin/perps.js runs the built out/cli, and a command loads only
 * what it needs. Every module a run loads is traced through a Node module hook, so these hold whatever
 * the machine's speed: `perps --help` loads no package but commander, and `perps markets --json` (against
 * a simulator on loopback) loads none of the signing, keychain, hardware-wallet, QR or settings-library
 * code. The wall-time ratios themselves are `npm run bench`'s (test/bench/cliBench.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { REPO_ROOT } from '../../support/paths.js';

/** A module hook that appends the URL of every module loaded to the file PERPS_TRACE_LOADS names. */
const HOOKS = `import fs from 'node:fs';
export async function load(url, context, next) { fs.appendFileSync(process.env.PERPS_TRACE_LOADS, url + '\\n'); return next(url, context); }`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

/** Packages that no command's start-up needs: each is imported where it is used. */
const HEAVY = ['ethers', '@noble/curves', 'keytar', '@ledgerhq/hw-app-eth', '@ledgerhq/hw-transport-node-hid', 'qrcode', '@ngraveio/bc-ur', '@keystonehq/bc-ur-registry-eth', 'ws', 'proper-lockfile', 'conf', 'ajv', 'tsx', 'esbuild'];

let sim: RunningSimulator;
let dataDir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 5 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-startup-'));
});

afterAll(async () => {
  await sim.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Traced {
  code: number;
  stdout: string;
  stderr: string;
  /** npm packages whose modules the run loaded. */
  packages: Set<string>;
}

function traced(args: string[]): Promise<Traced> {
  const trace = path.join(dataDir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  const env = { ...process.env, PERPS_TRACE_LOADS: trace, PERPS_DATA_DIR: dataDir, PERPS_BASE_URL: sim.urls.base_url, PERPS_VENUE_URL: sim.urls.venue_info_url };
  const argv = ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, path.join(REPO_ROOT, 'bin/perps.js'), ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { env, cwd: REPO_ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      const urls = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').split('\n') : [];
      const packages = new Set(urls.flatMap((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []));
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr, packages });
    });
  });
}

describe('perps start-up', { timeout: 120_000 }, () => {
  it('`perps --help` lists every command and loads no package but commander', async () => {
    const r = await traced(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}markets \[options\] +list the markets/m);
    expect(r.stdout).toMatch(/^ {2}order +place, follow, modify and cancel orders/m);
    expect([...r.packages]).toEqual(['commander']);
  });

  it('`perps markets --json` answers from the simulator without loading signing, keychain, QR or settings-library code', async () => {
    const r = await traced(['markets', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { symbol: string }[]).map((m) => m.symbol)).toEqual(sim.config.markets.filter((m) => m.is_active).map((m) => m.symbol));
    expect(HEAVY.filter((p) => r.packages.has(p))).toEqual([]);
  });

  it('an unknown command still exits 2, with one JSON error document under --json', async () => {
    const r = await traced(['no-such-command', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'USAGE', exit_code: 2 } });
    expect(r.stderr).toMatch(/unknown command 'no-such-command'/);
  });

  it('without a build, bin/perps.js says to run `npm run build` and exits 1', async () => {
    // bin/perps.js on its own, with no out/ beside it: what a checkout looks like before any build.
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-unbuilt-'));
    try {
      fs.mkdirSync(path.join(bare, 'bin'));
      fs.copyFileSync(path.join(REPO_ROOT, 'bin/perps.js'), path.join(bare, 'bin/perps.js'));
      const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(process.execPath, [path.join(bare, 'bin/perps.js'), '--help'], { timeout: 30_000 }, (err, _out, stderr) => resolve({ code: err ? Number(err.code) : 0, stderr })),
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/not built.*Run `npm run build`/);
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });
});

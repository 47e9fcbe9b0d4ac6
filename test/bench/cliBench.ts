/**
 * Start-up of the `perps` command line, as a user meets it: wall time of a whole process, from spawn to
 * exit, of bin/perps.js (the built out/cli) against a bare `node -e 0` in the same rounds.
 *
 *  - `perps --help`: at most 3x `node -e 0`;
 *  - `perps markets --json` against a simulator this bench starts (its own process, on a free port): at
 *    most 5x.
 *
 * Measured by measure.ts: the three commands run once per round in a rotating order, each round's
 * ratios are taken within the round, the verdict is their median, and a miss is re-measured.
 *
 *   npx tsx test/bench/cliBench.ts      (builds out/cli first, as `npm run bench` does)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCli } from '../support/buildCli.js';
import { REPO_ROOT } from '../support/paths.js';
import { formatResult, measureGates, type GateResult } from './measure.js';
import { startSimProcess } from './simProcess.js';

const PERPS = path.join(REPO_ROOT, 'bin/perps.js');

/** Wall-clock milliseconds of one process run to its exit; it must succeed, and print `expect` when given. */
function wallMs(args: readonly string[], env: NodeJS.ProcessEnv, expect?: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      if (expect && !expect.test(out)) return reject(new Error(`node ${args.join(' ')} printed something unexpected: ${out.slice(0, 300)}`));
      resolve(ms);
    });
  });
}

export async function runCliBench(rounds = 15): Promise<GateResult[]> {
  const sim = await startSimProcess();
  // A data folder of its own, so the user's settings never steer the profile (and are never written).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-cli-bench-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PERPS_DATA_DIR: dataDir, PERPS_BASE_URL: sim.urls.base_url, PERPS_VENUE_URL: sim.urls.venue_info_url };
  try {
    const markets = [PERPS, 'markets', '--json'];
    // Warm the file system cache for every side, so round one is not the only cold one.
    await wallMs(['-e', '0'], env);
    await wallMs([PERPS, '--help'], env, /Commands:/);
    await wallMs(markets, env, /"symbol"/);
    const ms = (x: number) => `${x.toFixed(0)}ms`;
    return await measureGates({
      rounds,
      sides: {
        node: () => wallMs(['-e', '0'], env),
        help: () => wallMs([PERPS, '--help'], env, /Commands:/),
        markets: () => wallMs(markets, env, /"symbol"/),
      },
      gates: [
        { name: 'perps --help / node -e 0 (wall time)', of: (r) => r.help / r.node, target: { op: '<=', value: 3 }, detail: (m) => `${ms(m.help)} vs ${ms(m.node)}` },
        { name: 'perps markets --json / node -e 0 (wall time, simulator on loopback)', of: (r) => r.markets / r.node, target: { op: '<=', value: 5 }, detail: (m) => `${ms(m.markets)} vs ${ms(m.node)}` },
      ],
    });
  } finally {
    await sim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await buildCli();
  const results = await runCliBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed)) process.exitCode = 1;
}

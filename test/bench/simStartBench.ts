/**
 * The simulator at the venue's scale (issue 37, item 6): `perps sim --markets venue-scale` (200 markets,
 * each with ~4,000 bars of price history) against `perps sim` with the default markets, both started
 * the way users start them (the built command line, its own process), sides interleaved round by round:
 *
 *  - start: from spawning the process to the printed URLs, venue-scale / default, at most 2.5x;
 *  - memory: the process's peak resident set (VmHWM) once it has started and answered metaAndAssetCtxs
 *    (every market's 24h volume and the price a day ago, read from its history) and a 1m candleSnapshot
 *    of a market, venue-scale / default, at most 2.2x (the 300 MB against 136 MB for the default
 *    markets). The absolute start time and peak are REPORT lines (a machine's figures).
 *
 *   npx tsx test/bench/simStartBench.ts      (after `npm run build:cli`: the simulator is the built CLI)
 *   BENCH_PERPS_BIN=/old/checkout/bin/perps.js npx tsx test/bench/simStartBench.ts   (another build's)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../support/paths.js';
import { formatResult, measureGates, type GateResult } from './measure.js';

const ROUNDS = Number(process.env['BENCH_SIM_START_ROUNDS'] ?? 5);
/**
 * The command line started (both sides): this checkout's by default; BENCH_PERPS_BIN runs another build
 * (a copy of bin/ and out/cli of an older commit), to show the gates failing on the code before.
 */
const PERPS_BIN = process.env['BENCH_PERPS_BIN'] ?? path.join(REPO_ROOT, 'bin/perps.js');

interface Started {
  ms: number;
  peakKb: number;
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} for process ${pid}`);
  return Number(m[1]);
}

async function info(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

/** Starts `perps sim` with `args`, times it to its URLs, reads its peak memory after two reads, stops it. */
async function startOnce(args: readonly string[]): Promise<Started> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-sim-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, [PERPS_BIN, 'sim', '--port', '0', '--seed', '37', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`simulator exited early with ${code}`)));
      readline.createInterface({ input: child.stdout }).once('line', resolve);
    });
    const ms = performance.now() - started;
    const urls = JSON.parse(line) as Record<string, string>;
    const [meta] = (await info(urls['venue_info_url']!, { type: 'metaAndAssetCtxs' })) as [{ universe: { name: string }[] }];
    const coin = meta.universe[0]!.name;
    await info(urls['venue_info_url']!, { type: 'candleSnapshot', req: { coin, interval: '1m', startTime: 0 } });
    return { ms, peakKb: statusKb(child.pid!, 'VmHWM') };
  } finally {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(home, { recursive: true, force: true });
  }
}

export async function runSimStartBench(): Promise<GateResult[]> {
  // Warm the file cache for both, so the first round does not bill one side for reading the bundle.
  await startOnce([]);
  await startOnce(['--markets', 'venue-scale']);
  const results = await measureGates({
    rounds: ROUNDS,
    sides: {
      default: async () => (await startOnce([])).ms,
      venue: async () => (await startOnce(['--markets', 'venue-scale'])).ms,
    },
    gates: [
      {
        name: 'perps sim start to its URLs, 200 venue-scale markets / default markets',
        of: (r) => r.venue / r.default,
        target: { op: '<=', value: 2.5 },
        detail: (m) => `${(m.venue / 1000).toFixed(2)}s vs ${(m.default / 1000).toFixed(2)}s`,
      },
      {
        name: 'perps sim --markets venue-scale start to its URLs (absolute, s)',
        of: (r) => r.venue / 1000,
        target: { op: '<=', value: 2.5 * 1.6 },
        unit: '',
        detail: () => 's (the issue measured 12.1 s before, against 1.6 s for the default markets)',
        reportOnly: true,
      },
    ],
  });
  return [...results, ...(await peakGates())];
}

/**
 * Peak memory in rounds of its own, so the time rounds above carry no reads (a peak does not depend on
 * how busy the machine is, so fewer rounds do).
 */
async function peakGates(): Promise<GateResult[]> {
  return measureGates({
    rounds: Math.max(3, ROUNDS - 2),
    sides: {
      default: async () => (await startOnce([])).peakKb / 1024,
      venue: async () => (await startOnce(['--markets', 'venue-scale'])).peakKb / 1024,
    },
    gates: [
      {
        name: 'perps sim peak resident memory after start and first reads, 200 venue-scale markets / default markets',
        of: (r) => r.venue / r.default,
        target: { op: '<=', value: 300 / 136 },
        detail: (m) => `${m.venue.toFixed(0)} MB vs ${m.default.toFixed(0)} MB`,
      },
      {
        name: 'perps sim --markets venue-scale peak resident memory (absolute, MB)',
        of: (r) => r.venue,
        target: { op: '<=', value: 300 },
        unit: '',
        detail: () => 'MB (the issue measured 1,114 MB before)',
        reportOnly: true,
      },
    ],
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await runSimStartBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed && !r.reportOnly)) process.exitCode = 1;
}

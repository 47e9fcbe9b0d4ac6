/**
 * The simulator at the venue's scale (issue 37, item 6): `perps sim --markets venue-scale` (200 markets,
 * each with ~4,000 bars of price history) against `perps sim` with the default markets, both started
 * the way users start them (the built command line, its own process), sides interleaved round by round:
 *
 *  - start: from spawning the process to the printed URLs, venue-scale / default, at most 2.5x;
 *  - memory: the process's peak resident set (VmHWM) once it has started and answered metaAndAssetCtxs
 *    (every market's 24h volume and the price a day ago, read from its history) and a 1m candleSnapshot
 *    of a market, venue-scale / default, at most 2.2x (the 300 MB against 136 MB for the default
 *    markets). The absolute start time and peak are REPORT lines (a machine's figures);
 *  - the same two for a restart from the state file the last run saved on its exit (`--state`), which
 *    loads the saved history instead of building one: 26.6 s and 1.8 GB at the venue's scale before the
 *    history was saved compact. The exit's save is a REPORT line.
 * Time and memory come from the same starts: the reads follow the printed URLs, so they are not timed.
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

/** One start, a record for measure.ts (a type, not an interface). */
type Started = {
  /** From spawning the process to its printed URLs. */
  ms: number;
  /** The process's peak resident set (VmHWM) after the first reads, in MB. */
  peakMb: number;
  /** From SIGTERM to the process's exit: the state file written, when it has one. */
  exitMs: number;
};

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

/**
 * Starts `perps sim` with `args` (and `--state FILE` when given: loaded when present, saved on exit), times
 * it to its URLs, reads its peak memory after two reads, then stops it with SIGTERM as a user's Ctrl-C
 * does, timing its exit (the state file's save).
 */
async function startOnce(args: readonly string[], stateFile?: string): Promise<Started> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-sim-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, [PERPS_BIN, 'sim', '--port', '0', '--seed', '37', ...args, ...(stateFile ? ['--state', stateFile] : [])], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stopping = 0;
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
    const peakMb = statusKb(child.pid!, 'VmHWM') / 1024;
    stopping = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`perps sim ${args.join(' ')} exited with ${code} on SIGTERM`);
    return { ms, peakMb, exitMs: performance.now() - stopping };
  } finally {
    if (!stopping) child.kill('SIGTERM');
    await exited;
    fs.rmSync(home, { recursive: true, force: true });
  }
}

const VENUE = ['--markets', 'venue-scale'];

/**
 * A restart (a trading day after the last): the state file a simulator of these markets saved on its
 * exit, copied fresh for each start so every round loads the same file.
 */
function restarts(dir: string, name: string, args: readonly string[]): { prepare: () => Promise<void>; start: () => Promise<Started> } {
  const saved = path.join(dir, `${name}.saved.json`);
  const copy = path.join(dir, `${name}.json`);
  return {
    prepare: async () => {
      await startOnce(args, saved);
      if (!fs.existsSync(saved)) throw new Error(`perps sim ${args.join(' ')} saved no state file on SIGTERM`);
    },
    start: async () => {
      fs.copyFileSync(saved, copy);
      return startOnce(args, copy);
    },
  };
}

export async function runSimStartBench(): Promise<GateResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-sim-restart-'));
  try {
    const defaultRestart = restarts(dir, 'default', []);
    const venueRestart = restarts(dir, 'venue', VENUE);
    // The state files each restart loads; these starts also warm the file cache for both presets, so the
    // first round does not bill one side for reading the bundle.
    await defaultRestart.prepare();
    await venueRestart.prepare();
    return await measureGates<'default' | 'venue' | 'defaultRestart' | 'venueRestart', Started>({
      rounds: ROUNDS,
      sides: {
        default: () => startOnce([]),
        venue: () => startOnce(VENUE),
        defaultRestart: defaultRestart.start,
        venueRestart: venueRestart.start,
      },
      gates: [
        {
          name: 'perps sim start to its URLs, 200 venue-scale markets / default markets',
          of: (r) => r.venue.ms / r.default.ms,
          target: { op: '<=', value: 2.5 },
          detail: (m) => `${(m.venue.ms / 1000).toFixed(2)}s vs ${(m.default.ms / 1000).toFixed(2)}s`,
        },
        {
          name: 'perps sim --markets venue-scale start to its URLs (absolute, s)',
          of: (r) => r.venue.ms / 1000,
          target: { op: '<=', value: 2.5 * 1.6 },
          unit: '',
          detail: () => 's (the issue measured 12.1 s before, against 1.6 s for the default markets)',
          reportOnly: true,
        },
        {
          name: 'perps sim peak resident memory after start and first reads, 200 venue-scale markets / default markets',
          of: (r) => r.venue.peakMb / r.default.peakMb,
          target: { op: '<=', value: 300 / 136 },
          detail: (m) => `${m.venue.peakMb.toFixed(0)} MB vs ${m.default.peakMb.toFixed(0)} MB`,
        },
        {
          name: 'perps sim --markets venue-scale peak resident memory (absolute, MB)',
          of: (r) => r.venue.peakMb,
          target: { op: '<=', value: 300 },
          unit: '',
          detail: () => 'MB (the issue measured 1,114 MB before)',
          reportOnly: true,
        },
        // A restart from the state file the last run saved: the same targets as a fresh start. Before the
        // history was saved compact, a 200-market restart took 26.6 s and 1.8 GB (12x and 11x a fresh start's).
        {
          name: 'perps sim restart from its state file to its URLs, 200 venue-scale markets / default markets',
          of: (r) => r.venueRestart.ms / r.defaultRestart.ms,
          target: { op: '<=', value: 2.5 },
          detail: (m) => `${(m.venueRestart.ms / 1000).toFixed(2)}s vs ${(m.defaultRestart.ms / 1000).toFixed(2)}s`,
        },
        {
          name: 'perps sim peak resident memory after a restart and first reads, 200 venue-scale markets / default markets',
          of: (r) => r.venueRestart.peakMb / r.defaultRestart.peakMb,
          target: { op: '<=', value: 300 / 136 },
          detail: (m) => `${m.venueRestart.peakMb.toFixed(0)} MB vs ${m.defaultRestart.peakMb.toFixed(0)} MB`,
        },
        {
          name: 'perps sim --markets venue-scale exit with its state file saved (absolute, s)',
          of: (r) => r.venueRestart.exitMs / 1000,
          target: { op: '<=', value: 2 },
          unit: '',
          detail: (m) => `s, against ${(m.defaultRestart.exitMs / 1000).toFixed(2)} s for the default markets (13 s before the compact history)`,
          reportOnly: true,
        },
      ],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await runSimStartBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed && !r.reportOnly)) process.exitCode = 1;
}

/**
 * `npm run bench`, what CI runs: every entry goes through measure.ts (interleaved rounds, the median of
 * per-round numbers with its spread, a gated line that misses measured again before it fails; a
 * REPORT line is never re-measured and never fails). Exits non-zero when a gated line misses twice.
 *
 * What the gated lines are:
 *  - ratios of two sides measured in the same rounds (the app against a floor, a big input against a
 *    small one, a storm against calm): times, rates, event-loop delays, heap after a full GC, bytes;
 *  - correctness lines (1 = the storm's marks, book and tape equal the venue's);
 *  - the simulator's heap per terminal order (bytes) and a projected heap (MB), from heap counts after a
 *    full GC at checkpoints (simScaleBench.ts): figures of the code, not of the machine's load.
 * Absolute times and sizes (a machine's figures) are REPORT lines, printed beside the ratios.
 *
 * The entries run in lanes, each lane its own process, in four phases:
 *  1. alone: signing, the command line's start and the venue's 24h volume, whose rounds last a fraction
 *     of a second each, so that a burst of load from elsewhere decides a whole round (beside the browser
 *     lane, the signing ratio read 1.37x against 1.35x, 1.21x alone; the volume read 1.43x against 1.5x,
 *     1.16x alone);
 *  2. side by side: the node lane (the simulator's throughput and at scale, the order path, the
 *     portfolio) and the browser lane (the renderer's history and its work in a storm, counted; the first
 *     screen). Each lane alone kept about one of CI's two cores busy (51% of the
 *     machine over the bench's 529 s on the 2-core machine of 2026-12-07), so one after the other they
 *     left a core idle for most of the bench; side by side, the other lane's load lands on both sides of
 *     every ratio alike (measure.ts's interleaved rounds);
 *  3. alone: the p95 of input to review in the renderer's storm against calm, which a neighbour's bursts
 *     move more on the storm's side (1.41x against 1.5x beside the other lane, 1.12x alone; its readings
 *     alone spread from 1.04x to 1.49x over this stop's and the last stop's runs: the gate closest to its
 *     target);
 *  4. side by side: the chase's reaction, then the simulator's start at the venue's scale (fresh and
 *     restarted from its state file), in one lane; main's session in a storm in the other. The chase and
 *     the storm wait on time more than on the CPU (about a fifth of the machine each), and beside each
 *     other they read what they read alone (the chase's p95 1.26x and 1.32x beside the storm, 1.05x and
 *     1.34x alone; main's p99 1.09x and 1.02x beside the chase, 1.01x and 1.04x alone), where beside the
 *     browser lane the chase's p95 read 1.60x and then 1.35x against 1.5x, and main's p99 1.22x. The
 *     starts' restart ratio read 2.43x against 2.5x beside the browser lane (the venue's side parses and
 *     decodes its history: CPU that Chromium takes), 1.68x-1.96x beside the storm and the chase; but
 *     beside the starts the chase's p95 spread to an IQR of 0.94x..2.65x (1.40x), so they follow it.
 * Each lane's lines are printed as they come, prefixed with its name. One lane alone:
 * `npx tsx test/bench/run.ts --lane node` (first, node, browser, review, chase or storm).
 *
 * Soak-length runs (a storm of minutes, the renderer's heap over a long storm) are `npm run soak`, not
 * here. Deterministic counts are vitest tests (the tracker's requests: test/integration/orders/trackingEconomy.test.ts).
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../support/buildCli.js';
import { formatResult, type GateResult } from './measure.js';

type Lane = 'first' | 'node' | 'browser' | 'review' | 'chase' | 'storm';
/** The phases, one after the other; the lanes of a phase run side by side. */
const PHASES: readonly (readonly Lane[])[] = [['first'], ['node', 'browser'], ['review'], ['chase', 'storm']];
/** Every lane, each in exactly one phase: a lane `--lane` accepts is one the whole run runs. */
const LANES: readonly Lane[] = PHASES.flat();

interface Section {
  lane: Lane;
  run: () => Promise<GateResult[]>;
}

const SECTIONS: readonly Section[] = [
  { lane: 'first', run: async () => (await import('./signingBench.js')).runSigningBench() },
  // Start-up of the command line (issue 12): `perps --help` and `perps markets --json` against `node -e 0`.
  { lane: 'first', run: async () => (await import('./cliBench.js')).runCliBench() },
  // The venue's 24h volume with a day of bars behind it against none (issue 17).
  { lane: 'first', run: async () => (await import('./venueVolumeBench.js')).runVenueVolumeBench() },
  // The simulator's throughput: signed legs accepted against bare signature recoveries.
  { lane: 'node', run: async () => (await import('./simThroughput.js')).runSimThroughputBench() },
  // Performance at scale (issue 17): the app's order path against a bare sign-and-fetch, the simulator
  // after 100,000 orders (reads, state file, heap).
  { lane: 'node', run: async () => (await import('./orderPathBench.js')).runOrderPathBench() },
  { lane: 'node', run: async () => (await import('./simScaleBench.js')).runSimScaleBench() },
  // The portfolio (issue 27 item 1): 100,000 fills computed within 2x the time reading them takes.
  { lane: 'node', run: async () => (await import('./portfolioBench.js')).runPortfolioBench() },
  // The renderer's benchmark (desktop-app issue): history scaling and its work in a storm of mark updates,
  // in Chromium on the built renderer (`npm run build` first).
  { lane: 'browser', run: async () => (await import('./rendererBench.js')).runRendererBench() },
  // The first screen (issue 17 item 4): Trade view interactive against a minimal page, and the first script's size.
  { lane: 'browser', run: async () => (await import('./firstScreenBench.js')).runFirstScreenBench() },
  // Input to review in the renderer's storm against calm (issue 29 item 2).
  { lane: 'review', run: async () => (await import('./rendererBench.js')).runReviewLatencyBench() },
  // A chase's reaction (issue 38): from the book message that moves the best bid to its Modify answered,
  // against a bare sign-and-send of the same Modify.
  { lane: 'chase', run: async () => (await import('./chaseBench.js')).runChaseBench() },
  // The simulator at the venue's scale (issue 37 item 6): 200 markets' start and peak memory against the
  // default markets', fresh and restarted from a state file. After the chase, in its lane: beside the
  // storm's last seconds and then alone, neither beside Chromium nor beside the chase's tails.
  { lane: 'chase', run: async () => (await import('./simStartBench.js')).runSimStartBench() },
  // A market storm at the real venue's scale (issues 29 and 37): the app's session (pumps, re-pricing,
  // alerts, book, tape) in it: main's event-loop delay while orders are placed, its heap, nothing lost.
  { lane: 'storm', run: async () => (await import('./stormBench.js')).runStormBench() },
];

/** Runs one lane's sections in order; prints each line and each section's seconds. True when no gated line failed. */
async function runLane(lane: Lane): Promise<boolean> {
  let passed = true;
  let sectionStart = performance.now();
  for (const section of SECTIONS.filter((s) => s.lane === lane)) {
    for (const r of await section.run()) {
      console.log(formatResult(r));
      if (!r.passed && !r.reportOnly) passed = false;
    }
    const now = performance.now();
    // Where CI's bench time goes (REPORT only).
    console.log(`   (${((now - sectionStart) / 1000).toFixed(0)} s)`);
    sectionStart = now;
  }
  return passed;
}

/** Starts one lane as a child process of this script; its output is printed line by line with the lane's name. */
function startLane(lane: Lane): Promise<{ lane: Lane; code: number; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--lane', lane], {
    env: { ...process.env, PERPS_BENCH_CLI_BUILT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tag = `[${lane}]`.padEnd(10);
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => (stream === child.stderr ? console.error : console.log)(`${tag}${line}`));
  }
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ lane, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }));
  });
}

// A section whose lane no phase runs would be skipped without a word: refused before anything runs.
const unrun = SECTIONS.filter((s) => !LANES.includes(s.lane));
if (unrun.length > 0) throw new Error(`bench sections in lanes no phase runs: ${unrun.map((s) => s.lane).join(', ')}`);

const laneArg = process.argv.indexOf('--lane');
if (laneArg >= 0) {
  const lane = process.argv[laneArg + 1] as Lane;
  if (!LANES.includes(lane)) {
    console.error(`--lane takes ${LANES.join(', ')}, not ${String(lane)}`);
    process.exit(2);
  }
  // The lanes run the built command line: built from these sources first, unless the parent did.
  if (process.env['PERPS_BENCH_CLI_BUILT'] !== '1') await buildCli();
  process.exit((await runLane(lane)) ? 0 : 1);
}

await buildCli();
const ended: { lane: Lane; code: number; seconds: number }[] = [];
// Every phase runs, also after a failed one: the log then holds every line a fix may need.
for (const phase of PHASES) ended.push(...(await Promise.all(phase.map(startLane))));
for (const l of ended) console.log(`bench lane ${l.lane}: ${l.seconds.toFixed(0)} s, ${l.code === 0 ? 'every gated line passed' : `exit ${l.code} (a gated line missed twice, or the lane broke)`}`);
process.exit(ended.every((l) => l.code === 0) ? 0 : 1);

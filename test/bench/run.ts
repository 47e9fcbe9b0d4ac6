/**
 * `npm run bench`, what CI runs: every entry goes through measure.ts (interleaved rounds, the median of
 * per-round numbers with its spread, a gated line that misses measured again before it fails; a
 * REPORT line is never re-measured and never fails). Exits non-zero when a gated line misses twice.
 *
 * What the gated lines are:
 *  - ratios of two sides measured in the same rounds (the app against a floor, a big input against a
 *    small one, a storm against calm): times, rates, event-loop delays, heap after a full GC, bytes;
 *  - correctness lines (1 = the storm's marks, book and tape equal the venue's);
 *  - counts of the renderer's work per second of storm (layouts, style recalculations, React commits);
 *  - the simulator's heap per terminal order (bytes) and a projected heap (MB), from heap counts after a
 *    full GC at checkpoints (simScaleBench.ts): figures of the code, not of the machine's load.
 * Absolute times and sizes (a machine's figures) are REPORT lines, printed beside the ratios.
 *
 * Most sections run alone, one after the other; two pairs of lanes run side by side. Each lane keeps
 * about one of the machine's two cores busy (the whole bench alone: 57% of two cores over 421 s on the
 * 2-core machine of 2026-12-06). Side by side run only gates another process's load does not move, each
 * lane a process of its own: the renderer's counts of work (layouts, style recalculations, commits), its
 * history view (two page loads' main-thread time), the first screen (its lines are REPORT, its gate a
 * size), the simulator's start at the venue scale and its memory (process starts of a second against
 * each other), and the portfolio (100,000 fills). In five runs beside the other lane they read as alone.
 * The others measure milliseconds a side, or tails (p95, p99), which another process's bursts stretch
 * unevenly; beside the other lane, against their targets (alone in brackets): signing 1.35x then 1.33x
 * re-measured, against 1.35x (1.26x); `perps markets --json` against `node -e 0` 3.93x and 4.57x,
 * against 5x (3.53x); the simulator's throughput 0.80x, against at least 0.7x (0.92x); the order path
 * 1.36x, against 1.5x (1.09x); the storm's event-loop p99 up to 1.34x, against 1.5x (1.12x); input to
 * review in the storm against calm 1.32x and 1.46x, against 1.5x (1.05x). The chase's p95 reaction
 * against a bare sign-and-send moves even alone with the process it runs in (1.27x in a process of its
 * own, 1.55x after the order path, 2.3x after the storm, 0.98x after the simulator-at-scale sections, in
 * whose process every CI so far measured it), so the first group keeps that process and that order.
 * BENCH_LANES=serial runs the lanes one after the other too.
 *
 * Soak-length runs (a storm of minutes, the renderer's heap over a long storm) are `npm run soak`, not
 * here. Deterministic counts are vitest tests (the tracker's requests: test/integration/orders/trackingEconomy.test.ts).
 *
 * `tsx test/bench/run.ts first` (or `one`, `two`, `last`) runs one group.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../support/buildCli.js';
import { REPO_ROOT } from '../support/paths.js';
import { formatResult, type GateResult } from './measure.js';

type Lane = 'first' | 'one' | 'two' | 'last';
interface Section {
  /** What the section measures (printed with its time). */
  name: string;
  run: () => Promise<GateResult[]>;
}

const LANES: Record<Lane, Section[]> = {
  // Alone, in this process, in the order (and so the process's state) every earlier CI measured them in.
  first: [
    // Signing an order leg against a bare secp256k1 signature and against ethers' signTypedData.
    { name: 'signing', run: async () => (await import('./signingBench.js')).runSigningBench() },
    // Start-up of the command line (issue 12): `perps --help` and `perps markets --json` against `node -e 0`.
    { name: 'command line start-up', run: async () => (await import('./cliBench.js')).runCliBench() },
    { name: 'simulator throughput', run: async () => (await import('./simThroughput.js')).runSimThroughputBench() },
    // Performance at scale (issue 17): the app's order path against a bare sign-and-fetch, the simulator
    // after 100,000 orders (reads, state file, heap) and the venue's 24h volume.
    { name: 'order path', run: async () => (await import('./orderPathBench.js')).runOrderPathBench() },
    { name: 'simulator at scale', run: async () => (await import('./simScaleBench.js')).runSimScaleBench() },
    { name: 'venue 24h volume', run: async () => (await import('./venueVolumeBench.js')).runVenueVolumeBench() },
    // A chase's reaction (issue 38): from the book message that moves the best bid to its Modify answered,
    // against a bare sign-and-send of the same Modify.
    { name: 'chase reaction', run: async () => (await import('./chaseBench.js')).runChaseBench() },
  ],
  // Lanes one and two side by side, each a process of its own.
  one: [
    // The simulator at the venue's scale (issue 37 item 6): 200 markets' start and peak memory against the default markets'.
    { name: 'simulator start at the venue scale', run: async () => (await import('./simStartBench.js')).runSimStartBench() },
    // The portfolio (issue 27 item 1): 100,000 fills computed within 2x the time reading them takes.
    { name: 'portfolio', run: async () => (await import('./portfolioBench.js')).runPortfolioBench() },
  ],
  two: [
    // The renderer (desktop-app issue, issues 29 and 37): history scaling and the storm's work, in
    // Chromium on the built renderer (`npm run build` first).
    { name: 'renderer history and storm', run: async () => (await import('./rendererBench.js')).runRendererWorkBench() },
    // The first screen (issue 17 item 4): Trade view interactive against a minimal page, and the first script's size.
    { name: 'first screen', run: async () => (await import('./firstScreenBench.js')).runFirstScreenBench() },
  ],
  // Alone again, in a process of its own.
  last: [
    // A market storm at the real venue's scale (issues 29 and 37): the app's session (pumps, re-pricing,
    // alerts, book, tape) in it: main's event-loop delay while orders are placed, its heap, nothing lost.
    { name: 'storm through the session', run: async () => (await import('./stormBench.js')).runStormBench() },
    // The click on Buy to the review dialog painted, in the storm against calm (issue 29 item 2).
    { name: 'input to review', run: async () => (await import('./rendererBench.js')).runReviewLatencyBench() },
  ],
};

/** Runs a lane's sections one after the other, printing each one's lines and time; true when no gate failed. */
async function runLane(lane: Lane): Promise<boolean> {
  let passed = true;
  for (const section of LANES[lane]) {
    const started = performance.now();
    const results = await section.run();
    for (const r of results) {
      console.log(formatResult(r));
      if (!r.passed && !r.reportOnly) passed = false;
    }
    console.log(`   (${lane} lane, ${section.name}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  return passed;
}

/**
 * A group as a child process. Its output is held and printed whole when it ends, so two lanes' lines never
 * interleave (`stream`: printed as it comes, for a group that runs alone); its exit code is its verdict.
 */
function runLaneChild(lane: Lane, stream = false): Promise<{ passed: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), lane], { cwd: REPO_ROOT, env: { ...process.env, PERPS_BENCH_LANE_CHILD: '1' }, stdio: ['ignore', stream ? 'inherit' : 'pipe', stream ? 'inherit' : 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ passed: code === 0, output: output + (code === 0 ? '' : `(the ${lane} lane exited with ${signal ?? code})\n`) }));
  });
}

const asked = process.argv[2];
if (asked !== undefined && !(asked in LANES)) {
  console.error(`unknown group "${asked}": ${Object.keys(LANES).join(', ')}`);
  process.exit(2);
}
const started = performance.now();
// The CLI and the simulator benches run the built command line: build it from these sources first (a
// lane started by this script as its child has it built already).
if (!process.env['PERPS_BENCH_LANE_CHILD']) await buildCli();
let passed: boolean;
if (asked) {
  passed = await runLane(asked as Lane);
} else {
  passed = await runLane('first');
  if (process.env['BENCH_LANES'] === 'serial') {
    for (const lane of ['one', 'two'] as const) passed = (await runLaneChild(lane, true)).passed && passed;
  } else {
    const lanesStarted = performance.now();
    const [one, two] = await Promise.all([runLaneChild('one'), runLaneChild('two')]);
    process.stdout.write(one.output + two.output);
    console.log(`   (lanes one and two side by side: ${((performance.now() - lanesStarted) / 1000).toFixed(0)} s)`);
    passed = one.passed && two.passed && passed;
  }
  passed = (await runLaneChild('last', true)).passed && passed;
}
console.log(`   (${asked ? `${asked}` : 'bench'}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
process.exit(passed ? 0 : 1);

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
 * Soak-length runs (a storm of minutes, the renderer's heap over a long storm) are `npm run soak`, not
 * here. Deterministic counts are vitest tests (the tracker's requests: test/integration/orders/trackingEconomy.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../support/buildCli.js';
import { formatResult, type GateResult } from './measure.js';
import { runCliBench } from './cliBench.js';
import { runSigningBench } from './signingBench.js';

const here = path.dirname(fileURLToPath(import.meta.url));
let failed = false;

let sectionStart = performance.now();

/** Prints a section's lines, and how long the section took (where CI's bench time goes; REPORT only). */
function report(results: readonly GateResult[]): void {
  for (const r of results) {
    console.log(formatResult(r));
    if (!r.passed && !r.reportOnly) failed = true;
  }
  const now = performance.now();
  console.log(`   (${((now - sectionStart) / 1000).toFixed(0)} s)`);
  sectionStart = now;
}

// The CLI and the simulator bench run the built command line: build it from these sources first.
await buildCli();
sectionStart = performance.now();

report(await runSigningBench());

// Start-up of the command line (issue 12): `perps --help` and `perps markets --json` against `node -e 0`.
report(await runCliBench());

// The simulator's throughput benchmark joins when it exists (simulator issue).
const simBench = path.join(here, 'simThroughput.ts');
if (fs.existsSync(simBench)) {
  const mod = (await import(simBench)) as { runSimThroughputBench?: () => Promise<GateResult[]> };
  if (mod.runSimThroughputBench) report(await mod.runSimThroughputBench());
}

// Performance at scale (issue 17): the app's order path against a bare sign-and-fetch, the simulator
// after 100,000 orders (reads, state file, heap) and the venue's 24h volume.
{
  const { runOrderPathBench } = await import('./orderPathBench.js');
  report(await runOrderPathBench());
  const { runSimScaleBench } = await import('./simScaleBench.js');
  report(await runSimScaleBench());
  const { runVenueVolumeBench } = await import('./venueVolumeBench.js');
  report(await runVenueVolumeBench());
}

// A chase's reaction (issue 38): from the book message that moves the best bid to its Modify answered,
// against a bare sign-and-send of the same Modify.
{
  const { runChaseBench } = await import('./chaseBench.js');
  report(await runChaseBench());
}

// The simulator at the venue's scale (issue 37 item 6): 200 markets' start and peak memory against the default markets'.
{
  const { runSimStartBench } = await import('./simStartBench.js');
  report(await runSimStartBench());
}

// The portfolio (issue 27 item 1): 100,000 fills computed within 2x the time reading them takes.
{
  const { runPortfolioBench } = await import('./portfolioBench.js');
  report(await runPortfolioBench());
}

// A market storm at the real venue's scale (issues 29 and 37): the app's session (pumps, re-pricing,
// alerts, book, tape) in it: main's event-loop delay while orders are placed, its heap, nothing lost.
{
  const { runStormBench } = await import('./stormBench.js');
  report(await runStormBench());
}

// The renderer's benchmark (desktop-app issue): history scaling and a burst of mark updates, in Chromium
// on the built renderer (`npm run build` first).
const rendererBench = path.join(here, 'rendererBench.ts');
if (fs.existsSync(rendererBench)) {
  const mod = (await import(rendererBench)) as { runRendererBench?: () => Promise<GateResult[]> };
  if (mod.runRendererBench) report(await mod.runRendererBench());
}

// The first screen (issue 17 item 4): Trade view interactive against a minimal page, and the first script's size.
const { runFirstScreenBench } = await import('./firstScreenBench.js');
report(await runFirstScreenBench());

process.exit(failed ? 1 : 0);

/**
 * `npm run bench`: every benchmark prints ratios measured within this one run (absolute times are shown
 * only beside them, for context), each through measure.ts: interleaved rounds, the median of per-round
 * numbers with its spread, and a re-measure before a miss fails. Exits non-zero when a gate misses its
 * target twice in a row.
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

function report(results: readonly GateResult[]): void {
  for (const r of results) {
    console.log(formatResult(r));
    if (!r.passed && !r.reportOnly) failed = true;
  }
}

// The CLI and the simulator bench run the built command line: build it from these sources first.
await buildCli();

report(await runSigningBench());

// Start-up of the command line (issue 12): `perps --help` and `perps markets --json` against `node -e 0`.
report(await runCliBench());

// Order tracking economy (orders issue): one list read per poll, however many orders are tracked.
const trackingBench = path.join(here, 'trackingBench.ts');
if (fs.existsSync(trackingBench)) {
  const mod = (await import(trackingBench)) as { runTrackingBench?: () => Promise<GateResult[]> };
  if (mod.runTrackingBench) report(await mod.runTrackingBench());
}

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

// The portfolio (issue 27 item 1): 100,000 fills computed within 2x the time reading them takes.
{
  const { runPortfolioBench } = await import('./portfolioBench.js');
  report(await runPortfolioBench());
}

// A market storm at the real venue's scale (issue 29): main's event-loop delay while orders are placed,
// nothing lost or reordered, main's heap over a longer storm.
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

/**
 * `npm run bench`: every benchmark prints ratios measured within this one run (absolute times are shown
 * only beside them, for context). Exits non-zero when a ratio misses its target.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSigningBench } from './signingBench.js';

const here = path.dirname(fileURLToPath(import.meta.url));
let failed = false;

function report(name: string, ratio: number, target: string, ok: boolean, detail: string): void {
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}: ${ratio.toFixed(3)}x (target ${target})  [${detail}]`);
  if (!ok) failed = true;
}

const s = await runSigningBench();
report('Order leg signing / bare secp256k1 signature', s.appOverBare, '<= 1.35', s.appOverBare <= 1.35, `${s.appMicros.toFixed(1)}us vs ${s.bareMicros.toFixed(1)}us`);
report('ethers signTypedData / app Order leg signing', s.ethersOverApp, '>= 1.5', s.ethersOverApp >= 1.5, `${s.ethersMicros.toFixed(1)}us vs ${s.appMicros.toFixed(1)}us`);

// Order tracking economy (orders issue): one list read per poll, however many orders are tracked.
const trackingBench = path.join(here, 'trackingBench.ts');
if (fs.existsSync(trackingBench)) {
  const mod = (await import(trackingBench)) as { runTrackingBench?: () => Promise<{ ratio: number; oneOrder: number; fiftyOrders: number; windowMs: number }> };
  if (mod.runTrackingBench) {
    const r = await mod.runTrackingBench();
    report('tracker requests, 50 open orders / 1 open order', r.ratio, '<= 2', r.ratio <= 2, `${r.fiftyOrders} vs ${r.oneOrder} requests over ${r.windowMs / 1000} s simulated`);
  }
}

// The simulator's throughput benchmark joins when it exists (simulator issue).
const simBench = path.join(here, 'simThroughput.ts');
if (fs.existsSync(simBench)) {
  const mod = (await import(simBench)) as { runSimThroughputBench?: () => Promise<{ ratio: number; simLegsPerSecond: number; bareRecoveriesPerSecond: number }> };
  if (mod.runSimThroughputBench) {
    const r = await mod.runSimThroughputBench();
    report('sim accepted signed legs/s / bare recoveries/s', r.ratio, '>= 0.7', r.ratio >= 0.7, `${r.simLegsPerSecond.toFixed(0)} legs/s vs ${r.bareRecoveriesPerSecond.toFixed(0)} recoveries/s`);
  }
}

// The renderer's benchmark (desktop-app issue): history scaling and a burst of mark updates, in Chromium
// on the built renderer (`npx electron-vite build` first).
const rendererBench = path.join(here, 'rendererBench.ts');
if (fs.existsSync(rendererBench)) {
  const mod = (await import(rendererBench)) as {
    runRendererBench?: () => Promise<{ history1kMs: number; history100kMs: number; historyRatio: number; burstBusy: number; burstRate: number; burstLongTasks: number; deliveryBusy: number }>;
  };
  if (mod.runRendererBench) {
    const r = await mod.runRendererBench();
    report('history view, 100,000 rows / 1,000 rows (main-thread time)', r.historyRatio, '<= 1.5', r.historyRatio <= 1.5, `${r.history100kMs.toFixed(0)}ms vs ${r.history1kMs.toFixed(0)}ms`);
    report(
      'renderer main thread busy, 1,000 mark updates/s',
      r.burstBusy,
      '< 0.5',
      r.burstBusy < 0.5,
      `${(r.burstBusy * 100).toFixed(1)}% busy at ${r.burstRate.toFixed(0)} events/s, of which delivery alone ${(r.deliveryBusy * 100).toFixed(1)}%; ${r.burstLongTasks} long tasks`,
    );
  }
}

process.exit(failed ? 1 : 0);

/**
 * kill -9 at random points: 20 foreground `perps twap start` processes, each killed with SIGKILL at a
 * random moment (before its TWAP exists, around its first slice, around its second, or anywhere), then
 * `perps twap resume` run to the end. Every run is checked against the simulator's own order history,
 * by client order id: no slice has two orders (none sent twice), every order the simulator holds for a
 * slice is the one the TWAP recorded, with its fill counted (none lost), and a slice with no order is
 * reported as missed or unsent, never left pending.
 *
 * The simulator answers every trading request 100 ms late (chaos latency), so a kill often lands while
 * a slice's order is on its way, the window the write-ahead record exists for. Runs go five at a time;
 * the random points come from a fixed seed (printed on failure), so a failing run can be replayed.
 *
 * Where each run happens (issue 37): `twap start` and `twap resume` are real children of bin/perps.js, as
 * the process is what is tested (a SIGKILL mid-run; a resume that runs to its real exit, its locks and
 * runner in a process of its own like a user's). The two `twap status` reads run in this process
 * (perpsInProcess.ts): they only read the records the children left, and print the same JSON. Every run
 * kills a child, so the file stays on the wall clock: a child cannot wait on a clock living in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { seededRandom } from '../../../src/shared/algos/twap/twapSchedule.js';
import { TWAPS_FOLDER } from '../../../src/main/services/algos/twap/twapStore.js';
import { TradingWorld, type Trader } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, byCloid, perpsJson, simOrders } from '../twap/twapWorld.js';

const RUNS = 20;
const LANES = 5;
const SEED = Number(process.env['PERPS_TWAP_CRASH_SEED'] ?? 20_251_115);

let w: TradingWorld;
/** The reads (`twap status`) in this process: what they print is the point, not their process. */
const readInProcess = perpsOn(() => w);

beforeAll(async () => {
  w = await TradingWorld.boot('cli-twap-crash', { manualClock: false });
  await w.setMark('ETH', '3400');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

interface Outcome {
  run: number;
  when: string;
  twap: string | null;
  resumed: boolean;
  slices: string[];
}

/** The TWAP id a wallet's run created, found in the data folder (a kill can come before it is printed). */
function twapOf(wallet: string): string | null {
  const dir = path.join(w.dataDir, TWAPS_FOLDER);
  if (!fs.existsSync(dir)) return null;
  for (const name of fs.readdirSync(dir)) {
    if (!/^[0-9a-f]{12}\.json$/.test(name)) continue;
    const r = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as { wallet: string; id: string };
    if (r.wallet.toLowerCase() === wallet.toLowerCase()) return r.id;
  }
  return null;
}

async function oneRun(i: number, t: Trader, random: () => number): Promise<Outcome> {
  const args = ['twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--total-size', '0.02', '--duration', '10s', '--slices', '2', '--leverage', '5'];
  const child = new PerpsChild(w, args);
  const u = random();
  let when: string;
  if (i % 5 === 0) {
    // Anywhere from the start of the process: often before the TWAP exists.
    const ms = Math.floor(random() * 1_500);
    when = `${ms} ms after start`;
    await new Promise((r) => setTimeout(r, ms));
  } else {
    await child.waitForStderr(/^TWAP [0-9a-f]{12}: /m);
    // Around slice 1 (sent right away), around slice 2 (5 s later), or anywhere in the run.
    const ms = u < 0.45 ? Math.floor(random() * 500) : u < 0.75 ? 4_900 + Math.floor(random() * 600) : Math.floor(random() * 6_500);
    when = `${ms} ms after the TWAP started`;
    await new Promise((r) => setTimeout(r, ms));
  }
  child.child.kill('SIGKILL');
  const killed = await child.done;
  const twap = twapOf(t.wallet);
  let resumed = false;
  if (twap !== null && killed.signal === 'SIGKILL') {
    const status = perpsJson(await readInProcess(['--json', 'twap', 'status', twap]));
    if (status.status !== 'completed') {
      expect(status.status, `run ${i}: a killed TWAP reads as interrupted`).toBe('interrupted');
      expect(status.needs_decision).toBe(true);
      const r = await new PerpsChild(w, ['--json', 'twap', 'resume', twap]).done;
      expect(r.code, `run ${i} resume:\n${r.stdout}\n${r.stderr}`).toBe(0);
      resumed = true;
    }
  }
  // Let the last orders settle into history before comparing: a request the killed process sent reached
  // the simulator before this read was sent, so it is done with its latency before this read is, and
  // the read after this one is answered a whole latency after that (not a fixed sleep).
  await simOrders(w.sim.urls.base_url, t.wallet);
  const orders = byCloid(await simOrders(w.sim.urls.base_url, t.wallet));
  if (twap === null) {
    expect(orders.size, `run ${i} (${when}): no TWAP was created, so nothing may have been sent`).toBe(0);
    return { run: i, when, twap, resumed, slices: [] };
  }
  const v = perpsJson(await readInProcess(['--json', 'twap', 'status', twap]));
  const what = `run ${i} (${when}, seed ${SEED}): ${JSON.stringify(v.slices)}`;
  expect(['completed'], what).toContain(v.status);
  let filled = new Decimal(0);
  for (const s of v.slices as { client_order_id: string; order_id: string | null; status: string; filled_size: string }[]) {
    const mine = orders.get(s.client_order_id) ?? [];
    // Never twice; and the order the simulator holds is the one the TWAP recorded.
    expect(mine.length, what).toBeLessThanOrEqual(1);
    if (mine.length === 1) {
      expect(s.order_id, what).toBe(mine[0]!.order_id);
      expect(s.filled_size, what).toBe(mine[0]!.filled_size);
      filled = filled.plus(mine[0]!.filled_size);
    } else {
      expect(['missed', 'unsent', 'skipped'], what).toContain(s.status);
    }
  }
  // Nothing at the simulator that the TWAP does not know about.
  for (const cloid of orders.keys()) expect((v.slices as { client_order_id: string }[]).some((s) => s.client_order_id === cloid), what).toBe(true);
  expect(v.filled_size, what).toBe(filled.toFixed());
  return { run: i, when, twap, resumed, slices: (v.slices as { status: string }[]).map((s) => s.status) };
}

describe('perps twap under kill -9', () => {
  it(`${RUNS} runs killed at random points: no slice sent twice, none lost`, async () => {
    const traders = await Promise.all(Array.from({ length: RUNS }, () => w.trader('2000')));
    // The latency is for the runs; the traders are made without it.
    await w.chaos({ latency_ms: 100 });
    const random = seededRandom(SEED);
    const outcomes: Outcome[] = [];
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: LANES }, async () => {
        while (next < RUNS) {
          const i = next++;
          outcomes.push(await oneRun(i, traders[i]!, random));
        }
      }),
    );
    await w.resetChaos();
    const elapsed = Date.now() - started;
    // What the kills hit, for the report: how many runs were resumed and what their slices ended as.
    console.log(`twap kill -9: ${RUNS} runs in ${(elapsed / 1000).toFixed(1)} s; resumed ${outcomes.filter((o) => o.resumed).length}; ` + `slices ${JSON.stringify(outcomes.sort((a, b) => a.run - b.run).map((o) => `${o.run}:${o.slices.join('/') || 'none'}`))}`);
    expect(outcomes).toHaveLength(RUNS);
    expect(outcomes.filter((o) => o.resumed).length).toBeGreaterThan(RUNS / 2);
  }, 180_000);
});

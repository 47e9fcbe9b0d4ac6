/**
 * The portfolio at scale (issue 27, item 1): an account with 100,000 fills, its portfolio computed
 * (src/shared/portfolio buildPortfolio, range "all": the ledger sweep, the curve, per day, per market)
 * within 2x the time it takes to read those rows (services/portfolio readPortfolioRecords: every page of
 * trade-history and funding-history per market, plus deposits and withdrawals, over loopback HTTP from a
 * simulator in this process). One ratio within each round, rounds interleaved, the median judged
 * (measure.ts).
 *
 * The fills are written into the simulator's store the way the engine writes them (SimStore.addFill):
 * 100,000 round trips placed through HTTP would take minutes, and what is measured is reading and
 * computing what the store holds.
 *
 *   npx tsx test/bench/portfolioBench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Decimal } from '../../src/shared/decimal/index.js';
import { buildPortfolio, type PortfolioInput } from '../../src/shared/portfolio/index.js';
import { createServiceContext } from '../../src/main/services/serviceContext.js';
import { simProfile } from '../../src/main/profiles/profiles.js';
import { portfolioInput, readPortfolioRecords } from '../../src/main/services/portfolio/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { formatResult, measureGates, type GateResult } from './measure.js';

const WALLET = '0x5d6049ae5f61c891621d4af51e5c5682b1b39f62';
export const FILLS = 100_000;
const SPAN_MS = 20 * 86_400_000;

/** `count` fills: open-then-close round trips of 0.01 on BTC and ETH, spread over 20 days up to now. */
function seedFills(sim: RunningSimulator, count: number): void {
  const ctx = sim.engine.ctx;
  const start = ctx.clock.now() - SPAN_MS;
  const step = Math.floor(SPAN_MS / count);
  for (let i = 0; i < count; i++) {
    const market = i % 4 < 2 ? 'BTC' : 'ETH';
    const opening = i % 2 === 0;
    const base = market === 'BTC' ? 97_000 : 3_400;
    const price = new Decimal(base).plus((i % 200) - 100);
    const entry = new Decimal(base).plus(((i - 1) % 200) - 100);
    ctx.store.addFill(WALLET, {
      tid: 1_000_000 + i,
      order_id: `bench-${Math.floor(i / 2)}`,
      market,
      side: opening ? 'buy' : 'sell',
      price: price.toFixed(),
      size: '0.01',
      fee: price.mul('0.01').mul('0.00035').toDecimalPlaces(6).toFixed(),
      closed_pnl: opening ? null : price.minus(entry).mul('0.01').toDecimalPlaces(6).toFixed(),
      dir: opening ? 'Open Long' : 'Close Long',
      is_liquidation: false,
      filled_at: start + i * step,
      liquidity: 'taker',
    });
  }
}

export async function runPortfolioBench(options: { rounds?: number } = {}): Promise<GateResult[]> {
  const sim = await startSimulator({ port: 0, seed: 11, manualClock: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-portfolio-bench-'));
  try {
    await fetch(sim.urls.control_url + '/freeze-marks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    seedFills(sim, FILLS);
    const ctx = createServiceContext(simProfile(sim.urls, dataDir), { keychainService: 'perps-desk-portfolio-bench', configTtlMs: 60_000 });
    const first = await readPortfolioRecords(ctx, WALLET);
    if (first.fills.length !== FILLS) throw new Error(`read ${first.fills.length} fills, seeded ${FILLS}`);
    const input: PortfolioInput = await portfolioInput(ctx, first, 'all');
    let points = 0;
    return await measureGates({
      rounds: options.rounds ?? 5,
      sides: {
        read: async () => {
          const started = performance.now();
          const r = await readPortfolioRecords(ctx, WALLET);
          const ms = performance.now() - started;
          if (r.fills.length !== FILLS) throw new Error(`read ${r.fills.length} fills`);
          return ms;
        },
        compute: () => {
          const started = performance.now();
          points = buildPortfolio(input).points.length;
          return performance.now() - started;
        },
      },
      gates: [
        {
          name: `Portfolio of ${FILLS.toLocaleString('en')} fills (range all) / reading those rows`,
          of: (r) => r.compute / r.read,
          target: { op: '<=', value: 2 },
          detail: (m) => `median ${m.compute.toFixed(0)}ms to compute (${points} points) vs ${m.read.toFixed(0)}ms to read every page`,
        },
      ],
    });
  } finally {
    await sim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await runPortfolioBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed)) process.exitCode = 1;
}

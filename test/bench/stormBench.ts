/**
 * Main in a market storm (issue 29, item 2): the simulator at the real venue's scale (`perps sim
 * --markets venue-scale`, 200 markets, in its own process) alternating between calm and a 10x storm
 * (POST /sim/storm), while this process does what the app's main does with the venue: one shared venue
 * socket (allMids, the watched market's l2Book and trades) feeding main's coalescing throttles (latest
 * mark per market, latest book, per 100 ms), and places and signs orders through the services'
 * submitOrder.
 *
 *  - main's event-loop delay p99 (monitorEventLoopDelay) while orders are placed: storm / calm in the
 *    same run (interleaved rounds, medians), gated; the absolute p99 in the storm is REPORT (the issue's
 *    20 ms is a machine's figure, not the app's).
 *  - nothing lost or reordered: once the storm ends and the walk is frozen, the marks main would show
 *    equal the venue's allMids, its book equals the venue's l2Book and its tape equals the venue's
 *    recentTrades (tids strictly increasing). A correctness gate (1 = equal).
 *  - the storm's rates (marks, trades, bursts, cascades a second) are printed beside the correctness gate.
 *  - main's heap after a long storm within 10% of after a short one (after a full GC): the issue's
 *    10 minutes against 1 is `npm run soak` (BENCH_SOAK_MINUTES, default 30 against 1); the default
 *    bench runs 60 s against 6 s, the same proportion at a CI-friendly length.
 *
 *   npx tsx test/bench/stormBench.ts      (after `npm run build:cli`: the simulator is the built CLI)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';
import { TradingApiClient } from '../../src/main/api/tradingApiClient.js';
import { PrivateKey } from '../../src/main/signers/secp256k1.js';
import type { Signer } from '../../src/main/signers/signer.js';
import { createServiceContext, type ServiceContext } from '../../src/main/services/serviceContext.js';
import { simProfile } from '../../src/main/profiles/profiles.js';
import { prepareLegs } from '../../src/main/services/orders/prepareOrder.js';
import { submitOrder } from '../../src/main/services/orders/submitOrder.js';
import { readMark } from '../../src/main/services/orders/orderContext.js';
import { Throttle } from '../../src/main/app/throttle.js';
import { VenueSocket } from '../../src/main/venue/venueSocket.js';
import type { L2Book, VenueTrade } from '../../src/main/venue/schemas.js';
import { Decimal, canonical } from '../../src/shared/decimal/index.js';
import { authorizeAgentTypedData, digestOf } from '../../src/shared/eip712/index.js';
import { formatResult, measureGates, type GateResult } from './measure.js';
import { startSimProcess } from './simProcess.js';

const COIN = 'BTC';
const DAY_MS = 86_400_000;
const STORM = 10;
/** Seconds of each side per round, and orders placed in it (one every ~250 ms). */
const SIDE_SECONDS = Number(process.env['BENCH_STORM_SECONDS'] ?? 6);
const ROUNDS = Number(process.env['BENCH_STORM_ROUNDS'] ?? 5);
const THROTTLE_MS = 100;
/** Heap check: the short storm, and the long one as a multiple of it (soak: minutes, not seconds). */
const SOAK_MINUTES = process.env['BENCH_SOAK_MINUTES'] ? Number(process.env['BENCH_SOAK_MINUTES']) : null;
const HEAP_SHORT_MS = SOAK_MINUTES ? 60_000 : 6_000;
const HEAP_LONG_MS = SOAK_MINUTES ? SOAK_MINUTES * 60_000 : 60_000;

/** A full collection (the flag is set at run time, so the bench needs no node option), then the used heap. */
function heapAfterGc(): number {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

async function control(url: string, body?: unknown): Promise<unknown> {
  const res = await fetch(url, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: unknown }).data;
}

async function info<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as T;
}

export async function runStormBench(): Promise<GateResult[]> {
  const sim = await startSimProcess(['--seed', '29', '--markets', 'venue-scale']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-storm-bench-'));
  const socket = new VenueSocket({ url: sim.urls.venue_ws_url! });
  try {
    const main = PrivateKey.generate();
    const agent = PrivateKey.generate();
    const wallet = main.address;
    const now = Date.now();
    const unsigned = { wallet_address: wallet, agent_wallet_address: agent.address, service_environment: 'Testnet' as const, signature_chain_id: 421614, expires_at: now + 30 * DAY_MS, nonce: now };
    await new TradingApiClient({ baseUrl: sim.urls.base_url! }).register({ ...unsigned, signature: main.signDigest(digestOf(authorizeAgentTypedData(unsigned))) });
    await control(sim.urls.control_url + '/deposit', { wallet, amount: '10000000' });
    // The deposit is credited after its confirmation delay.
    await control(sim.urls.control_url + '/advance', { ms: 5_000 });
    const service = createServiceContext(simProfile({ base_url: sim.urls.base_url!, venue_info_url: sim.urls.venue_info_url! }, dataDir), { keychainService: 'perps-storm-bench-unused' });
    const signer: Signer = { kind: 'trading-key', address: agent.address, signTypedData: async (data) => agent.signDigest(digestOf(data)) };
    const ctx: ServiceContext = { ...service, tradingSigner: async () => signer };
    const market = (await ctx.api.markets()).find((m) => m.venue_symbol === COIN)!;

    // Main's side of the feed: one socket, coalesced on the way in (latest mark per market, latest book).
    const shownMarks = new Map<string, string>();
    let shownBook = null as L2Book | null;
    const tape: VenueTrade[] = [];
    let reordered = 0;
    const delivered = { marks: 0, books: 0 };
    const marks = new Throttle<[string, string]>({ intervalMs: THROTTLE_MS, key: ([coin]) => coin, emit: (values) => { delivered.marks += values.length; for (const [coin, mid] of values) shownMarks.set(coin, mid); } });
    const books = new Throttle<L2Book>({ intervalMs: THROTTLE_MS, key: (b) => b.coin, emit: (values) => { delivered.books += values.length; shownBook = values[values.length - 1]!; } });
    socket.on('allMids', ({ mids }) => { for (const [coin, mid] of Object.entries(mids)) marks.push([coin, mid]); });
    socket.on('l2Book', (book) => books.push(book));
    socket.on('trades', (trades) => {
      for (const t of trades) {
        const last = tape[tape.length - 1];
        if (last && t.tid <= last.tid) reordered++;
        else tape.push(t);
      }
      if (tape.length > 500) tape.splice(0, tape.length - 500);
    });
    socket.subscribe({ type: 'allMids' });
    socket.subscribe({ type: 'l2Book', coin: COIN });
    socket.subscribe({ type: 'trades', coin: COIN });
    await socket.connect();

    const mark = await readMark(ctx, market);
    let step = 0;
    const place = async (): Promise<void> => {
      const price = mark.mul('0.7').div(market.tick_size).floor().minus(++step % 5_000).mul(market.tick_size);
      const size = canonical(new Decimal(market.min_order_value).mul(2).div(price).toDecimalPlaces(market.sz_decimals, Decimal.ROUND_CEIL));
      const prepared = await prepareLegs(ctx, { wallet, legs: [{ market: market.symbol, side: 'BUY', size, order_type: 'LIMIT', time_in_force: 'IOC', limit_price: canonical(price) }] });
      const res = await submitOrder(ctx, prepared, signer);
      if (!res.success) throw new Error(`placement not accepted: ${JSON.stringify(res.legs.map((l) => [l.status, l.reason]))}`);
    };
    /** One side: the venue at `factor` for SIDE_SECONDS while orders are placed; returns main's event-loop delay p99 in ms. */
    const stormRates: { marks: number; trades: number; bursts: number; liquidations: number; seconds: number }[] = [];
    const side = (factor: number) => async (): Promise<number> => {
      const before = (await control(sim.urls.control_url + '/storm', { factor })) as { marks: number; trades: number; bursts: number; liquidations: number };
      await new Promise((r) => setTimeout(r, 300));
      const histogram = monitorEventLoopDelay({ resolution: 5 });
      histogram.enable();
      const started = Date.now();
      while (Date.now() - started < SIDE_SECONDS * 1000) {
        await place();
        await new Promise((r) => setTimeout(r, 250));
      }
      histogram.disable();
      const after = (await control(sim.urls.control_url + '/storm')) as typeof before;
      if (factor > 1) {
        const seconds = (Date.now() - started) / 1000;
        stormRates.push({ marks: after.marks - before.marks, trades: after.trades - before.trades, bursts: after.bursts - before.bursts, liquidations: after.liquidations - before.liquidations, seconds });
      }
      return histogram.percentile(99) / 1e6;
    };
    const ms = (x: number): string => `${x.toFixed(1)}ms`;
    const results = await measureGates({
      rounds: ROUNDS,
      sides: { calm: side(1), storm: side(STORM) },
      gates: [
        {
          name: `main event-loop delay p99 while placing orders, ${STORM}x storm on 200 markets / calm`,
          of: (r) => r.storm / r.calm,
          target: { op: '<=', value: 1.5 },
          detail: (m) => `p99 ${ms(m.storm)} in the storm vs ${ms(m.calm)} calm`,
        },
        {
          name: `main event-loop delay p99 while placing orders in a ${STORM}x storm (absolute)`,
          of: (r) => r.storm,
          target: { op: '<=', value: 20 },
          unit: '',
          detail: () => 'ms',
          reportOnly: true,
        },
      ],
    });

    // Nothing lost or reordered: freeze the walk, let the last deliveries land, compare with the venue.
    await control(sim.urls.control_url + '/storm', { factor: 1 });
    await control(sim.urls.control_url + '/freeze-marks', {});
    await new Promise((r) => setTimeout(r, 1_500));
    marks.flush();
    books.flush();
    const venueMids = await info<Record<string, string>>(sim.urls.venue_info_url!, { type: 'allMids' });
    const venueBook = await info<L2Book>(sim.urls.venue_info_url!, { type: 'l2Book', coin: COIN });
    const venueTrades = await info<VenueTrade[]>(sim.urls.venue_info_url!, { type: 'recentTrades', coin: COIN });
    const marksEqual = Object.entries(venueMids).every(([coin, mid]) => shownMarks.get(coin) === mid) && shownMarks.size === Object.keys(venueMids).length;
    const bookEqual = JSON.stringify(shownBook?.levels) === JSON.stringify(venueBook.levels);
    const shownTail = tape.slice(-venueTrades.length).map((t) => t.tid);
    const tapeEqual = JSON.stringify(shownTail) === JSON.stringify(venueTrades.map((t) => t.tid)) && reordered === 0;
    const total = stormRates.reduce((a, r) => ({ marks: a.marks + r.marks, trades: a.trades + r.trades, bursts: a.bursts + r.bursts, liquidations: a.liquidations + r.liquidations, seconds: a.seconds + r.seconds }), { marks: 0, trades: 0, bursts: 0, liquidations: 0, seconds: 0 });
    const perSecond = (n: number): string => (n / total.seconds).toFixed(0);
    const correctness: GateResult = {
      name: 'after the storm: marks, book and trades tape shown equal the venue (nothing lost or reordered)',
      target: { op: '>=', value: 1 },
      unit: '',
      attempts: [
        {
          spread: { median: marksEqual && bookEqual && tapeEqual ? 1 : 0, q1: 0, q3: 0, min: 0, max: 0, rounds: 1 },
          passed: marksEqual && bookEqual && tapeEqual,
          detail: `marks ${marksEqual ? 'equal' : 'DIFFER'} (${shownMarks.size} markets), book ${bookEqual ? 'equal' : 'DIFFERS'}, tape ${tapeEqual ? 'equal' : 'DIFFERS'} (last ${venueTrades.length} trades, ${reordered} out of order); storm rates: ${perSecond(total.marks)} marks/s, ${perSecond(total.trades)} trades/s, ${perSecond(total.bursts)} bursts/s, ${(total.liquidations / total.seconds).toFixed(1)} cascades/s; main delivered ${delivered.marks} marks and ${delivered.books} books after coalescing`,
        },
      ],
      passed: marksEqual && bookEqual && tapeEqual,
    };
    // Heap: the storm resumes with orders placed every second; main's heap after the long run against the short.
    await control(sim.urls.control_url + '/storm', { factor: STORM });
    const stormFor = async (msLong: number): Promise<void> => {
      const until = Date.now() + msLong;
      while (Date.now() < until) {
        await place();
        await new Promise((r) => setTimeout(r, 1_000));
      }
    };
    await stormFor(HEAP_SHORT_MS);
    const heapShort = heapAfterGc();
    await stormFor(HEAP_LONG_MS - HEAP_SHORT_MS);
    const heapLong = heapAfterGc();
    const mb = (x: number): string => `${(x / 2 ** 20).toFixed(1)} MiB`;
    const heapRatio = heapLong / heapShort;
    const heap: GateResult = {
      name: `main heap after a ${HEAP_LONG_MS / 1000} s storm / after ${HEAP_SHORT_MS / 1000} s`,
      target: { op: '<=', value: 1.1 },
      unit: 'x',
      attempts: [{ spread: { median: heapRatio, q1: heapRatio, q3: heapRatio, min: heapRatio, max: heapRatio, rounds: 1 }, passed: heapRatio <= 1.1, detail: `${mb(heapLong)} vs ${mb(heapShort)} after a full GC` }],
      passed: heapRatio <= 1.1,
    };
    marks.close();
    books.close();
    return [...results, correctness, heap];
  } finally {
    await socket.close();
    await sim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await runStormBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed && !r.reportOnly)) process.exitCode = 1;
}

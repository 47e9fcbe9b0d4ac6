/**
 * Main in a market storm (issues 29 and 37): the simulator at the real venue's scale (`perps sim
 * --markets venue-scale`, 200 markets, in its own process) alternating between calm and a 10x storm
 * (POST /sim/storm), while this process runs the app's own main: AppCore on the sim profile (the
 * simulator it "starts" is that process), a main wallet connected, and so the session's real path
 * under the gate: SessionPumps with the MarksPump's 200 activeAssetCtx subscriptions on the session's
 * shared venue socket, the positions pump re-pricing the wallet's open positions on every mark of their
 * markets (with the liquidation watch), the alerts desk's evaluator (market alerts on the venue stream,
 * position alerts on every re-pricing), and the book and tape of the watched market. Orders are placed
 * through the services the orders desk calls (prepareLegs, submitOrder) on the session's own service
 * context, signed by a raw trading key (the desk would take it from the OS keychain, which a bench
 * cannot count on). Nothing here has its own feed, throttle or pricing: what the renderer would be sent
 * is what the session sends through its events adapter.
 *
 *  - main's event-loop delay p99 (monitorEventLoopDelay) while orders are placed: storm / calm in the
 *    same round, median of interleaved rounds, gated; the absolute p99 in the storm is REPORT (the issue's
 *    20 ms is a machine's figure, not the app's).
 *  - main's heap, after a full GC at the end of each side: storm / calm of the same round (what a storm
 *    leaves behind beyond what calm does), and each round's calm against the first round's (growth over
 *    the run), both medians of interleaved rounds. The long soak (a long storm against a short one, the
 *    issue's 10 minutes against 1) is `npm run soak` (BENCH_SOAK_MINUTES).
 *  - nothing lost or reordered: once the storm ends and the walk is frozen, the marks the session last
 *    sent for all 200 markets equal the venue's marks, its book equals the venue's l2Book and its tape
 *    equals the venue's recentTrades (tids strictly increasing). A correctness gate (1 = equal). The
 *    position re-pricings and alert evaluations done in the storm are printed beside it (both must be
 *    non-zero: the path was exercised).
 *
 *   npx tsx test/bench/stormBench.ts      (after `npm run build:cli`: the simulator is the built CLI)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';
import { AppCore } from '../../src/main/app/appCore.js';
import { TradingApiClient } from '../../src/main/api/tradingApiClient.js';
import { PrivateKey } from '../../src/main/signers/secp256k1.js';
import type { Signer } from '../../src/main/signers/signer.js';
import type { ServiceContext } from '../../src/main/services/serviceContext.js';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { prepareLegs } from '../../src/main/services/orders/prepareOrder.js';
import { submitOrder } from '../../src/main/services/orders/submitOrder.js';
import { readMark } from '../../src/main/services/orders/orderContext.js';
import type { L2Book, VenueTrade } from '../../src/main/venue/schemas.js';
import type { BookView } from '../../src/shared/ipc.js';
import type { TradesEvent } from '../../src/shared/ipc/twap.js';
import type { Market } from '../../src/shared/protocol/index.js';
import { Decimal, canonical } from '../../src/shared/decimal/index.js';
import { authorizeAgentTypedData, digestOf } from '../../src/shared/eip712/index.js';
import { formatResult, measureGates, meets, spreadOf, type Attempt, type GateResult } from './measure.js';
import { startSimProcess, type SimProcess } from './simProcess.js';

const WATCHED = 'BTC';
/** Markets the wallet holds a position in: each of their marks re-prices the positions. */
const HELD = ['BTC', 'ETH', 'SOL', 'HYPE', 'XRP'];
const DAY_MS = 86_400_000;
const STORM = 10;
/** Seconds of each side per round, and orders placed in it (one every ~250 ms). */
const SIDE_SECONDS = Number(process.env['BENCH_STORM_SECONDS'] ?? 6);
const ROUNDS = Number(process.env['BENCH_STORM_ROUNDS'] ?? 5);
/** `npm run soak`: a long storm's heap against a short one's, in minutes (the issue's 10 against 1). */
const SOAK_MINUTES = process.env['BENCH_SOAK_MINUTES'] ? Number(process.env['BENCH_SOAK_MINUTES']) : null;

/** A full collection (the flag is set at run time, so the bench needs no node option), then the used heap. */
function heapAfterGc(): number {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

/**
 * A kept-alive connection the simulator closed as idle can reset on reuse before the request reaches
 * it (undici's race); such a request was never served, so it is sent once more on a new connection.
 */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
    return fetch(url, init);
  }
}

async function control(url: string, body?: unknown): Promise<unknown> {
  const res = await fetchOnce(url, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: unknown }).data;
}

async function info<T>(url: string, body: unknown): Promise<T> {
  const res = await fetchOnce(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as T;
}

/** What the session sent to the renderer, as the renderer would keep it (latest per stream and key). */
class Sent {
  readonly marks = new Map<string, string>();
  book: BookView | null = null;
  tape: TradesEvent | null = null;
  readonly counts = new Map<string, number>();
  positionsAt = 0;

  receive(channel: string, payload: unknown): void {
    const name = channel.replace(/^event:/, '');
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    if (name === 'marks') for (const m of (payload as { marks: { market: string; mark: string }[] }).marks) this.marks.set(m.market, m.mark);
    if (name === 'book' && (payload as BookView).market === WATCHED) this.book = payload as BookView;
    if (name === 'trades' && (payload as TradesEvent).market === WATCHED) this.tape = payload as TradesEvent;
  }

  count(name: string): number {
    return this.counts.get(name) ?? 0;
  }
}

/** The app's main on the sim profile of `sim`, a wallet connected, its trading key registered and funded. */
async function openApp(sim: SimProcess, dataDir: string, sent: Sent, logs: string[]): Promise<{ core: AppCore; ctx: ServiceContext; wallet: string; signer: Signer }> {
  // The main wallet's key is handed to the session as an environment variable (the env signer).
  const mainHex = '0x' + crypto.randomBytes(32).toString('hex');
  const main = PrivateKey.fromHex(mainHex);
  const agent = PrivateKey.generate();
  const capture = (level: string) => (m: string) => logs.push(`${level} ${m}`);
  const core = new AppCore({
    dataDir,
    settings: openNodeSettings(dataDir),
    appInfo: { name: 'Perps Desk', version: '0.0.0-bench', platform: process.platform },
    adapters: {
      events: { send: (channel, payload) => sent.receive(channel, payload) },
      dialogs: { chooseOpenFile: async () => null, chooseSaveFile: async () => null, confirm: async () => false },
      notifications: { notify: () => undefined },
    },
    // The simulator runs in its own process (the storm's load is not main's); the app is handed its URLs.
    startSimulator: async () => ({ urls: sim.urls as unknown as { base_url: string; venue_info_url: string; venue_ws_url: string; control_url: string }, stop: async () => undefined }),
    keychainService: 'perps-storm-bench-unused',
    env: { PERPS_STORM_BENCH_MAIN_KEY: mainHex },
    logger: { info: () => undefined, warn: capture('warn'), error: capture('error') },
  });
  await core.start();
  const view = await core.desks.wallet.connectEnv({ variable: 'PERPS_STORM_BENCH_MAIN_KEY' });
  const wallet = view.address!;
  const now = Date.now();
  const unsigned = { wallet_address: wallet, agent_wallet_address: agent.address, service_environment: 'Testnet' as const, signature_chain_id: 421614, expires_at: now + 30 * DAY_MS, nonce: now };
  await new TradingApiClient({ baseUrl: sim.urls['base_url']! }).register({ ...unsigned, signature: main.signDigest(digestOf(authorizeAgentTypedData(unsigned))) });
  await control(sim.urls['control_url'] + '/deposit', { wallet, amount: '10000000' });
  // The deposit is credited after its confirmation delay.
  await control(sim.urls['control_url'] + '/advance', { ms: 5_000 });
  const pumps = core.eventPumps;
  if (!pumps) throw new Error('the session started no event pumps for the connected wallet');
  const signer: Signer = { kind: 'trading-key', address: agent.address, signTypedData: async (data) => agent.signDigest(digestOf(data)) };
  // The session's own service context (its API client, caches, nonces), with the keychain's lookup of the
  // trading key answered by the raw key.
  return { core, ctx: { ...pumps.host.ctx, tradingSigner: async () => signer }, wallet, signer };
}

/** One leg through the services the orders desk calls; refuses anything not accepted. */
async function placeLeg(ctx: ServiceContext, signer: Signer, wallet: string, leg: { market: Market; side: 'BUY' | 'SELL'; size: string; limit_price: string }): Promise<void> {
  const prepared = await prepareLegs(ctx, { wallet, legs: [{ market: leg.market.symbol, side: leg.side, size: leg.size, order_type: 'LIMIT', time_in_force: 'IOC', limit_price: leg.limit_price }] });
  const res = await submitOrder(ctx, prepared, signer);
  if (!res.success) throw new Error(`placement not accepted: ${JSON.stringify(res.legs.map((l) => [l.status, l.reason]))}`);
}

function sizeFor(market: Market, price: Decimal, notionalMultiple: number): string {
  return canonical(new Decimal(market.min_order_value).mul(notionalMultiple).div(price).toDecimalPlaces(market.sz_decimals, Decimal.ROUND_CEIL));
}

function levelsEqual(view: BookView['bids'], venue: L2Book['levels'][0]): boolean {
  return view.length === venue.length && view.every((l, i) => new Decimal(l.price).eq(venue[i]!.px) && new Decimal(l.size).eq(venue[i]!.sz) && l.orders === venue[i]!.n);
}

function gateOf(name: string, value: number, target: GateResult['target'], detail: string, unit: GateResult['unit'] = ''): GateResult {
  const passed = meets(value, target);
  return { name, target, unit, attempts: [{ spread: { median: value, q1: value, q3: value, min: value, max: value, rounds: 1 }, passed, detail }], passed };
}

export async function runStormBench(): Promise<GateResult[]> {
  const sim = await startSimProcess(['--seed', '29', '--markets', 'venue-scale']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-storm-bench-'));
  const sent = new Sent();
  const logs: string[] = [];
  let core: AppCore | null = null;
  try {
    const app = await openApp(sim, dataDir, sent, logs);
    core = app.core;
    const { ctx, wallet, signer } = app;
    const markets = await ctx.api.markets();
    const bySymbol = new Map(markets.map((m) => [m.symbol, m]));
    const market = bySymbol.get(WATCHED)!;

    // Positions to re-price: a small long in each held market, bought through the same services.
    for (const symbol of HELD) {
      const m = bySymbol.get(symbol);
      if (!m) throw new Error(`venue-scale markets have no ${symbol}`);
      const mark = await readMark(ctx, m);
      const price = mark.mul('1.003').div(m.tick_size).ceil().mul(m.tick_size);
      await placeLeg(ctx, signer, wallet, { market: m, side: 'BUY', size: sizeFor(m, mark, 2), limit_price: canonical(price) });
    }
    // Alerts the evaluator must look at on every mark and every re-pricing, none of which fires.
    for (const symbol of HELD) {
      const mark = await readMark(ctx, bySymbol.get(symbol)!);
      await core.desks.alerts.add({ market: symbol, kind: 'price_above', value: canonical(mark.mul(100)) });
      await core.desks.alerts.add({ market: symbol, kind: 'price_below', value: canonical(mark.div(100).toSignificantDigits(4)) });
      await core.desks.alerts.add({ market: symbol, kind: 'pnl_below', value: '-1000000' });
    }
    await core.desks.markets.watchBook({ market: WATCHED });
    await core.desks.markets.watchTrades({ market: WATCHED });
    const pumps = core.eventPumps!;
    // /positions lags fills (spec, position lifecycle rule 2): read until every held market shows, bounded.
    let positions = await pumps.refreshPositions();
    for (let i = 0; i < 100 && positions.length < HELD.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      positions = await pumps.refreshPositions();
    }
    if (positions.length !== HELD.length) throw new Error(`expected ${HELD.length} positions, the session shows ${positions.length}`);

    const mark = await readMark(ctx, market);
    let step = 0;
    const place = async (): Promise<void> => {
      const price = mark.mul('0.7').div(market.tick_size).floor().minus(++step % 5_000).mul(market.tick_size);
      await placeLeg(ctx, signer, wallet, { market, side: 'BUY', size: sizeFor(market, price, 2), limit_price: canonical(price) });
    };
    const controlUrl = sim.urls['control_url']!;
    const stormRates: { marks: number; trades: number; bursts: number; liquidations: number; seconds: number }[] = [];
    /** The heap after a full GC at the end of each side, by round (the p99 is the side's measurement). */
    const heaps: { calm: number; storm: number }[] = [];
    let round = -1;
    const side = (factor: number, name: 'calm' | 'storm') => async (): Promise<number> => {
      const before = (await control(controlUrl + '/storm', { factor })) as { marks: number; trades: number; bursts: number; liquidations: number };
      await new Promise((r) => setTimeout(r, 300));
      const histogram = monitorEventLoopDelay({ resolution: 5 });
      histogram.enable();
      const started = Date.now();
      while (Date.now() - started < SIDE_SECONDS * 1000) {
        await place();
        await new Promise((r) => setTimeout(r, 250));
      }
      histogram.disable();
      const after = (await control(controlUrl + '/storm')) as typeof before;
      if (factor > 1) {
        const seconds = (Date.now() - started) / 1000;
        stormRates.push({ marks: after.marks - before.marks, trades: after.trades - before.trades, bursts: after.bursts - before.bursts, liquidations: after.liquidations - before.liquidations, seconds });
      }
      heaps[round]![name] = heapAfterGc();
      return histogram.percentile(99) / 1e6;
    };
    const ms = (x: number): string => `${x.toFixed(1)}ms`;
    const spec = {
      rounds: ROUNDS,
      beforeRound: (r: number) => {
        if (r === 0) heaps.length = 0;
        round = r;
        heaps[r] = { calm: 0, storm: 0 };
      },
      sides: { calm: side(1, 'calm'), storm: side(STORM, 'storm') },
    };
    const repricedBefore = sent.count('positions');
    const results = await measureGates({
      ...spec,
      gates: [
        {
          name: `main event-loop delay p99 while placing orders, ${STORM}x storm on 200 markets / calm (the app's session: pumps, re-pricing, alerts, book, tape)`,
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
    const repriced = sent.count('positions') - repricedBefore;

    // Heap, from the same interleaved rounds (re-measured once, all rounds, when a gate misses).
    const heapGates = (): GateResult[] => {
      const mib = (x: number): string => `${(x / 2 ** 20).toFixed(1)} MiB`;
      const after = spreadOf(heaps.map((h) => h.storm / h.calm));
      const growth = spreadOf(heaps.slice(1).map((h) => h.calm / heaps[0]!.calm));
      const med = (k: 'calm' | 'storm'): number => spreadOf(heaps.map((h) => h[k])).median;
      const a: Attempt = { spread: after, passed: meets(after.median, { op: '<=', value: 1.1 }), detail: `${mib(med('storm'))} after a storm side vs ${mib(med('calm'))} after a calm side, after a full GC` };
      const g: Attempt = { spread: growth, passed: meets(growth.median, { op: '<=', value: 1.1 }), detail: `${mib(heaps.at(-1)!.calm)} after the last round vs ${mib(heaps[0]!.calm)} after the first (${ROUNDS} rounds of ${2 * SIDE_SECONDS} s)` };
      return [
        { name: `main heap after a ${STORM}x storm side / after the calm side of the same round`, target: { op: '<=', value: 1.1 }, unit: 'x', attempts: [a], passed: a.passed },
        { name: 'main heap after each round / after the first round (growth over the storm rounds)', target: { op: '<=', value: 1.1 }, unit: 'x', attempts: [g], passed: g.passed },
      ];
    };
    const heap = heapGates();
    if (heap.some((h) => !h.passed)) {
      await measureGates({ ...spec, gates: [] });
      heapGates().forEach((second, i) => {
        const first = heap[i]!;
        if (first.passed) return;
        first.attempts.push(second.attempts[0]!);
        first.passed = second.passed;
      });
    }

    const soaked = SOAK_MINUTES ? await soak(controlUrl, place) : null;

    // Nothing lost or reordered: freeze the walk, let the last deliveries land, compare with the venue.
    await control(controlUrl + '/storm', { factor: 1 });
    await control(controlUrl + '/freeze-marks', {});
    await new Promise((r) => setTimeout(r, 1_500));
    const venueInfo = sim.urls['venue_info_url']!;
    const [meta, ctxs] = await info<[{ universe: { name: string }[] }, { markPx: string }[]]>(venueInfo, { type: 'metaAndAssetCtxs' });
    const venueMarks = new Map(meta.universe.map((u, i) => [u.name, ctxs[i]!.markPx]));
    const shownMarks = markets.filter((m) => m.is_active).map((m) => ({ symbol: m.symbol, shown: sent.marks.get(m.symbol), venue: venueMarks.get(m.venue_symbol) }));
    const marksEqual = shownMarks.every((m) => m.shown !== undefined && m.venue !== undefined && new Decimal(m.shown).eq(m.venue));
    const venueBook = await info<L2Book>(venueInfo, { type: 'l2Book', coin: market.venue_symbol });
    const bookEqual = sent.book !== null && levelsEqual(sent.book.bids, venueBook.levels[0]) && levelsEqual(sent.book.asks, venueBook.levels[1]);
    const venueTrades = await info<VenueTrade[]>(venueInfo, { type: 'recentTrades', coin: market.venue_symbol });
    const shownTids = (sent.tape?.trades ?? []).map((t) => t.tid).sort((a, b) => a - b);
    const venueTids = venueTrades.map((t) => t.tid).sort((a, b) => a - b).slice(-shownTids.length);
    const tapeEqual = shownTids.length > 0 && JSON.stringify(shownTids) === JSON.stringify(venueTids) && shownTids.every((t, i) => i === 0 || t > shownTids[i - 1]!);
    const errors = logs.filter((l) => l.startsWith('error'));
    const total = stormRates.reduce((a, r) => ({ marks: a.marks + r.marks, trades: a.trades + r.trades, bursts: a.bursts + r.bursts, liquidations: a.liquidations + r.liquidations, seconds: a.seconds + r.seconds }), { marks: 0, trades: 0, bursts: 0, liquidations: 0, seconds: 0 });
    const perSecond = (n: number): string => (n / total.seconds).toFixed(0);
    const alerts = (await core.desks.alerts.list()).alerts;
    const alertsWatching = alerts.length === HELD.length * 3 && alerts.every((a) => a.status === 'active');
    const exercised = repriced > 0 && sent.count('marks') > 0 && alertsWatching && sent.count('alertFired') === 0;
    const ok = marksEqual && bookEqual && tapeEqual && exercised && errors.length === 0;
    const correctness = gateOf(
      'after the storm: the marks of all 200 markets, the book and the tape the session sent equal the venue (nothing lost or reordered)',
      ok ? 1 : 0,
      { op: '>=', value: 1 },
      `marks ${marksEqual ? 'equal' : 'DIFFER'} (${shownMarks.filter((m) => m.shown !== undefined).length} markets), book ${bookEqual ? 'equal' : 'DIFFERS'}, tape ${tapeEqual ? 'equal' : 'DIFFERS'} (last ${shownTids.length} trades); ` +
        `storm rates: ${perSecond(total.marks)} marks/s, ${perSecond(total.trades)} trades/s, ${perSecond(total.bursts)} bursts/s, ${(total.liquidations / total.seconds).toFixed(1)} cascades/s; ` +
        `the session sent ${sent.count('marks')} marks events, ${repriced} position re-pricings of ${HELD.length} positions, ${alerts.filter((a) => a.status === 'active').length} alerts active (${HELD.length * 2} on the venue stream, ${HELD.length} on each re-pricing) and ${sent.count('alertFired')} fired, ${sent.count('book')} books, ${sent.count('trades')} tapes; ${errors.length} errors logged${errors.length ? `: ${errors.slice(0, 3).join(' | ')}` : ''}`,
    );
    return [...results, ...heap, correctness, ...(soaked ? [soaked] : [])];
  } finally {
    await core?.stop();
    await sim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `npm run soak`: main's heap after a long storm (SOAK_MINUTES) against after one minute of it. */
async function soak(controlUrl: string, place: () => Promise<void>): Promise<GateResult> {
  await control(controlUrl + '/storm', { factor: STORM });
  const stormFor = async (msLong: number): Promise<void> => {
    const until = Date.now() + msLong;
    while (Date.now() < until) {
      await place();
      await new Promise((r) => setTimeout(r, 1_000));
    }
  };
  const shortMs = 60_000;
  const longMs = SOAK_MINUTES! * 60_000;
  await stormFor(shortMs);
  const heapShort = heapAfterGc();
  await stormFor(longMs - shortMs);
  const heapLong = heapAfterGc();
  const mib = (x: number): string => `${(x / 2 ** 20).toFixed(1)} MiB`;
  return gateOf(`main heap after a ${SOAK_MINUTES} min storm / after 1 min (soak)`, heapLong / heapShort, { op: '<=', value: 1.1 }, `${mib(heapLong)} vs ${mib(heapShort)} after a full GC`, 'x');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await runStormBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed && !r.reportOnly)) process.exitCode = 1;
}

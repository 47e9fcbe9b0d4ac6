/**
 * A chase's reaction (issue 38): from the venue book message that moves the best bid to the chase's
 * Modify being answered, against a bare sign-and-send of the same Modify in the same run.
 *
 *   npx tsx test/bench/chaseBench.ts      (after `npm run build:cli`: the simulator is the built CLI)
 *
 * The simulator runs in its own process (`bin/perps.js sim`, wall clock, marks frozen). Both sides start
 * the same way, at a venue book message that a mark move (POST /sim/mark) made the simulator push, and
 * end when the simulator has answered a Modify, so both see the same simulator at the same moment of its
 * work (a book pushed, a mark just moved):
 *  - the chase: the runner's real code path, a ChaseRunner following ETH's l2Book over the venue
 *    WebSocket; it reacts (writes the intent, signs, sends; the fill read runs beside it) and reports when
 *    the book message reached it and when the Modify's answer came (ChaseReaction);
 *  - the floor: BTC's book message on the same socket starts a bare sign-and-send of a Modify of a resting
 *    BTC order of the same wallet (the EIP-712 digest and signature, one fetch, the answer parsed). BTC,
 *    so the chase (following ETH) has nothing to do while the floor is measured.
 *
 * Gate: per round, the p95 of the chase's reactions over the p95 of the bare sends (SAMPLES each, taken
 * alternately, one reaction then one bare send); the
 * verdict is the median over rounds, at most 1.5x (and the medians' ratio, see MEDIAN_TARGET). The chase's interval is 1 ms here so every book move
 * is followed (the command line's smallest is 1 s); nothing else differs from a chase a trader starts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TradingApiClient } from '../../src/main/api/tradingApiClient.js';
import { PrivateKey } from '../../src/main/signers/secp256k1.js';
import type { Signer } from '../../src/main/signers/signer.js';
import { createServiceContext, type ServiceContext } from '../../src/main/services/serviceContext.js';
import { simProfile } from '../../src/main/profiles/profiles.js';
import { loggingVenueSocketPool } from '../../src/main/venue/venueSocketPool.js';
import { prepareChase, startChase, venueChaseBooks, type ChaseReaction } from '../../src/main/services/algos/chase/index.js';
import { placeOrders } from '../../src/main/services/orders/submitOrder.js';
import { parseChaseFlags, type ChaseRecord } from '../../src/shared/algos/chase/index.js';
import { Decimal, canonical } from '../../src/shared/decimal/index.js';
import { authorizeAgentTypedData, digestOf, modifyTypedData } from '../../src/shared/eip712/index.js';
import { formatResult, measureGates, type GateResult } from './measure.js';
import { startSimProcess } from './simProcess.js';

const SYMBOL = 'ETH';
/** The floor's market: its book starts the bare sends, and the chase (on ETH) does not follow it. */
const FLOOR_SYMBOL = 'BTC';
const DAY_MS = 86_400_000;
/** Reactions (and bare sends) per round; a round's number is the ratio of their p95s. */
const SAMPLES = 20;
/**
 * Both lines are gates, judged on the median over 9 rounds of 20 reactions and 20 bare sends (a miss is
 * measured again before it fails). Measured on a 2-core machine shared with other sessions, at the loads
 * (1-minute load average) given (2026-12-06; CI runs the bench alone):
 *
 * P95 (issue 38): the chase's p95 reaction within 1.5x of the bare send's. Between the book message and
 * its send the chase does, besides the bare send's nonce and signature: the wake-up (0.2 to 0.3 ms; the
 * record is held in memory under the run lock, no file is read), the fill read (one round trip, run beside
 * the signature: a Modify sets the size outright, so it is sized from the fill the service lists then,
 * never re-priced at a stale size), and one append to the intent log (0.01 to 0.06 ms). The record's write
 * and fsyncs run while the Modify is in flight, before its answer is acted on; the nonce is taken while
 * the chase waits. Measured: 1.12x, 1.18x, 1.22x at load 0.7 to 2.5 (p95 15 to 20 ms against 11 to 15);
 * 1.08x, 1.23x, 1.49x at load 6 to 7. Left between the two: mostly the fill read's round trip.
 * On 321a3a1's runner (before issue 38's last item: the record read from disk every step, rewritten and
 * fsynced twice under its lock before the send, a 1 ms timer on every wake-up, the nonce taken at the
 * send) the same bench read 1.61x then 1.96x (failed, load 5), 3.67x then 4.11x (failed, load 1 to 7), and once,
 * quiet, 1.95x then 1.38x: the old tails (the fsyncs, a lease of nonces) are what this gate fails on,
 * and on a quiet machine they show in most runs, not all.
 * Since 2026-12-07 each round alternates a reaction and a bare send (before: 20 reactions, then 20 bare
 * sends), so a burst of load lands on both: the old grouping failed a fresh-clone CI on this code at 1.85x
 * then 2.14x, and read 1.05x and 1.47x here beside the alternation's 1.05x, 1.27x and 0.84x (the same
 * minutes, nothing else running). On 321a3a1's runner the alternation read 1.66x then 1.22x (passed on
 * its re-measure) and 1.92x then 1.72x (failed), the grouping 1.61x: the old tails still show in most
 * runs, not all.
 *
 * Median: within MEDIAN_TARGET of the bare send's median. It guards what the chase is built on, reacting to
 * the book stream: a chase that polled, or waited out a sleep before it reacted, would take hundreds of
 * ms against the bare send's 5 (its interval here is 1 ms). Its floor is the fill read's round trip, which
 * the bare send does not make: 1.38x to 1.47x at load 0.7 to 2.5, 1.55x to 1.62x at load 6 to 7 (the
 * old runner: 1.88x to 1.96x, and 4.0x to 4.6x loaded); 3x leaves that margin.
 */
const MEDIAN_TARGET = 3;

function signerOf(key: PrivateKey): Signer {
  return { kind: 'trading-key', address: key.address, signTypedData: async (data) => key.signDigest(digestOf(data)) };
}

async function control(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function p95(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

/** Resolves when `check` holds (polled every few ms, bounded). */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`chase bench: no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export async function runChaseBench(options: { rounds?: number } = {}): Promise<GateResult[]> {
  const sim = await startSimProcess(['--seed', '5']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-chase-bench-'));
  const pool = loggingVenueSocketPool({ warn: (m) => console.warn(m) });
  try {
    await control(sim.urls.control_url + '/freeze-marks', {});
    await control(sim.urls.control_url + '/mark', { market: SYMBOL, price: '3400' });
    const main = PrivateKey.generate();
    const agent = PrivateKey.generate();
    const wallet = main.address;
    const setup = new TradingApiClient({ baseUrl: sim.urls.base_url! });
    const now = Date.now();
    const unsigned = { wallet_address: wallet, agent_wallet_address: agent.address, service_environment: 'Testnet' as const, signature_chain_id: 421614, expires_at: now + 30 * DAY_MS, nonce: now };
    await setup.register({ ...unsigned, signature: main.signDigest(digestOf(authorizeAgentTypedData(unsigned))) });
    await control(sim.urls.control_url + '/deposit', { wallet, amount: '1000000' });
    await control(sim.urls.control_url + '/advance', { ms: 5_000 });

    const service: ServiceContext = createServiceContext(simProfile({ base_url: sim.urls.base_url!, venue_info_url: sim.urls.venue_info_url!, venue_ws_url: sim.urls.venue_ws_url! }, dataDir), { keychainService: 'perps-chase-bench-unused' });
    const signer = signerOf(agent);
    const ctx: ServiceContext = { ...service, tradingSigner: async () => signer };
    const market = (await ctx.api.markets()).find((m) => m.symbol === SYMBOL)!;
    const size = canonical(new Decimal(market.min_order_value).mul(3).div(3400).toDecimalPlaces(market.sz_decimals, Decimal.ROUND_CEIL));

    // The floor's order: a post-only BTC buy far below the book, moved by a tick at each bare send; BTC's
    // book on the same venue socket is its start.
    const btc = (await ctx.api.markets()).find((m) => m.symbol === FLOOR_SYMBOL)!;
    await control(sim.urls.control_url + '/mark', { market: FLOOR_SYMBOL, price: '97000' });
    const btcSize = canonical(new Decimal(btc.min_order_value).mul(3).div(50_000).toDecimalPlaces(btc.sz_decimals, Decimal.ROUND_CEIL));
    const floorPlaced = await placeOrders(ctx, { wallet, legs: [{ market: FLOOR_SYMBOL, side: 'BUY', size: btcSize, order_type: 'LIMIT', time_in_force: 'ALO', limit_price: '50000', leverage: 5 }] }, { wait: true });
    let floorId = floorPlaced.legs[0]!.order_id!;
    let floorPrice = new Decimal('50000');
    let floorSends = 0;
    const accountId = floorPlaced.account_id;
    let btcMark = new Decimal('97000');
    const btcBooks: { receivedAt: number; bid: string }[] = [];
    const releaseBtc = venueChaseBooks(pool.lease(ctx.profile.venueWsUrl!)).follow(btc.venue_symbol, (e) => {
      if ('best' in e) btcBooks.push({ receivedAt: e.receivedAt, bid: e.best.bid });
    });

    // The chase: a buy that follows the best bid up.
    const reactions: ChaseReaction[] = [];
    let record: ChaseRecord | null = null;
    const settings = { ...parseChaseFlags({}), interval_ms: 1 };
    const prepared = await prepareChase(ctx, { wallet, market: SYMBOL, side: 'buy', size, settings, leverage: 5 });
    const runner = await startChase(ctx, prepared, signer, {
      books: venueChaseBooks(pool.lease(ctx.profile.venueWsUrl!)),
      onReaction: (r) => reactions.push(r),
      onUpdate: (r) => (record = r),
    });
    const running = runner.run();
    await until('first order', () => record?.order?.order_id != null);
    let mark = new Decimal('3400');

    /** One reaction: the mark goes up half a unit (five ticks), the book follows, the chase re-prices. */
    const chaseOnce = async (): Promise<number> => {
      const before = reactions.length;
      mark = mark.plus('0.5');
      await control(sim.urls.control_url + '/mark', { market: SYMBOL, price: canonical(mark) });
      await until('a re-price', () => reactions.length > before);
      const r = reactions.at(-1)!;
      // Settled (the new order live) before the next move.
      await until('the re-price settled', () => record !== null && record.moving === null && record.order?.price === r.price);
      return r.answeredAt - r.bookReceivedAt;
    };
    /** The floor: BTC's mark moves, and its book message starts a bare sign-and-send of a Modify, until the answer is parsed. */
    const bareOnce = async (): Promise<number> => {
      const seen = btcBooks.length;
      const before = new Decimal(btcBooks.at(-1)?.bid ?? 0);
      btcMark = btcMark.plus('5');
      await control(sim.urls.control_url + '/mark', { market: FLOOR_SYMBOL, price: canonical(btcMark) });
      // The book message that shows the move (the best bid up from the last one seen) is the start.
      const moved = () => btcBooks.slice(seen).find((b) => new Decimal(b.bid).gt(before));
      await until('a BTC book that moved', () => moved() !== undefined);
      const book = moved()!;
      floorPrice = floorPrice.plus(btc.tick_size);
      const nonce = String(await ctx.nonces.next(wallet));
      const fields = { account_id: accountId, client_order_id: `bench-floor-${now}-${++floorSends}`, limit_price: canonical(floorPrice), size: btcSize, trigger_price: '0', nonce };
      const signature = agent.signDigest(digestOf(modifyTypedData(floorId, fields, ctx.profile.network)));
      const res = await fetch(`${sim.urls.base_url}/orders/${floorId}/modify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...fields, signature }) });
      const body = (await res.json()) as { data?: { order_id: string; status: string } };
      const ms = performance.now() - book.receivedAt;
      if (res.status !== 200 || body.data?.status !== 'SUBMITTED') throw new Error(`bare modify not accepted: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      floorId = body.data.order_id;
      // Applied before the next (a modify of a modify in flight is refused).
      await until('the floor modify applied', async () => (await ctx.api.order(floorId)).status === 'ACCEPTED');
      return ms;
    };

    for (let i = 0; i < 3; i++) {
      await chaseOnce();
      await bareOnce();
    }
    const samples = { chase: [] as number[], bare: [] as number[] };
    /**
     * One round: SAMPLES reactions and SAMPLES bare sends, alternating one for one (the first of the pair
     * alternating too), so a burst of load from elsewhere lands on both sides of the ratio alike. Measured
     * as blocks (every reaction, then every bare send), a burst of a few hundred ms fell on one block: the
     * per-round p95s of 20 read 1.85x then 2.14x in a fresh-clone CI where the pooled medians were 1.4x.
     */
    const pair = async (): Promise<{ chaseP95: number; bareP95: number; chaseP50: number; bareP50: number }> => {
      const chase: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        if (i % 2 === 0) {
          chase.push(await chaseOnce());
          bare.push(await bareOnce());
        } else {
          bare.push(await bareOnce());
          chase.push(await chaseOnce());
        }
      }
      samples.chase.push(...chase);
      samples.bare.push(...bare);
      return { chaseP95: p95(chase), bareP95: p95(bare), chaseP50: median(chase), bareP50: median(bare) };
    };
    const ms = (x: number): string => `${x.toFixed(2)}ms`;
    const results = await measureGates({
      rounds: options.rounds ?? 9,
      sides: { pair },
      gates: [
        {
          name: 'chase reaction (book message to Modify answered) median / bare sign-and-send of the Modify from the same kind of book message, median',
          of: (r) => r.pair.chaseP50 / r.pair.bareP50,
          target: { op: '<=', value: MEDIAN_TARGET },
          detail: () => `median ${ms(median(samples.chase))} vs ${ms(median(samples.bare))} over ${samples.chase.length} reactions`,
        },
        {
          name: 'chase reaction p95 / bare sign-and-send p95 (issue 38 asks <= 1.5x)',
          of: (r) => r.pair.chaseP95 / r.pair.bareP95,
          target: { op: '<=', value: 1.5 },
          detail: () => `p95 ${ms(p95(samples.chase))} vs ${ms(p95(samples.bare))} over ${samples.chase.length} reactions`,
        },
      ],
    });
    runner.requestStop('interrupt');
    await running;
    releaseBtc();
    return results;
  } finally {
    await pool.close();
    await sim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await runChaseBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed)) process.exitCode = 1;
}

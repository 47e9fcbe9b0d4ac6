/**
 * The app's order path against its floor (issue 17, item 1): placing a prepared order with the services'
 * submitOrder (sign exactly what was reviewed, send POST /orders, read the per-leg answers) against a
 * bare sign-and-fetch of the same legs in the same process (EIP-712 digest, secp256k1 signature, one
 * fetch, JSON.parse of the answer). Both end when the simulator has answered the POST.
 *
 *   npx tsx test/bench/orderPathBench.ts      (after `npm run build:cli`: the simulator is the built CLI)
 *
 * The simulator runs in its own process (`bin/perps.js sim`, wall clock), so the client under test never
 * shares an event loop with the server. The legs are IOC limits far below the mark: accepted, never
 * resting (no open-order cap is reached), never filling. Every round prepares fresh orders (untimed:
 * nonces, typed data, the review), then times each side PLACEMENTS times (sides in an order rotated
 * from round to round); a side's number for the round is the median of its placements. Gates: the median over
 * rounds of app / bare, for 1 leg and for 20 legs, at most 1.5x. The p95 of each side over every
 * placement is printed beside the ratio.
 *
 * The trading key is a raw key signing through the Signer interface (the same digest-then-sign the
 * vault does once the key is unlocked): the bench needs no keychain.
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
import { prepareLegs, type PreparedOrder } from '../../src/main/services/orders/prepareOrder.js';
import { submitOrder } from '../../src/main/services/orders/submitOrder.js';
import { wireLeg } from '../../src/main/services/orders/buildOrder.js';
import { readMark } from '../../src/main/services/orders/orderContext.js';
import { Decimal, canonical } from '../../src/shared/decimal/index.js';
import { authorizeAgentTypedData, digestOf } from '../../src/shared/eip712/index.js';
import { formatResult, measureGates, type GateResult } from './measure.js';
import { startSimProcess } from './simProcess.js';

const SYMBOL = 'BTC';
const DAY_MS = 86_400_000;
/** Placements of each side per round; the round's number for a side is their median. */
const PLACEMENTS = 7;

function signerOf(key: PrivateKey): Signer {
  return { kind: 'trading-key', address: key.address, signTypedData: async (data) => key.signDigest(digestOf(data)) };
}

async function control(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
}

function p95(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

function medianOf(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export async function runOrderPathBench(options: { rounds?: number } = {}): Promise<GateResult[]> {
  const sim = await startSimProcess(['--seed', '5']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-order-path-bench-'));
  try {
    await control(sim.urls.control_url + '/freeze-marks', {});
    const main = PrivateKey.generate();
    const agent = PrivateKey.generate();
    const wallet = main.address;
    const setup = new TradingApiClient({ baseUrl: sim.urls.base_url! });
    const now = Date.now();
    const unsigned = { wallet_address: wallet, agent_wallet_address: agent.address, service_environment: 'Testnet' as const, signature_chain_id: 421614, expires_at: now + 30 * DAY_MS, nonce: now };
    await setup.register({ ...unsigned, signature: main.signDigest(digestOf(authorizeAgentTypedData(unsigned))) });
    await control(sim.urls.control_url + '/deposit', { wallet, amount: '10000000' });
    await control(sim.urls.control_url + '/advance', { ms: 5_000 });

    const service: ServiceContext = createServiceContext(simProfile({ base_url: sim.urls.base_url!, venue_info_url: sim.urls.venue_info_url! }, dataDir), {
      keychainService: 'perps-order-path-bench-unused',
    });
    const signer = signerOf(agent);
    // The bench's trading key stands in for the keychain's (resolved by prepare, used by submit).
    const ctx: ServiceContext = { ...service, tradingSigner: async () => signer };
    const market = (await ctx.api.markets()).find((m) => m.symbol === SYMBOL)!;
    const mark = await readMark(ctx, market);
    let step = 0;
    /** A prepared order of `count` IOC buys far below the mark, each at its own price. */
    const prepare = (count: number): Promise<PreparedOrder> =>
      prepareLegs(ctx, {
        wallet,
        legs: Array.from({ length: count }, () => {
          const price = mark.mul('0.7').div(market.tick_size).floor().minus(++step % 5_000).mul(market.tick_size);
          const size = canonical(new Decimal(market.min_order_value).mul(2).div(price).toDecimalPlaces(market.sz_decimals, Decimal.ROUND_CEIL));
          return { market: SYMBOL, side: 'BUY', size, order_type: 'LIMIT', time_in_force: 'IOC', limit_price: canonical(price) };
        }),
      });

    /** The app's path: submitOrder of a prepared order, until the service answered. */
    const app = async (prepared: PreparedOrder): Promise<number> => {
      const started = performance.now();
      const res = await submitOrder(ctx, prepared, signer);
      const ms = performance.now() - started;
      if (!res.success) throw new Error(`app placement not accepted: ${JSON.stringify(res.legs.map((l) => [l.status, l.reason]))}`);
      return ms;
    };
    /** The floor: digest, signature and one fetch of the same kind of legs, in the same process. */
    const bare = async (prepared: PreparedOrder): Promise<number> => {
      const started = performance.now();
      const orders = prepared.legs.map((leg, i) => ({ ...wireLeg(leg, prepared.nonces[i]!), signature: agent.signDigest(digestOf(prepared.requests[i]!.typedData)) }));
      const res = await fetch(`${sim.urls.base_url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account_id: prepared.accountId, orders }) });
      const body = (await res.json()) as { success: boolean };
      const ms = performance.now() - started;
      if (res.status !== 200 || !body.success) throw new Error(`bare placement not accepted: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return ms;
    };

    // Warm-up (JIT, connections, the config cache): not counted.
    for (let i = 0; i < 3; i++) {
      await app(await prepare(1));
      await bare(await prepare(1));
      await app(await prepare(20));
      await bare(await prepare(20));
    }

    const samples: Record<'app1' | 'bare1' | 'app20' | 'bare20', number[]> = { app1: [], bare1: [], app20: [], bare20: [] };
    let queued: Record<keyof typeof samples, PreparedOrder[]> = { app1: [], bare1: [], app20: [], bare20: [] };
    const side = (name: keyof typeof samples, run: (p: PreparedOrder) => Promise<number>) => async (): Promise<number> => {
      const times: number[] = [];
      for (const p of queued[name]) times.push(await run(p));
      samples[name].push(...times);
      return medianOf(times);
    };
    const ms = (x: number): string => `${x.toFixed(2)}ms`;
    return await measureGates({
      rounds: options.rounds ?? 9,
      beforeRound: async () => {
        queued = { app1: [], bare1: [], app20: [], bare20: [] };
        for (let i = 0; i < PLACEMENTS; i++) {
          queued.app1.push(await prepare(1));
          queued.bare1.push(await prepare(1));
          queued.app20.push(await prepare(20));
          queued.bare20.push(await prepare(20));
        }
      },
      sides: { app1: side('app1', app), bare1: side('bare1', bare), app20: side('app20', app), bare20: side('bare20', bare) },
      gates: [
        {
          name: 'order path, 1 leg: app submitOrder / bare sign-and-fetch',
          of: (r) => r.app1 / r.bare1,
          target: { op: '<=', value: 1.5 },
          detail: (m) => `median ${ms(m.app1)} vs ${ms(m.bare1)}; p95 ${ms(p95(samples.app1))} vs ${ms(p95(samples.bare1))} over ${samples.app1.length} placements`,
        },
        {
          name: 'order path, 20 legs: app submitOrder / bare sign-and-fetch',
          of: (r) => r.app20 / r.bare20,
          target: { op: '<=', value: 1.5 },
          detail: (m) => `median ${ms(m.app20)} vs ${ms(m.bare20)}; p95 ${ms(p95(samples.app20))} vs ${ms(p95(samples.bare20))} over ${samples.app20.length} placements`,
        },
      ],
    });
  } finally {
    await sim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await runOrderPathBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed)) process.exitCode = 1;
}

/**
 * Tracking economy (set-up of trackingEconomy.test.ts): HTTP requests the order tracker makes to the
 * simulator while following `count` open orders over a fixed simulated time window.
 *
 * Orders are placed with the app's own leg builder and signer interface (a raw trading key registered by a
 * raw main key: no keychain); only the tracker's requests are counted, through the API client's fetch.
 * Waiting advances the simulator's manual clock, so the window is exactly the same simulated span in every
 * run, and the count is deterministic (manual clock, fixed seed): a test, not a bench (issue 37; it was a
 * one-round bench entry before).
 */
import { TradingApiClient } from '../../../src/main/api/tradingApiClient.js';
import { PrivateKey } from '../../../src/main/signers/secp256k1.js';
import type { Signer } from '../../../src/main/signers/signer.js';
import { OrderTracker } from '../../../src/main/services/orders/orderTracker.js';
import { buildLeg, parseLegInput, wireLeg } from '../../../src/main/services/orders/buildOrder.js';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { authorizeAgentTypedData, digestOf, orderTypedData } from '../../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { VenueInfoClient, joinMarkets } from '../../../src/main/venue/index.js';

/** Simulated time each tracker is watched for. */
export const WINDOW_MS = 120_000;
const SYMBOL = 'BTC';
const DAY_MS = 86_400_000;

function signerOf(key: PrivateKey): Signer {
  return { kind: 'trading-key', address: key.address, signTypedData: async (data) => key.signDigest(digestOf(data)) };
}

async function control(sim: RunningSimulator, path: string, body: unknown): Promise<void> {
  const res = await fetch(sim.urls.control_url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
}

/** Places `count` resting buys far below the mark for a fresh, funded wallet; returns wallet and ids. */
async function restingOrders(sim: RunningSimulator, api: TradingApiClient, count: number): Promise<{ wallet: string; ids: string[] }> {
  const main = PrivateKey.generate();
  const agent = PrivateKey.generate();
  const wallet = main.address;
  let nonce = sim.clock.now();
  const unsigned = { wallet_address: wallet, agent_wallet_address: agent.address, service_environment: 'Testnet' as const, signature_chain_id: 421614, expires_at: sim.clock.now() + 30 * DAY_MS, nonce: ++nonce };
  await api.register({ ...unsigned, signature: main.signDigest(digestOf(authorizeAgentTypedData(unsigned))) });
  await control(sim, '/deposit', { wallet, amount: '1000000' });
  sim.clock.advance(5_000);

  const market = (await api.markets()).find((m) => m.symbol === SYMBOL)!;
  const [meta, ctxs] = await new VenueInfoClient({ url: sim.urls.venue_info_url }).metaAndAssetCtxs();
  const mark = new Decimal(joinMarkets([market], meta, ctxs).bySymbol.get(SYMBOL)!.ctx!.markPx);
  const nonces = { next: async () => ++nonce };
  const ids: string[] = [];
  for (let i = 0; i < count; i += 20) {
    const legs = Array.from({ length: Math.min(20, count - i) }, (_, j) => {
      const price = mark.mul('0.7').div(market.tick_size).floor().minus(i + j).mul(market.tick_size);
      const size = canonical(new Decimal(market.min_order_value).mul(2).div(price).toDecimalPlaces(market.sz_decimals, Decimal.ROUND_CEIL));
      return buildLeg(parseLegInput({ market: SYMBOL, side: 'BUY', size, order_type: 'LIMIT', limit_price: canonical(price) }, 'bench'), market, mark, 'bench');
    });
    const signer = signerOf(agent);
    const signed = [];
    for (const leg of legs) {
      const body = wireLeg(leg, String(await nonces.next()));
      signed.push({ ...body, signature: await signer.signTypedData(orderTypedData(accountIdFromWallet(wallet), body, 'testnet')) });
    }
    const res = await api.placeOrders({ account_id: accountIdFromWallet(wallet), orders: signed });
    for (const l of res.legs) {
      if (l.status !== 'SUBMITTED' || !l.order_id) throw new Error(`bench order rejected: ${l.reason ?? '?'}`);
      ids.push(l.order_id);
    }
  }
  return { wallet, ids };
}

/** Requests made by a tracker following `count` fresh open orders for WINDOW_MS of simulated time. */
export async function requestsWhileTracking(count: number): Promise<number> {
  const sim = await startSimulator({ port: 0, seed: 3, manualClock: true });
  try {
    await control(sim, '/freeze-marks', {});
    const setup = new TradingApiClient({ baseUrl: sim.urls.base_url });
    const { wallet, ids } = await restingOrders(sim, setup, count);
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const sleep = async (ms: number): Promise<void> => {
      sim.clock.advance(ms);
      await new Promise((resolve) => setImmediate(resolve));
    };
    const api = new TradingApiClient({ baseUrl: sim.urls.base_url, fetch: counting, sleep });
    const tracker = new OrderTracker({ api, wallet, sleep });
    for (const id of ids) tracker.track(id, { market: SYMBOL, order_type: 'LIMIT', status: 'SUBMITTED', justSubmitted: true });
    await tracker.watchFor(WINDOW_MS);
    const states = tracker.all();
    if (states.some((s) => s.status !== 'ACCEPTED')) throw new Error(`bench orders did not all rest: ${states.map((s) => s.status).join(',')}`);
    return requests;
  } finally {
    await sim.stop();
  }
}

/** Shared setup for the companion tests: the modules served over real loopback HTTP with a manual SimClock. */
import { JsonRpcProvider, Wallet } from 'ethers';
import { SimClock } from '../../../src/sim/runtime/clock.js';
import { SeededRandom } from '../../../src/sim/runtime/random.js';
import { serveModules, type RunningServer } from '../../../src/sim/runtime/router.js';
import { createCompanions, type BridgeOrder, type Companions, type CompanionConfigOverrides } from '../../../src/sim/companion/index.js';

export const START = Date.UTC(2025, 0, 15, 12, 0, 0);

/**
 * A parsed JSON response body. Tests read deep into many response shapes and assert every field they use,
 * so a loose type here is the one place `any` is allowed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Harness {
  clock: SimClock;
  companions: Companions;
  server: RunningServer;
  bridgeUrl: string;
  platformUrl: string;
  aggregatorUrl: string;
  inferenceUrl: string;
  rpcUrl: (chain: string) => string;
  get(url: string, headers?: Record<string, string>): Promise<{ status: number; body: Json; headers: Headers }>;
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Json; headers: Headers }>;
  /** Funds `address` on `chain` through the control module (wei, or token units with `token`). */
  fund(chain: string, address: string, amount: bigint, token?: string): Promise<void>;
  provider(chain: string): JsonRpcProvider;
  close(): Promise<void>;
}

export async function startHarness(config?: CompanionConfigOverrides, onBridgeOrderFinal?: (o: Readonly<BridgeOrder>) => void): Promise<Harness> {
  const clock = new SimClock({ manual: true, start: START });
  const random = new SeededRandom(7);
  const companions = createCompanions({ clock, random, ...(config ? { config } : {}), ...(onBridgeOrderFinal ? { onBridgeOrderFinal } : {}) });
  const server = await serveModules([
    { prefix: '/bridge/v1', module: companions.bridge },
    { prefix: '/platform', module: companions.points },
    { prefix: '/aggregator/v1', module: companions.aggregator },
    { prefix: '/inference', module: companions.inference },
    { prefix: '/rpc', module: companions.rpc },
    { prefix: '/sim/companion', module: companions.control },
  ]);
  const providers: JsonRpcProvider[] = [];
  const request = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, headers: res.headers };
  };
  const h: Harness = {
    clock,
    companions,
    server,
    bridgeUrl: `${server.origin}/bridge/v1`,
    platformUrl: `${server.origin}/platform`,
    aggregatorUrl: `${server.origin}/aggregator/v1`,
    inferenceUrl: `${server.origin}/inference`,
    rpcUrl: (chain) => `${server.origin}/rpc/${chain}`,
    get: (url, headers) => request('GET', url, undefined, headers),
    post: (url, body, headers) => request('POST', url, body, headers),
    async fund(chain, address, amount, token) {
      const r = await request('POST', `${server.origin}/sim/companion/rpc/fund`, { chain, address, amount: amount.toString(), ...(token ? { token } : {}) });
      if (r.status !== 200) throw new Error(`fund failed: ${JSON.stringify(r.body)}`);
    },
    provider(chain) {
      // cacheTimeout -1: ethers otherwise answers identical calls within 250 ms from its cache, which a
      // test that reads, sends and reads again at once would see as stale state.
      const p = new JsonRpcProvider(`${server.origin}/rpc/${chain}`, undefined, { cacheTimeout: -1 });
      providers.push(p);
      return p;
    },
    async close() {
      for (const p of providers) p.destroy();
      await server.close();
    },
  };
  return h;
}

export function qs(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return q.toString();
}

/** Deterministic test wallets. */
export const alice = new Wallet('0x' + '11'.repeat(32));
export const bob = new Wallet('0x' + '22'.repeat(32));

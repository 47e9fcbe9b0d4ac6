/**
 * Simulator throughput: signed order legs per second accepted by POST /orders over HTTP on loopback,
 * signature verification included, compared with bare secp256k1 recovery (recoverDigestSigner, the
 * same library the simulator uses) of the same signatures in the same run.
 *
 *   npx tsx test/bench/simThroughput.ts      (after `npm run build`: the simulator is the built CLI)
 *
 * The simulator runs in its own process (`bin/perps.js sim`), exactly as users start it, so the
 * client's request building never competes with the server for the event loop. Legs are batched 20 per
 * request to amortise HTTP. Each round signs fresh legs (untimed), then times the simulator accepting
 * them and bare recovery of the same signatures; measure.ts takes the median of the per-round ratios
 * and re-measures before failing. Requirement: ratio >= 0.7.
 */
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { secp256k1 } from '@noble/curves/secp256k1';
import { Wallet } from 'ethers';
import { bytesToHex, recoverDigestSigner, typedDataDigest, addressOfPublicKey } from '../../src/shared/eip712/index.js';
import { formatResult, measureGates, type GateResult } from './measure.js';
import { startSimProcess } from './simProcess.js';

const CHAIN_ID = 998;

export interface SimThroughputOptions {
  /** Requests (of 20 legs) per round. */
  requestsPerRound?: number;
  concurrency?: number;
  rounds?: number;
}

interface SignedLeg {
  leg: Record<string, unknown>;
  digest: Uint8Array;
}

/**
 * Kept-alive connections to the simulator. Each round gets fresh ones (newAgent in beforeRound): signing
 * and bare recovery block this event loop for seconds on a loaded machine, long enough for the server's
 * 5 s keep-alive timeout to close an idle socket without this side noticing, and a request sent on it
 * then dies with "socket hang up".
 */
let agentKeepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

function newAgent(): void {
  agentKeepAlive.destroy();
  agentKeepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });
}

function post(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: agentKeepAlive, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function runSimThroughputBench(options: SimThroughputOptions = {}): Promise<GateResult[]> {
  const requestsPerRound = options.requestsPerRound ?? 16;
  const concurrency = options.concurrency ?? 8;
  const legsPerRequest = 20;
  secp256k1.utils.precompute(8);

  const main = new Wallet('0x' + '42'.repeat(32));
  const agentKey = secp256k1.utils.randomPrivateKey();
  const agentAddress = addressOfPublicKey(secp256k1.getPublicKey(agentKey, false));
  const accountId = main.address.toLowerCase() + '0'.repeat(24);

  const sim = await startSimProcess(['--manual-clock', '--seed', '7']);
  try {
    const base = sim.urls.base_url!;
    const now = Date.now();
    let nonce = now;
    // Register the agent (main wallet signs with ethers) and fund the account.
    const reg = {
      wallet_address: main.address,
      agent_wallet_address: agentAddress,
      service_environment: 'Testnet',
      signature_chain_id: 1,
      expires_at: now + 86_400_000,
      nonce: ++nonce,
    };
    const regSig = await main.signTypedData(
      { name: 'Service Perps', version: '2', chainId: 1 },
      {
        AuthorizeAgent: [
          { name: 'user', type: 'address' },
          { name: 'agent', type: 'address' },
          { name: 'serviceEnvironment', type: 'string' },
          { name: 'expiresAt', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
        ],
      },
      { user: reg.wallet_address, agent: reg.agent_wallet_address, serviceEnvironment: 'Testnet', expiresAt: reg.expires_at, nonce: reg.nonce },
    );
    const r = await post(base + '/auth/register', JSON.stringify({ ...reg, signature: regSig }));
    if (r.status !== 200) throw new Error(`register failed: ${r.status} ${r.text}`);

    let batchNo = 0;
    /** Signs `requests` fresh batches: IOC limits far below the market (accepted, never resting, never filling). */
    const signBatches = (requests: number): SignedLeg[][] => {
      const batches: SignedLeg[][] = [];
      for (let k = 0; k < requests; k++) {
        const b = batchNo++;
        const batch: SignedLeg[] = [];
        for (let i = 0; i < legsPerRequest; i++) {
          const n = String(++nonce);
          const price = String(50_000 + ((b * legsPerRequest + i) % 1000));
          const message = {
            account: accountId,
            market: 'BTC',
            side: 'BUY',
            orderType: 'LIMIT',
            size: '0.001',
            limitPrice: price,
            timeInForce: 'IOC',
            reduceOnly: false,
            leverage: '0',
            nonce: n,
            triggerPrice: '0',
            isMarket: false,
            tpsl: '',
          };
          const digest = typedDataDigest('Order', CHAIN_ID, message);
          const sig = secp256k1.sign(digest, agentKey, { lowS: true });
          const signature = bytesToHex(sig.toCompactRawBytes()) + (27 + sig.recovery).toString(16);
          batch.push({
            digest,
            leg: { market: 'BTC', side: 'BUY', size: '0.001', limit_price: price, order_type: 'LIMIT', time_in_force: 'IOC', client_order_id: `b${b}-${i}`, nonce: n, signature },
          });
        }
        batches.push(batch);
      }
      return batches;
    };
    const bodyOf = (batch: SignedLeg[]) => JSON.stringify({ account_id: accountId, orders: batch.map((s) => s.leg) });

    // Warm up the server (JIT) and bare recovery with work that is not counted.
    for (const batch of signBatches(3)) {
      const w = await post(base + '/orders', bodyOf(batch));
      if (w.status !== 200) throw new Error(`warm-up failed: ${w.status} ${w.text.slice(0, 300)}`);
      for (const s of batch) recoverDigestSigner(s.digest, s.leg.signature as string);
    }

    let round: SignedLeg[][] = [];
    let bodies: string[] = [];
    return await measureGates({
      rounds: options.rounds ?? 9,
      beforeRound: () => {
        round = signBatches(requestsPerRound);
        bodies = round.map(bodyOf);
        newAgent();
      },
      sides: {
        // Seconds per leg, for the simulator accepting this round's legs and for bare recovery of them.
        sim: async () => {
          let next = 0;
          let accepted = 0;
          const started = performance.now();
          await Promise.all(
            Array.from({ length: concurrency }, async () => {
              for (;;) {
                const i = next++;
                if (i >= bodies.length) return;
                const res = await post(base + '/orders', bodies[i]!);
                if (res.status !== 200) throw new Error(`POST /orders: ${res.status} ${res.text.slice(0, 300)}`);
                const data = (JSON.parse(res.text) as { data: { status: string }[] }).data;
                accepted += data.filter((l) => l.status === 'SUBMITTED').length;
              }
            }),
          );
          const seconds = (performance.now() - started) / 1000;
          if (accepted !== bodies.length * legsPerRequest) throw new Error(`only ${accepted} of ${bodies.length * legsPerRequest} legs were accepted`);
          return seconds / accepted;
        },
        bare: () => {
          let count = 0;
          const started = performance.now();
          for (const batch of round) {
            for (const s of batch) {
              if (recoverDigestSigner(s.digest, s.leg.signature as string) !== agentAddress) throw new Error('bare recovery mismatch');
              count++;
            }
          }
          return (performance.now() - started) / 1000 / count;
        },
      },
      gates: [
        {
          name: 'sim accepted signed legs/s / bare recoveries/s',
          // Rates are inverse costs: (legs/s of the sim) / (recoveries/s) = bare cost / sim cost.
          of: (x) => x.bare / x.sim,
          target: { op: '>=', value: 0.7 },
          detail: (m) => `${(1 / m.sim).toFixed(0)} legs/s vs ${(1 / m.bare).toFixed(0)} recoveries/s, ${legsPerRequest} legs/request`,
        },
      ],
    });
  } finally {
    agentKeepAlive.destroy();
    await sim.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const results = await runSimThroughputBench();
  for (const r of results) console.log(formatResult(r));
  if (results.some((r) => !r.passed)) process.exitCode = 1;
}

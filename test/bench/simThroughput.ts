/**
 * Simulator throughput: signed order legs per second accepted by POST /orders over HTTP on loopback,
 * signature verification included, compared with bare secp256k1 recovery (recoverDigestSigner, the
 * same library the simulator uses) of the same signatures in the same run.
 *
 *   npx tsx test/bench/simThroughput.ts
 *
 * The simulator runs in its own process (`bin/perps.js sim`), exactly as users start it, so the
 * client's request building never competes with the server for the event loop. Legs are batched 20 per
 * request to amortise HTTP. Requirement: ratio >= 0.7.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { secp256k1 } from '@noble/curves/secp256k1';
import { Wallet } from 'ethers';
import { bytesToHex, recoverDigestSigner, typedDataDigest, addressOfPublicKey } from '../../src/shared/eip712/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHAIN_ID = 998;

export interface SimThroughputResult {
  legs: number;
  requests: number;
  legsPerRequest: number;
  simSeconds: number;
  simLegsPerSecond: number;
  bareRecoveriesPerSecond: number;
  ratio: number;
  passed: boolean;
}

export interface SimThroughputOptions {
  requests?: number;
  concurrency?: number;
  /** Alternating measurement rounds (sim, then bare recovery of the same legs). */
  rounds?: number;
  /** Threshold reported as `passed`. */
  minRatio?: number;
}

interface SignedLeg {
  leg: Record<string, unknown>;
  digest: Uint8Array;
}

function startSim(): Promise<{ child: ChildProcess; urls: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO, 'bin/perps.js'), 'sim', '--port', '0', '--manual-clock', '--seed', '7'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`simulator exited early with ${code}`)));
    const rl = readline.createInterface({ input: child.stdout! });
    rl.once('line', (line) => {
      child.removeAllListeners('exit');
      resolve({ child, urls: JSON.parse(line) as Record<string, string> });
    });
  });
}

const agentKeepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

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

export async function runSimThroughputBench(options: SimThroughputOptions = {}): Promise<SimThroughputResult> {
  const requests = options.requests ?? 150;
  const concurrency = options.concurrency ?? 8;
  const legsPerRequest = 20;
  const minRatio = options.minRatio ?? 0.7;
  secp256k1.utils.precompute(8);

  const main = new Wallet('0x' + '42'.repeat(32));
  const agentKey = secp256k1.utils.randomPrivateKey();
  const agentAddress = addressOfPublicKey(secp256k1.getPublicKey(agentKey, false));
  const accountId = main.address.toLowerCase() + '0'.repeat(24);

  const { child, urls } = await startSim();
  try {
    const base = urls.base_url!;
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

    // Pre-sign every leg: IOC limits far below the market (accepted, never resting, never filling).
    const batches: SignedLeg[][] = [];
    for (let b = 0; b < requests; b++) {
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
    const bodies = batches.map((batch) => JSON.stringify({ account_id: accountId, orders: batch.map((s) => s.leg) }));

    // Warm up the server (JIT) with a few requests that are not counted.
    for (let i = 0; i < 3; i++) {
      const warm = bodies.pop()!;
      const w = await post(base + '/orders', warm);
      if (w.status !== 200) throw new Error(`warm-up failed: ${w.status} ${w.text.slice(0, 300)}`);
    }
    const counted = bodies.length;

    // Sim and bare recovery are measured in alternating rounds over the same signatures, so load
    // from anything else on the machine weighs on both sides alike.
    const rounds = options.rounds ?? 6;
    const perRound = Math.ceil(counted / rounds);
    const all = batches.slice(0, counted);
    for (let i = 0; i < 10; i++) recoverDigestSigner(all[0]![i]!.digest, all[0]![i]!.leg.signature as string);
    let accepted = 0;
    let simSeconds = 0;
    let bareSeconds = 0;
    let bareCount = 0;
    for (let round = 0; round * perRound < counted; round++) {
      const from = round * perRound;
      const to = Math.min(counted, from + perRound);
      let next = from;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (;;) {
            const i = next++;
            if (i >= to) return;
            const res = await post(base + '/orders', bodies[i]!);
            if (res.status !== 200) throw new Error(`POST /orders: ${res.status} ${res.text.slice(0, 300)}`);
            const data = (JSON.parse(res.text) as { data: { status: string }[] }).data;
            accepted += data.filter((l) => l.status === 'SUBMITTED').length;
          }
        }),
      );
      simSeconds += (performance.now() - started) / 1000;
      const t0 = performance.now();
      for (const batch of all.slice(from, to)) {
        for (const s of batch) {
          if (recoverDigestSigner(s.digest, s.leg.signature as string) !== agentAddress) throw new Error('bare recovery mismatch');
          bareCount++;
        }
      }
      bareSeconds += (performance.now() - t0) / 1000;
    }
    if (accepted !== counted * legsPerRequest) throw new Error(`only ${accepted} of ${counted * legsPerRequest} legs were accepted`);

    const simLegsPerSecond = accepted / simSeconds;
    const bareRecoveriesPerSecond = bareCount / bareSeconds;
    const ratio = simLegsPerSecond / bareRecoveriesPerSecond;
    return {
      legs: accepted,
      requests: counted,
      legsPerRequest,
      simSeconds,
      simLegsPerSecond,
      bareRecoveriesPerSecond,
      ratio,
      passed: ratio >= minRatio,
    };
  } finally {
    agentKeepAlive.destroy();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const r = await runSimThroughputBench();
  console.log(`sim: ${r.legs} signed legs in ${r.requests} requests (${r.legsPerRequest}/request) in ${r.simSeconds.toFixed(2)} s = ${r.simLegsPerSecond.toFixed(0)} legs/s`);
  console.log(`bare secp256k1 recovery (recoverDigestSigner): ${r.bareRecoveriesPerSecond.toFixed(0)} /s`);
  console.log(`RATIO sim/bare = ${r.ratio.toFixed(3)} (required >= 0.7): ${r.passed ? 'PASS' : 'FAIL'}`);
  if (!r.passed) process.exitCode = 1;
}

/**
 * Child process of the simulator heap bench (simScaleBench.ts): a simulator in this process places
 * signed order legs until `total` of them are terminal, and prints the heap in use after a full garbage
 * collection at each checkpoint, one JSON line each: {"legs": N, "heap": bytes, "orders": N}.
 *
 *   node --expose-gc --import tsx test/bench/simHeapChild.ts TOTAL CHECKPOINTS [RETENTION]
 *
 * Legs go through the trading API's own handler (placeOrders: validation, signature recovery, nonces,
 * business rules), without HTTP, so the heap holds the simulator and nothing of a client. Each request
 * is one leg, as the app sends a single order; three in four are IOC limits far below the mark (accepted,
 * then cancelled unfilled: two history rows), one in four takes liquidity, alternately buying and selling
 * (a fill, a position that opens and closes). The clock moves 1 s every 100 legs, so every leg is
 * terminal when the heap is read.
 */
import v8 from 'node:v8';
import { secp256k1 } from '@noble/curves/secp256k1';
import { addressOfPublicKey, authorizeAgentTypedData, bytesToHex, digestOf, typedDataDigest } from '../../src/shared/eip712/index.js';
import { startSimulator } from '../../src/sim/index.js';
import { placeOrders } from '../../src/sim/orders/place.js';
import { register } from '../../src/sim/keys/routes.js';
import { simulateDeposit } from '../../src/sim/money/deposits.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const total = Number(process.argv[2] ?? 10_000);
const checkpoints = Number(process.argv[3] ?? 5);
const retention = process.argv[4] ? Number(process.argv[4]) : null;

secp256k1.utils.precompute(8);
const sim = await startSimulator({ port: 0, seed: 9, manualClock: true, config: { retention: { rows_per_account: retention } } });
const ctx = sim.engine.ctx;
await fetch(sim.urls.control_url + '/freeze-marks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

const mainKey = secp256k1.utils.randomPrivateKey();
const agentKey = secp256k1.utils.randomPrivateKey();
const wallet = addressOfPublicKey(secp256k1.getPublicKey(mainKey, false));
const agent = addressOfPublicKey(secp256k1.getPublicKey(agentKey, false));
const accountId = wallet.toLowerCase() + '0'.repeat(24);
const sign = (digest: Uint8Array, key: Uint8Array): string => {
  const sig = secp256k1.sign(digest, key, { lowS: true });
  return bytesToHex(sig.toCompactRawBytes()) + (27 + sig.recovery).toString(16);
};
let nonce = sim.clock.now();
const reg = { wallet_address: wallet, agent_wallet_address: agent, service_environment: 'Testnet' as const, signature_chain_id: 421614, expires_at: nonce + 30 * 86_400_000, nonce: ++nonce };
register(ctx, { ...reg, signature: sign(digestOf(authorizeAgentTypedData(reg)), mainKey) });
simulateDeposit(ctx, { wallet, amount: '100000000', rail: 'hypercore' });
sim.clock.advance(2_000);

const mark = Number(sim.venue.getMark('BTC'));
/** One signed single-leg request body, parsed from JSON text as the server would have it. */
function request(k: number): unknown {
  const n = String(++nonce);
  const takes = k % 4 === 3;
  const side = takes && k % 8 === 7 ? 'SELL' : 'BUY';
  const price = takes ? String(side === 'BUY' ? Math.round(mark * 1.01) : Math.round(mark * 0.99)) : String(Math.round(mark * 0.7) - (k % 1000));
  const message = { account: accountId, market: 'BTC', side, orderType: 'LIMIT', size: '0.001', limitPrice: price, timeInForce: 'IOC', reduceOnly: false, leverage: '0', nonce: n, triggerPrice: '0', isMarket: false, tpsl: '' };
  const leg = { market: 'BTC', side, size: '0.001', limit_price: price, order_type: 'LIMIT', time_in_force: 'IOC', client_order_id: `pd-${(nonce + k).toString(36)}-${(k * 2654435761 >>> 0).toString(16).padStart(12, '0')}`, nonce: n, signature: sign(typedDataDigest('Order', 998, message), agentKey) };
  return JSON.parse(JSON.stringify({ account_id: accountId, orders: [leg] }));
}

function heap(): number {
  gc!();
  gc!();
  return v8.getHeapStatistics().used_heap_size;
}

let placed = 0;
const report = (): void => console.log(JSON.stringify({ legs: placed, heap: heap(), orders: ctx.store.orders.size }));
report();
for (let c = 1; c <= checkpoints; c++) {
  const until = Math.round((total * c) / checkpoints);
  while (placed < until) {
    const r = placeOrders(ctx, request(placed));
    if (r.results[0]!.status !== 'SUBMITTED') throw new Error(`leg ${placed} rejected: ${r.results[0]!.reason}`);
    placed++;
    if (placed % 100 === 0) sim.clock.advance(1_000);
  }
  sim.clock.advance(1_000);
  const live = [...ctx.store.liveOf(wallet.toLowerCase())].length;
  if (live !== 0) throw new Error(`${live} legs are not terminal`);
  report();
}
await sim.stop();

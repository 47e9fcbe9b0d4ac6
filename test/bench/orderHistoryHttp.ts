/**
 * Orders placed the way a client places them: signed legs POSTed to /orders over HTTP (validation,
 * signature recovery, nonces, client order ids, the engine's own transitions), never written into the
 * store directly. Used by simScaleBench.ts's history gate on an account built this way.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import { addressOfPublicKey, authorizeAgentTypedData, bytesToHex, digestOf, typedDataDigest } from '../../src/shared/eip712/index.js';

export interface HttpAccount {
  wallet: string;
  /** Places `count` more orders (IOC limits far below the mark: accepted, then cancelled unfilled) over HTTP. */
  place(count: number): Promise<void>;
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${text}`);
  return JSON.parse(text) as unknown;
}

/** Where the orders go: the simulator's URLs, its BTC mark, and how its clock is moved (POST /sim/advance). */
export interface HttpTarget {
  urls: { base_url: string; control_url: string; venue_info_url: string };
}

/** Moves the simulator's clock; returns its time after. */
async function advance(target: HttpTarget, ms: number): Promise<number> {
  return ((await post(target.urls.control_url + '/advance', { ms })) as { data: { now: number } }).data.now;
}

/** A funded wallet with a registered trading key on the simulator, ready to place orders over HTTP. */
export async function httpAccount(sim: HttpTarget, legsPerRequest = 1): Promise<HttpAccount> {
  secp256k1.utils.precompute(8);
  const mainKey = secp256k1.utils.randomPrivateKey();
  const agentKey = secp256k1.utils.randomPrivateKey();
  const wallet = addressOfPublicKey(secp256k1.getPublicKey(mainKey, false)).toLowerCase();
  const agent = addressOfPublicKey(secp256k1.getPublicKey(agentKey, false));
  const accountId = wallet + '0'.repeat(24);
  const sign = (digest: Uint8Array, key: Uint8Array): string => {
    const sig = secp256k1.sign(digest, key, { lowS: true });
    return bytesToHex(sig.toCompactRawBytes()) + (27 + sig.recovery).toString(16);
  };
  // Nonces are the signer's clock in ms: the simulator's (it may be ahead of the wall clock).
  let nonce = await advance(sim, 0);
  const reg = { wallet_address: wallet, agent_wallet_address: agent, service_environment: 'Testnet' as const, signature_chain_id: 421614, expires_at: nonce + 30 * 86_400_000, nonce: ++nonce };
  await post(sim.urls.base_url + '/auth/register', { ...reg, signature: sign(digestOf(authorizeAgentTypedData(reg)), mainKey) });
  await post(sim.urls.control_url + '/deposit', { wallet, amount: '100000000' });
  await advance(sim, 5_000);
  const mids = (await post(sim.urls.venue_info_url, { type: 'allMids' })) as Record<string, string>;
  const mark = Number(mids['BTC']);
  let placed = 0;
  const leg = (k: number): Record<string, unknown> => {
    const n = String(++nonce);
    const price = String(Math.round(mark * 0.7) - (k % 1000));
    const message = { account: accountId, market: 'BTC', side: 'BUY', orderType: 'LIMIT', size: '0.001', limitPrice: price, timeInForce: 'IOC', reduceOnly: false, leverage: '0', nonce: n, triggerPrice: '0', isMarket: false, tpsl: '' };
    return { market: 'BTC', side: 'BUY', size: '0.001', limit_price: price, order_type: 'LIMIT', time_in_force: 'IOC', client_order_id: `pd-${k.toString(36)}-${(k * 2654435761 >>> 0).toString(16).padStart(12, '0')}`, nonce: n, signature: sign(typedDataDigest('Order', 998, message), agentKey) };
  };
  return {
    wallet,
    async place(count: number): Promise<void> {
      for (let i = 0; i < count; i += legsPerRequest) {
        const orders = Array.from({ length: Math.min(legsPerRequest, count - i) }, () => leg(placed++));
        const res = (await post(sim.urls.base_url + '/orders', { account_id: accountId, orders })) as { data: { status: string; reason?: string }[] };
        const refused = res.data.find((l) => l.status !== 'SUBMITTED');
        if (refused) throw new Error(`order refused: ${refused.reason ?? refused.status}`);
        // As a client's orders spread over time: the engine's jobs (IOC cancels) run as the clock moves.
        await advance(sim, 100);
      }
      await advance(sim, 1_000);
    },
  };
}

/**
 * Signing speed, measured within one run so the numbers are ratios, not machine-dependent times:
 *  - an Order leg signed by the app (build the typed message from the leg, hash with precomputed type
 *    hashes and domain separator, sign) vs a bare secp256k1 signature of a 32-byte digest with the same
 *    curve library (@noble/curves): target at most 1.35x;
 *  - ethers' Wallet.signTypedData on the same message vs the app: target at least 1.5x slower.
 * Prices and sizes vary across iterations so memoised string hashes are not flattered by one repeated leg.
 * Measured and judged by measure.ts: interleaved rounds, the median of per-round ratios, a re-measure.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import { Wallet } from 'ethers';
import { PrivateKey } from '../../src/main/signers/secp256k1.js';
import { orderTypedData, typedDataDigest } from '../../src/shared/eip712/index.js';
import { measureGates, type GateResult } from './measure.js';

const KEY_HEX = '0xb9a4f30fc15099bf03e114352100efa3afd93462563608a3236453c331ce85a5';
const ACCOUNT = '0x5ec6b8eef87319d7f9035260faee6f8ee2405ae1000000000000000000000000';

function legs(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    market: ['BTC', 'ETH', 'SOL'][i % 3]!,
    side: i % 2 ? 'SELL' : 'BUY',
    size: `0.${(i % 97) + 1}`,
    limit_price: String(60000 + (i % 500) * 0.5),
    order_type: 'LIMIT',
    time_in_force: 'GTC',
    reduce_only: false,
    leverage: 10,
    nonce: String(1763700002000 + i),
  }));
}

async function timeAsync(iterations: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn(i);
  return ((performance.now() - start) * 1000) / iterations;
}

function time(iterations: number, fn: (i: number) => unknown): number {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) fn(i);
  return ((performance.now() - start) * 1000) / iterations;
}

export async function runSigningBench(iterations = 600, rounds = 15): Promise<GateResult[]> {
  const key = PrivateKey.fromHex(KEY_HEX);
  const raw = Uint8Array.from(Buffer.from(KEY_HEX.slice(2), 'hex'));
  const wallet = new Wallet(KEY_HEX);
  const pool = legs(iterations);
  const digests = pool.map((_, i) => {
    const d = new Uint8Array(32);
    d[0] = i & 0xff;
    d[1] = (i >> 8) & 0xff;
    return d;
  });
  const appSign = (i: number) => {
    const td = orderTypedData(ACCOUNT, pool[i % pool.length]!, 'mainnet');
    return key.signDigest(typedDataDigest('Order', td.domain.chainId, td.message));
  };
  const bareSign = (i: number) => secp256k1.sign(digests[i % digests.length]!, raw, { lowS: true });
  const ethersSign = (i: number) => {
    const td = orderTypedData(ACCOUNT, pool[i % pool.length]!, 'mainnet');
    const { EIP712Domain: _domain, ...types } = td.types;
    return wallet.signTypedData(td.domain, types, td.message);
  };
  // Warm up every path so the JIT has compiled each before timing.
  time(200, appSign);
  time(200, bareSign);
  await timeAsync(100, ethersSign);
  const us = (x: number) => `${x.toFixed(1)}us`;
  return measureGates({
    rounds,
    sides: {
      bare: () => time(iterations, bareSign),
      app: () => time(iterations, appSign),
      ethers: () => timeAsync(Math.ceil(iterations / 3), ethersSign),
    },
    gates: [
      { name: 'Order leg signing / bare secp256k1 signature', of: (r) => r.app / r.bare, target: { op: '<=', value: 1.35 }, detail: (m) => `${us(m.app)} vs ${us(m.bare)}` },
      { name: 'ethers signTypedData / app Order leg signing', of: (r) => r.ethers / r.app, target: { op: '>=', value: 1.5 }, detail: (m) => `${us(m.ethers)} vs ${us(m.app)}` },
    ],
  });
}

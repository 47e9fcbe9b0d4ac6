import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Contract, Wallet, isError, type TransactionRequest } from 'ethers';
import { NATIVE_TOKEN, defaultCompanionConfig, type BridgeOrder } from '../../../src/sim/companion/index.js';
import { alice, bob, qs, startHarness, type Harness } from './helpers.js';

const cfg = defaultCompanionConfig();
const addr = (chain: string, symbol: string) => {
  const t = cfg.tokens.find((x) => x.chain === chain && x.symbol === symbol);
  if (!t) throw new Error(`no ${symbol} on ${chain}`);
  return t.address;
};
const ARB_USDC = addr('arbitrum', 'USDC');
const CORE_USDC = addr('venue_core', 'USDC');
const ARB_ROUTER = cfg.chains.find((c) => c.id === 'arbitrum')?.bridgeRouter ?? '';
const ETH = 10n ** 18n;

let h: Harness;
let settled: BridgeOrder[];
beforeEach(async () => {
  settled = [];
  h = await startHarness(undefined, (o) => settled.push(structuredClone(o)));
});
afterEach(async () => {
  await h.close();
});

/** Quote (with sender and receiver), encode the best route, return the transaction to sign. */
async function encoded(p: Record<string, string>, quoteIdx = 0): Promise<{ tx: { to: string; value: string; data: string }; amountOut: string; protocol: string }> {
  const q = await h.get(`${h.bridgeUrl}/quote?${qs(p)}`);
  expect(q.status).toBe(200);
  const e = await h.post(`${h.bridgeUrl}/encode`, { requestId: q.body.requestId, quoteIdx });
  expect(e.status).toBe(200);
  return { tx: e.body.data, amountOut: q.body.data[quoteIdx].amountOut, protocol: q.body.data[quoteIdx].crossProtocol.id };
}

const ethToBase = { fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN, toToken: NATIVE_TOKEN, amount: ETH.toString(), protocols: 'rail_fast', sender: alice.address, receiver: bob.address, source: 'perpsdesk' };

async function orders(srcTx: string): Promise<{ state: string; [k: string]: unknown }[]> {
  const r = await h.get(`${h.bridgeUrl}/bridge/orders?src_tx=${srcTx}`);
  expect(r.status).toBe(200);
  return r.body.orders;
}

async function sendBridge(wallet: Wallet, tx: TransactionRequest): Promise<string> {
  const sent = await wallet.sendTransaction(tx);
  const receipt = await sent.wait();
  expect(receipt?.status).toBe(1);
  return sent.hash;
}

describe('encode -> sign -> send -> track', () => {
  it('native ETH arbitrum -> base reaches done, delivers on base and credits points', async () => {
    await h.fund('arbitrum', alice.address, 2n * ETH);
    const { tx, amountOut } = await encoded(ethToBase);
    const arb = h.provider('arbitrum');
    const wallet = alice.connect(arb);
    const before = await arb.getBalance(alice.address);
    const hash = await sendBridge(wallet, tx);

    const receipt = await arb.getTransactionReceipt(hash);
    expect(receipt?.to).toBe(ARB_ROUTER);
    const fee = (receipt?.gasUsed ?? 0n) * (receipt?.gasPrice ?? 0n);
    expect(await arb.getBalance(alice.address)).toBe(before - ETH - fee);

    const pending = await orders(hash);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ state: 'pending', src_tx: hash, src_chain: 'arbitrum', dst_chain: 'base', amount_in: ETH.toString(), amount_out: amountOut, sender: alice.address, receiver: bob.address, protocol: 'rail_fast' });

    h.clock.advance(10_000);
    expect((await orders(hash))[0]?.state).toBe('pending');
    h.clock.advance(60_000);
    const done = (await orders(hash))[0];
    expect(done?.state).toBe('done');
    expect(done?.dst_tx).toMatch(/^0x[0-9a-f]{64}$/);

    const baseProvider = h.provider('base');
    expect(await baseProvider.getBalance(bob.address)).toBe(BigInt(amountOut));
    expect(settled.map((o) => o.state)).toEqual(['done']);

    const nowSec = Math.floor(h.clock.now() / 1000);
    const lb = await h.get(`${h.platformUrl}/v1/point/leaderboard?${qs({ user: alice.address, from: String(nowSec - 3600), to: String(nowSec) })}`);
    expect(lb.status).toBe(200);
    expect(lb.body.total.point).toBeGreaterThan(0);
    expect(lb.body.total.pointPartnerBonuses.perpsdesk).toBeGreaterThan(0);
  });

  it('the next order can be forced to refunded (refund lands on venue_core)', async () => {
    await h.fund('arbitrum', alice.address, 2n * ETH);
    expect((await h.post(`${h.server.origin}/sim/companion/bridge/outcome`, { next: true, state: 'refunded' })).status).toBe(200);
    const { tx } = await encoded(ethToBase);
    const hash = await sendBridge(alice.connect(h.provider('arbitrum')), tx);
    expect((await orders(hash))[0]?.state).toBe('pending');
    h.clock.advance(120_000);
    const o = (await orders(hash))[0];
    expect(o?.state).toBe('refunded');
    expect(o?.refund).toMatchObject({ chain: 'venue_core' });
    expect(await h.provider('base').getBalance(bob.address)).toBe(0n);
    // Refunds credit no points.
    const lb = await h.get(`${h.platformUrl}/v1/point/leaderboard?${qs({ user: alice.address, from: '0', to: String(Math.floor(h.clock.now() / 1000)) })}`);
    expect(lb.body.total.point).toBe(0);
  });

  it('a given src_tx can be forced to failed while pending; a settled order cannot be forced', async () => {
    await h.fund('arbitrum', alice.address, 2n * ETH);
    const { tx } = await encoded(ethToBase);
    const hash = await sendBridge(alice.connect(h.provider('arbitrum')), tx);
    const force = await h.post(`${h.server.origin}/sim/companion/bridge/outcome`, { src_tx: hash, state: 'failed' });
    expect(force.status).toBe(200);
    h.clock.advance(120_000);
    const o = (await orders(hash))[0];
    expect(o?.state).toBe('failed');
    expect(typeof o?.failure_reason).toBe('string');
    const again = await h.post(`${h.server.origin}/sim/companion/bridge/outcome`, { src_tx: hash, state: 'done' });
    expect(again.status).toBe(409);
    expect((await orders(hash))[0]?.state).toBe('failed');
  });

  it('control rejects malformed outcome bodies', async () => {
    const url = `${h.server.origin}/sim/companion/bridge/outcome`;
    expect((await h.post(url, { next: true, state: 'pending' })).status).toBe(400);
    expect((await h.post(url, { src_tx: '0x12', state: 'done' })).status).toBe(400);
    expect((await h.post(url, { state: 'done' })).status).toBe(400);
  });

  it('ERC-20 USDC arbitrum -> venue_core needs an approve, then settles', async () => {
    await h.fund('arbitrum', alice.address, ETH / 10n);
    await h.fund('arbitrum', alice.address, 1_000_000_000n, ARB_USDC);
    const arb = h.provider('arbitrum');
    const wallet = alice.connect(arb);
    const { tx, amountOut, protocol } = await encoded({ fromChain: 'arbitrum', toChain: 'venue_core', fromToken: ARB_USDC, toToken: CORE_USDC, amount: '250000000', protocols: 'core_bridge', sender: alice.address, receiver: alice.address });
    expect(protocol).toBe('core_bridge');
    expect(tx.value).toBe('0');

    // Without an allowance the wallet's gas estimate reverts, as on a real chain.
    await expect(wallet.sendTransaction(tx)).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION') && /insufficient allowance/.test(String((e as { reason?: string }).reason)));

    const usdc = new Contract(ARB_USDC, ['function approve(address,uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)', 'function allowance(address,address) view returns (uint256)'], wallet);
    const approve = await (usdc.getFunction('approve'))(tx.to, 250_000_000n);
    await approve.wait();
    expect(await usdc.getFunction('allowance')(alice.address, tx.to)).toBe(250_000_000n);

    const hash = await sendBridge(wallet, tx);
    expect(await usdc.getFunction('balanceOf')(alice.address)).toBe(750_000_000n);
    expect(await usdc.getFunction('allowance')(alice.address, tx.to)).toBe(0n);
    h.clock.advance(120_000);
    const o = (await orders(hash))[0];
    expect(o).toMatchObject({ state: 'done', dst_chain: 'venue_core', dst_token: CORE_USDC, amount_out: amountOut });
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ toChain: 'venue_core', amountOut, receiver: alice.address.toLowerCase() });
  });
});

describe('the router accepts only what /encode produced, once', () => {
  it('a second send of the same encoded request reverts and creates no order', async () => {
    await h.fund('arbitrum', alice.address, 5n * ETH);
    const { tx } = await encoded(ethToBase);
    const wallet = alice.connect(h.provider('arbitrum'));
    await sendBridge(wallet, tx);
    await expect(wallet.sendTransaction(tx)).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION') && /already used/.test(String((e as { reason?: string }).reason)));
    // Forced past the estimate with an explicit gas limit, it is mined and reverts.
    const sent = await wallet.sendTransaction({ ...tx, gasLimit: 300_000n });
    await expect(sent.wait()).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION'));
    const receipt = await h.provider('arbitrum').getTransactionReceipt(sent.hash);
    expect(receipt?.status).toBe(0);
    expect(await orders(sent.hash)).toEqual([]);
  });

  it('edited calldata or a wrong value reverts', async () => {
    await h.fund('arbitrum', alice.address, 5n * ETH);
    const { tx } = await encoded(ethToBase);
    const wallet = alice.connect(h.provider('arbitrum'));
    const edited = tx.data.slice(0, -2) + (tx.data.endsWith('00') ? '01' : '00');
    await expect(wallet.sendTransaction({ ...tx, data: edited })).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION') && /does not match/.test(String((e as { reason?: string }).reason)));
    await expect(wallet.sendTransaction({ ...tx, value: 1n })).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION') && /wrong value/.test(String((e as { reason?: string }).reason)));
  });

  it('the encoded transaction is for the source chain only', async () => {
    await h.fund('base', alice.address, 5n * ETH);
    const { tx } = await encoded(ethToBase);
    // Same router address would not exist on base; the simulated base router does not know the request.
    const wallet = alice.connect(h.provider('base'));
    const baseRouter = cfg.chains.find((c) => c.id === 'base')?.bridgeRouter ?? '';
    await expect(wallet.sendTransaction({ ...tx, to: baseRouter })).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION') && /unknown bridge request/.test(String((e as { reason?: string }).reason)));
  });

  it('an unfunded sender cannot send', async () => {
    const { tx } = await encoded(ethToBase);
    const wallet = new Wallet('0x' + '33'.repeat(32), h.provider('arbitrum'));
    await expect(wallet.sendTransaction(tx)).rejects.toSatisfy((e: unknown) => isError(e, 'INSUFFICIENT_FUNDS'));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, Transaction, Wallet, isError } from 'ethers';
import { defaultCompanionConfig } from '../../../src/sim/companion/index.js';
import { alice, bob, startHarness, type Harness, type Json } from './helpers.js';

const cfg = defaultCompanionConfig();
const ETH = 10n ** 18n;
const ARB_USDC = cfg.tokens.find((t) => t.chain === 'arbitrum' && t.symbol === 'USDC')?.address ?? '';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rpc: { balances: [{ chain: 'optimism', address: bob.address, amount: '7000000000000000000' }] } });
});
afterAll(async () => {
  await h.close();
});

async function rpc(chain: string, method: string, params: unknown[] = [], id: number | string = 1) {
  const r = await h.post(h.rpcUrl(chain), { jsonrpc: '2.0', id, method, params });
  return r.body as { jsonrpc: string; id: unknown; result?: Json; error?: { code: number; message: string; data?: string } };
}

describe('chain identity', () => {
  it.each(cfg.chains.filter((c) => c.evmChainId !== null).map((c) => [c.id, c.evmChainId] as const))('%s answers eth_chainId %i and net_version', async (chain, id) => {
    expect((await rpc(chain, 'eth_chainId')).result).toBe('0x' + (id ?? 0).toString(16));
    expect((await rpc(chain, 'net_version')).result).toBe(String(id));
  });

  it('realistic chain ids', () => {
    const ids = Object.fromEntries(cfg.chains.map((c) => [c.id, c.evmChainId]));
    expect(ids).toMatchObject({ ethereum: 1, arbitrum: 42161, optimism: 10, base: 8453, venue_evm: 999, venue_core: null });
  });

  it('ethers detects the network', async () => {
    const net = await h.provider('base').getNetwork();
    expect(net.chainId).toBe(8453n);
  });
});

describe('JSON-RPC errors in the standard shape', () => {
  it('404 for an unknown or non-EVM chain', async () => {
    for (const chain of ['solana', 'venue_core']) {
      const r = await h.post(h.rpcUrl(chain), { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe(-32601);
    }
  });

  it('405 for GET', async () => {
    const r = await h.get(h.rpcUrl('arbitrum'));
    expect(r.status).toBe(405);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('-32700 for a body that is not JSON', async () => {
    const r = await h.post(h.rpcUrl('arbitrum'), '{"jsonrpc":');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('-32600 for an invalid request and an empty batch', async () => {
    expect((await h.post(h.rpcUrl('arbitrum'), { id: 3, method: 'eth_chainId' })).body).toMatchObject({ id: 3, error: { code: -32600 } });
    expect((await h.post(h.rpcUrl('arbitrum'), [])).body).toMatchObject({ error: { code: -32600 } });
  });

  it('-32601 for an unknown method, echoing the id', async () => {
    expect(await rpc('arbitrum', 'eth_mine', [], 'abc')).toEqual({ jsonrpc: '2.0', id: 'abc', error: { code: -32601, message: 'the method eth_mine does not exist/is not available' } });
  });

  it('-32602 for invalid params', async () => {
    expect((await rpc('arbitrum', 'eth_getBalance', ['0x12', 'latest'])).error?.code).toBe(-32602);
    expect((await rpc('arbitrum', 'eth_getBlockByNumber', ['tomorrow', false])).error?.code).toBe(-32602);
    expect((await rpc('arbitrum', 'eth_sendRawTransaction', ['nothex'])).error?.code).toBe(-32602);
    expect((await rpc('arbitrum', 'eth_getTransactionByHash', ['0x12'])).error?.code).toBe(-32602);
  });

  it('answers batches item by item', async () => {
    const r = await h.post(h.rpcUrl('arbitrum'), [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'nope', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'eth_gasPrice' },
    ]);
    expect(r.body).toHaveLength(3);
    expect(r.body[0]).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa4b1' });
    expect(r.body[1].error.code).toBe(-32601);
    expect(r.body[2].result).toBe('0x989680');
  });
});

describe('balances, blocks and fees', () => {
  it('serves configured balances and faucet funding', async () => {
    const op = h.provider('optimism');
    expect(await op.getBalance(bob.address)).toBe(7n * ETH);
    expect(await op.getBalance(alice.address)).toBe(0n);
    await h.fund('optimism', alice.address, 3n * ETH);
    await h.fund('optimism', alice.address, 1n);
    expect(await op.getBalance(alice.address)).toBe(3n * ETH + 1n);
  });

  it('the faucet rejects bad input', async () => {
    const url = `${h.server.origin}/sim/companion/rpc/fund`;
    expect((await h.post(url, { chain: 'venue_core', address: alice.address, amount: '1' })).status).toBe(400);
    expect((await h.post(url, { chain: 'arbitrum', address: 'alice', amount: '1' })).status).toBe(400);
    expect((await h.post(url, { chain: 'arbitrum', address: alice.address, amount: '1.5' })).status).toBe(400);
    expect((await h.post(url, { chain: 'arbitrum', address: alice.address, amount: '1', token: bob.address })).status).toBe(400);
  });

  it('the head advances with SimClock time at the chain block time', async () => {
    const arb = h.provider('arbitrum');
    // Transfers of other tests mine blocks, which can run ahead of the head time makes: time catches up
    // first (a block time, 250 ms, at a time) until one more block time adds one block.
    for (let i = 0, last = await arb.getBlockNumber(); i < 2_000; i++) {
      h.clock.advance(250);
      const now = await arb.getBlockNumber();
      if (now === last + 1) break;
      last = now;
    }
    const before = await arb.getBlockNumber();
    h.clock.advance(10_000);
    expect(await arb.getBlockNumber()).toBe(before + 40);
    const block = await arb.getBlock('latest');
    expect(block?.number).toBe(before + 40);
    expect(block?.baseFeePerGas).toBe(10_000_000n);
    const parent = await arb.getBlock(before + 39);
    expect(block?.parentHash).toBe(parent?.hash);
    expect(await arb.getBlock(before + 1000)).toBeNull();
  });

  it('eth_feeHistory and fee data', async () => {
    const r = await rpc('base', 'eth_feeHistory', ['0x4', 'latest', [25, 75]]);
    expect(r.result.baseFeePerGas).toHaveLength(5);
    expect(r.result.gasUsedRatio).toHaveLength(4);
    expect(r.result.reward).toHaveLength(4);
    expect(r.result.reward[0]).toHaveLength(2);
    const fee = await h.provider('base').getFeeData();
    expect(fee.gasPrice).toBe(6_000_000n);
    expect(fee.maxPriorityFeePerGas).toBe(1_000_000n);
    expect(fee.maxFeePerGas).toBe(11_000_000n);
  });
});

describe('transactions', () => {
  it('a plain transfer through ethers: nonce, receipt, transaction and block', async () => {
    await h.fund('base', alice.address, ETH);
    const base = h.provider('base');
    const wallet = alice.connect(base);
    expect(await base.getTransactionCount(alice.address)).toBe(0);
    const sent = await wallet.sendTransaction({ to: bob.address, value: ETH / 4n });
    const receipt = await sent.wait();
    expect(receipt?.status).toBe(1);
    expect(receipt?.gasUsed).toBe(21_000n);
    expect(await base.getTransactionCount(alice.address)).toBe(1);
    expect(await base.getBalance(bob.address)).toBe(ETH / 4n);
    expect(await base.getBalance(alice.address)).toBe(ETH - ETH / 4n - 21_000n * (receipt?.gasPrice ?? 0n));
    const tx = await base.getTransaction(sent.hash);
    expect(tx).toMatchObject({ hash: sent.hash, from: alice.address, to: bob.address, value: ETH / 4n, nonce: 0, blockNumber: receipt?.blockNumber, chainId: 8453n });
    const block = await base.getBlock(receipt?.blockNumber ?? 0);
    expect(block?.transactions).toEqual([sent.hash]);
    expect(await base.getTransactionReceipt('0x' + '00'.repeat(32))).toBeNull();
    expect(await base.getTransaction('0x' + '00'.repeat(32))).toBeNull();
  });

  it('legacy (type 0) transactions work too', async () => {
    await h.fund('ethereum', alice.address, ETH);
    const wallet = alice.connect(h.provider('ethereum'));
    const sent = await wallet.sendTransaction({ to: bob.address, value: 1n, type: 0, gasPrice: 3_000_000_000n });
    expect((await sent.wait())?.status).toBe(1);
    expect((await h.provider('ethereum').getTransaction(sent.hash))?.type).toBe(0);
  });

  it('refuses replays, stale and future nonces, other chain ids and unsigned transactions', async () => {
    await h.fund('unichain', alice.address, ETH);
    const uni = h.provider('unichain');
    const wallet = alice.connect(uni);
    const base = { to: bob.address, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10_000_000n, maxPriorityFeePerGas: 100_000n, chainId: 130n, type: 2 };
    const raw = await wallet.signTransaction({ ...base, nonce: 0 });
    const first = await rpc('unichain', 'eth_sendRawTransaction', [raw]);
    expect(first.result).toBe(Transaction.from(raw).hash);
    const replay = await rpc('unichain', 'eth_sendRawTransaction', [raw]);
    expect(replay.error).toEqual({ code: -32000, message: 'already known' });

    const stale = await alice.signTransaction({ ...base, nonce: 0, value: 2n });
    await expect(uni.broadcastTransaction(stale)).rejects.toSatisfy((e: unknown) => isError(e, 'NONCE_EXPIRED'));
    const future = await alice.signTransaction({ ...base, nonce: 5 });
    expect((await rpc('unichain', 'eth_sendRawTransaction', [future])).error?.message).toMatch(/^nonce too high/);
    const otherChain = await alice.signTransaction({ ...base, nonce: 1, chainId: 1n });
    expect((await rpc('unichain', 'eth_sendRawTransaction', [otherChain])).error?.message).toMatch(/^invalid chain id for signer/);
    const unsigned = Transaction.from({ ...base, nonce: 1 }).unsignedSerialized;
    expect((await rpc('unichain', 'eth_sendRawTransaction', [unsigned])).error?.message).toMatch(/not signed/);
    const cheap = await alice.signTransaction({ ...base, nonce: 1, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
    expect((await rpc('unichain', 'eth_sendRawTransaction', [cheap])).error?.message).toMatch(/max fee per gas less than block base fee/);
    const lowGas = await alice.signTransaction({ ...base, nonce: 1, gasLimit: 20_000n });
    expect((await rpc('unichain', 'eth_sendRawTransaction', [lowGas])).error?.message).toMatch(/intrinsic gas too low/);
    expect((await rpc('unichain', 'eth_sendRawTransaction', ['0x02ff'])).error?.code).toBe(-32000);
    // None of the refused ones consumed the nonce.
    expect(await uni.getTransactionCount(alice.address)).toBe(1);
  });

  it('insufficient funds maps to ethers INSUFFICIENT_FUNDS', async () => {
    const poor = new Wallet('0x' + '44'.repeat(32), h.provider('arbitrum'));
    await expect(poor.sendTransaction({ to: bob.address, value: 1n, gasLimit: 21_000n })).rejects.toSatisfy((e: unknown) => isError(e, 'INSUFFICIENT_FUNDS'));
    await expect(poor.sendTransaction({ to: bob.address, value: 1n })).rejects.toSatisfy((e: unknown) => isError(e, 'INSUFFICIENT_FUNDS'));
  });
});

describe('ERC-20 contracts', () => {
  it('reads and transfers configured tokens', async () => {
    await h.fund('arbitrum', alice.address, ETH);
    await h.fund('arbitrum', alice.address, 5_000_000n, ARB_USDC);
    const arb = h.provider('arbitrum');
    const usdc = new Contract(ARB_USDC, ['function balanceOf(address) view returns (uint256)', 'function decimals() view returns (uint8)', 'function symbol() view returns (string)', 'function transfer(address,uint256) returns (bool)'], alice.connect(arb));
    expect(await usdc.getFunction('decimals')()).toBe(6n);
    expect(await usdc.getFunction('symbol')()).toBe('USDC');
    expect(await usdc.getFunction('balanceOf')(alice.address)).toBe(5_000_000n);
    await (await usdc.getFunction('transfer')(bob.address, 2_000_000n)).wait();
    expect(await usdc.getFunction('balanceOf')(bob.address)).toBe(2_000_000n);
    await expect(usdc.getFunction('transfer')(bob.address, 9_000_000n)).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION'));
    expect(await arb.getCode(ARB_USDC)).not.toBe('0x');
    expect(await arb.getCode(bob.address)).toBe('0x');
  });

  it('eth_call to an address without code answers 0x', async () => {
    expect((await rpc('arbitrum', 'eth_call', [{ to: bob.address, data: '0x70a08231' }, 'latest'])).result).toBe('0x');
  });
});

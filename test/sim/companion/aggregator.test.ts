import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, isError } from 'ethers';
import { NATIVE_TOKEN, defaultCompanionConfig } from '../../../src/sim/companion/index.js';
import { alice, bob, qs, startHarness, type Harness } from './helpers.js';

const cfg = defaultCompanionConfig();
const tok = (chain: string, symbol: string) => cfg.tokens.find((t) => t.chain === chain && t.symbol === symbol)?.address ?? '';
const EVM_USDC = tok('venue_evm', 'USDC');
const WHYPE = tok('venue_evm', 'WHYPE');
const ROUTER = cfg.chains.find((c) => c.id === 'venue_evm')?.aggregatorRouter ?? '';
const E18 = 10n ** 18n;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const swapQ = { tokenIn: NATIVE_TOKEN, tokenOut: EVM_USDC, amountIn: (10n * E18).toString(), slippage: '0.005', receiver: bob.address, source: 'perpsdesk' };
const swap = (chain: string, p: Record<string, string | undefined>) => h.get(`${h.aggregatorUrl}/${chain}/swap?${qs(p)}`);

describe('GET /<chain>/swap validation', () => {
  it('400 for an unknown chain and for chains without the aggregator', async () => {
    for (const chain of ['solana', 'venue_core', 'flare', 'Venue_evm']) {
      const r = await swap(chain, swapQ);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(`chain not found: ${chain}`);
    }
  });

  it.each(['tokenIn', 'tokenOut', 'amountIn', 'slippage', 'receiver'])('400 naming %s when it is missing', async (name) => {
    const r = await swap('venue_evm', { ...swapQ, [name]: undefined });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `missing required parameter: ${name}` });
  });

  it.each([
    ['tokenIn', 'HYPE', /invalid tokenIn/],
    ['tokenIn', tok('arbitrum', 'USDC'), /invalid tokenIn: token not found on venue_evm/],
    ['tokenOut', NATIVE_TOKEN, /invalid tokenOut: must differ from tokenIn/],
    ['amountIn', '1.5', /invalid amountIn/],
    ['amountIn', '0', /invalid amountIn/],
    ['amountIn', '1e18', /invalid amountIn/],
    ['slippage', '50', /invalid slippage/],
    ['slippage', '-0.01', /invalid slippage/],
    ['slippage', '0.5%', /invalid slippage/],
    ['receiver', 'bob', /invalid receiver/],
    ['source', '', /invalid source/],
  ])('400 for %s=%s', async (name, value, msg) => {
    const r = await swap('venue_evm', { ...swapQ, [name]: value });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(msg);
  });

  it('other paths and methods fall through to 404', async () => {
    expect((await h.get(`${h.aggregatorUrl}/venue_evm/quote`)).status).toBe(404);
    expect((await h.post(`${h.aggregatorUrl}/venue_evm/swap`, {})).status).toBe(404);
  });
});

describe('GET /<chain>/swap quote', () => {
  it('quotes 10 HYPE to USDC with a ready transaction', async () => {
    const r = await swap('venue_evm', swapQ);
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b).toMatchObject({ chain: 'venue_evm', chainId: 999, amountIn: swapQ.amountIn, slippage: '0.005', source: 'perpsdesk', receiver: bob.address, feeBps: 5 });
    expect(b.tokenIn).toEqual({ address: NATIVE_TOKEN, symbol: 'HYPE', decimals: 18 });
    expect(b.tokenOut).toEqual({ address: EVM_USDC, symbol: 'USDC', decimals: 6 });
    const out = BigInt(b.amountOut);
    // 400 USD less 5 bps and a little impact, in 6 decimals.
    expect(out).toBeGreaterThan(399_000_000n);
    expect(out).toBeLessThan(400_000_000n);
    expect(BigInt(b.minAmountOut)).toBe((out * 995n) / 1000n);
    expect(b.tx).toEqual({ to: ROUTER, data: expect.stringMatching(/^0x[0-9a-f]+$/), value: swapQ.amountIn });
    expect(b.deadline).toBe(Math.floor(h.clock.now() / 1000) + 1200);
  });

  it('wraps 1:1 without fee', async () => {
    const r = await swap('venue_evm', { ...swapQ, tokenOut: WHYPE });
    expect(r.body.amountOut).toBe(swapQ.amountIn);
    expect(r.body.feeBps).toBe(0);
  });

  it('an ERC-20 input sends value 0; source is optional', async () => {
    const r = await swap('venue_evm', { ...swapQ, tokenIn: EVM_USDC, tokenOut: NATIVE_TOKEN, amountIn: '100000000', source: undefined });
    expect(r.status).toBe(200);
    expect(r.body.tx.value).toBe('0');
    expect(r.body.source).toBeNull();
  });
});

describe('executing a swap', () => {
  it('executes through ethers, delivers amountOut and credits points with the partner bonus', async () => {
    await h.fund('venue_evm', alice.address, 30n * E18);
    const provider = h.provider('venue_evm');
    const wallet = alice.connect(provider);
    const q = (await swap('venue_evm', swapQ)).body;
    const sent = await wallet.sendTransaction(q.tx);
    expect((await sent.wait())?.status).toBe(1);
    const usdc = new Contract(EVM_USDC, ['function balanceOf(address) view returns (uint256)'], provider);
    expect(await usdc.getFunction('balanceOf')(bob.address)).toBe(BigInt(q.amountOut));

    const now = Math.floor(h.clock.now() / 1000);
    const lb = await h.get(`${h.platformUrl}/v1/point/leaderboard?${qs({ user: alice.address, from: String(now - 10), to: String(now) })}`);
    // Same chain, so no cross-chain multiplier: points = the smaller USD side.
    expect(lb.body.total.point).toBeCloseTo(Number(q.amountOutUsd), 1);
    expect(lb.body.total.pointPartnerBonuses.perpsdesk).toBeCloseTo(Number(q.amountOutUsd) / 10, 1);
    expect(lb.body.history[0]).toMatchObject({ kind: 'swap', ref: sent.hash });

    // The same quote cannot run twice.
    await expect(wallet.sendTransaction(q.tx)).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION') && /already executed/.test(String((e as { reason?: string }).reason)));
  });

  it('reverts after the deadline', async () => {
    await h.fund('venue_evm', alice.address, 20n * E18);
    const q = (await swap('venue_evm', swapQ)).body;
    h.clock.advance(1_201_000);
    await expect(alice.connect(h.provider('venue_evm')).sendTransaction(q.tx)).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION') && /deadline passed/.test(String((e as { reason?: string }).reason)));
  });

  it('an ERC-20 swap needs an approve; without a partner code it earns base points only', async () => {
    await h.fund('venue_evm', bob.address, E18);
    await h.fund('venue_evm', bob.address, 200_000_000n, EVM_USDC);
    const provider = h.provider('venue_evm');
    const wallet = bob.connect(provider);
    const q = (await swap('venue_evm', { ...swapQ, tokenIn: EVM_USDC, tokenOut: NATIVE_TOKEN, amountIn: '100000000', receiver: bob.address, source: undefined })).body;
    await expect(wallet.sendTransaction(q.tx)).rejects.toSatisfy((e: unknown) => isError(e, 'CALL_EXCEPTION'));
    const usdc = new Contract(EVM_USDC, ['function approve(address,uint256) returns (bool)'], wallet);
    await (await usdc.getFunction('approve')(ROUTER, 100_000_000n)).wait();
    const before = await provider.getBalance(bob.address);
    const sent = await wallet.sendTransaction(q.tx);
    const receipt = await sent.wait();
    expect(await provider.getBalance(bob.address)).toBe(before + BigInt(q.amountOut) - (receipt?.gasUsed ?? 0n) * (receipt?.gasPrice ?? 0n));
    const now = Math.floor(h.clock.now() / 1000);
    const lb = await h.get(`${h.platformUrl}/v1/point/leaderboard?${qs({ user: bob.address, from: String(now - 10), to: String(now) })}`);
    expect(lb.body.total.point).toBeGreaterThan(0);
    expect(lb.body.total.pointPartnerBonuses).toEqual({});
  });
});

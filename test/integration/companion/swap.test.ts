/**
 * Aggregator swaps against the simulator: quoted with the partner code, signed by an env transaction
 * signer, sent through the sim's JSON-RPC; an ERC-20 sold needs an approve first; points are credited with
 * the partner bonus; the aggregator's `chain not found` and the input rules.
 */
import { JsonRpcProvider, Contract } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregatorChainNotFoundError } from '../../../src/main/api/companion/index.js';
import { OperationError, ValidationError } from '../../../src/main/services/errors.js';
import { creditedPoints } from '../../../src/main/services/points/index.js';
import { executeSwap, quoteSwap, validateSwapInput } from '../../../src/main/services/swap/index.js';
import { CompanionWorld, ETH, routerOf, tokenOf } from './companionWorld.js';

let w: CompanionWorld;
beforeAll(async () => {
  w = await CompanionWorld.boot('companion-swap');
});
afterAll(async () => {
  await w?.stop();
});

const ERC20 = ['function balanceOf(address) view returns (uint256)'];

describe('aggregator swap', () => {
  it('native HYPE -> USDC on venue_evm: quoted with the partner code, signed, sent, delivered, points credited', async () => {
    const ctx = w.context();
    const { wallet, signer } = w.envSigner();
    await w.fund('venue_evm', wallet.address, 10n * ETH);
    const start = Math.floor(w.sim.clock.now() / 1000);
    const phases: string[] = [];
    const r = await executeSwap(ctx, {
      chain: 'venue_evm',
      tokenIn: 'native',
      tokenOut: tokenOf('venue_evm', 'USDC'),
      amountIn: (2n * ETH).toString(),
      slippage: '0.005',
      source: 'perpsdesk',
      signer,
      pointsUsd: { src: '80', dst: '79.9' },
      onProgress: (p) => phases.push('step' in p ? `${p.tx}:${p.phase}` : p.phase),
    });
    expect(phases).toEqual(['estimating-points', 'quoting', 'main:signing', 'main:sending', 'main:confirming']);
    const sent = w.requests.filter((x) => x.path.startsWith('/aggregator/v1/venue_evm/swap')).at(-1);
    expect(sent?.path).toContain('source=perpsdesk');
    expect(sent?.path).toContain('slippage=0.005');
    expect(r.transaction.receipt.status).toBe('success');
    expect(r.transaction.approval).toBeNull();
    expect(r.quote.tx.to).toBe(routerOf('venue_evm', 'aggregator'));
    expect(r.points?.partnerBonus).toBeGreaterThan(0);

    const provider = new JsonRpcProvider(`${w.origin}/rpc/venue_evm`, undefined, { cacheTimeout: -1, staticNetwork: true });
    const usdc = new Contract(tokenOf('venue_evm', 'USDC'), ERC20, provider);
    expect(await usdc.getFunction('balanceOf')(wallet.address)).toBe(BigInt(r.quote.amountOut!));
    provider.destroy();

    const credited = await creditedPoints(ctx, { user: wallet.address, from: start, to: Math.floor(w.sim.clock.now() / 1000), partnerCode: 'perpsdesk' });
    expect(credited.point).toBeGreaterThan(0);
    expect(credited.partnerBonus).toBeGreaterThan(0);
  });

  it('selling an ERC-20 approves the swap target first, for exactly the amount', async () => {
    const ctx = w.context();
    const { wallet, signer } = w.envSigner();
    const usdc = tokenOf('arbitrum', 'USDC');
    await w.fund('arbitrum', wallet.address, ETH / 100n);
    await w.fund('arbitrum', wallet.address, 1_000_000_000n, usdc);
    const r = await executeSwap(ctx, { chain: 'arbitrum', tokenIn: usdc, tokenOut: 'native', amountIn: '400000000', slippage: '0.01', source: 'alpha', signer });
    expect(r.transaction.approval).toMatchObject({ token: usdc, amount: '400000000', spender: routerOf('arbitrum', 'aggregator') });
    expect(r.transaction.receipt.status).toBe('success');
    const provider = new JsonRpcProvider(`${w.origin}/rpc/arbitrum`, undefined, { cacheTimeout: -1, staticNetwork: true });
    expect(await new Contract(usdc, ERC20, provider).getFunction('balanceOf')(wallet.address)).toBe(600_000_000n);
    provider.destroy();
  });

  it("a chain the aggregator does not serve is its `chain not found`; bad inputs never leave the app", async () => {
    const ctx = w.context();
    const receiver = w.envSigner().signer.address;
    const err = await quoteSwap(ctx, validateSwapInput({ chain: 'flare', tokenIn: 'native', tokenOut: tokenOf('flare', 'USDT0'), amountIn: '1000', slippage: '0.01', receiver, source: 'perpsdesk' })).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).code).toBe('CHAIN_NOT_FOUND');
    expect((err as OperationError).cause).toBeInstanceOf(AggregatorChainNotFoundError);

    const base = { chain: 'arbitrum', tokenIn: 'native', tokenOut: tokenOf('arbitrum', 'USDC'), amountIn: '1000', slippage: '0.01', receiver, source: 'perpsdesk' };
    expect(() => validateSwapInput({ ...base, slippage: '1' })).toThrow(ValidationError);
    expect(() => validateSwapInput({ ...base, slippage: '50' })).toThrow(/between 0 and 1/);
    expect(() => validateSwapInput({ ...base, chain: 'venue_core' })).toThrow(ValidationError);
    expect(() => validateSwapInput({ ...base, tokenOut: 'native' })).toThrow(/differ/);
    expect(() => validateSwapInput({ ...base, source: '' })).toThrow(ValidationError);
  });
});

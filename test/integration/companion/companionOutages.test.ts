/**
 * The companion services misbehaving, against the simulator over loopback: what a user relies on when the
 * points or aggregator service fails, or when a service URL is changed in Settings.
 *   - 5xx and dropped connections are retried with backoff (counted), then reported as *_UNAVAILABLE;
 *     other 4xx answers are *_REJECTED after one request.
 *   - A points service that is down never blocks a bridge or a swap: the transfer goes ahead and says why
 *     it has no estimate; a bad USD value still stops it before anything is sent.
 *   - A swap is held to the minimum of the quote the user reviewed: a worse fresh quote signs nothing.
 *   - A changed service URL is used from the next call on (the inference key included).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCompanionUrl } from '../../../src/main/services/companion/index.js';
import { OperationError, ValidationError } from '../../../src/main/services/errors.js';
import { estimatePoints } from '../../../src/main/services/points/index.js';
import { sendBridge } from '../../../src/main/services/bridge/index.js';
import { executeSwap, quoteSwap, validateSwapInput } from '../../../src/main/services/swap/index.js';
import { CompanionWorld, ETH, tokenOf } from './companionWorld.js';

let w: CompanionWorld;
/** A loopback port nothing listens on: connections to it are refused at once. */
let closedPort: number;

beforeAll(async () => {
  w = await CompanionWorld.boot('companion-outages');
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => {
  await w?.stop();
});

/** Answers `status` to the next `times` requests whose path starts with `prefix`; the rest go through. */
function failNext(prefix: string, status: number, times: number, body: unknown = { error: 'upstream exploded' }): { hits: () => number; fetch: typeof fetch } {
  let hits = 0;
  return {
    hits: () => hits,
    fetch: async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (url.pathname.startsWith(prefix)) {
        hits++;
        if (hits <= times) return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      }
      return w.fetch(input, init);
    },
  };
}

async function failure(p: Promise<unknown>): Promise<OperationError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OperationError);
  return err as OperationError;
}

const estimateInput = (user: string) => ({ user, srcChain: 'arbitrum', dstChain: 'base', srcToken: 'native', dstToken: 'native', srcUsd: '300', dstUsd: '299', source: 'perpsdesk' });

describe('points and aggregator failures', () => {
  it('a points 503 is retried with backoff and the estimate arrives; a lasting one is POINTS_UNAVAILABLE after every attempt', async () => {
    const user = w.envSigner().wallet.address;
    const twice = failNext('/platform/v1/point/estimate', 503, 2);
    const ok = await estimatePoints(w.context({ fetch: twice.fetch }), estimateInput(user));
    expect(ok.point).toBeGreaterThan(0);
    expect(twice.hits()).toBe(3);

    const always = failNext('/platform/v1/point/estimate', 502, 100);
    const err = await failure(estimatePoints(w.context({ fetch: always.fetch }), estimateInput(user)));
    expect(err.code).toBe('POINTS_UNAVAILABLE');
    expect(err.status).toBe(502);
    expect(err.hint).toMatch(/retry later/);
    // The context's policy: 3 attempts.
    expect(always.hits()).toBe(3);
  });

  it('a points 4xx is POINTS_REJECTED after a single request; a refused connection is NETWORK_ERROR after every attempt', async () => {
    const user = w.envSigner().wallet.address;
    const refused = failNext('/platform/v1/point/estimate', 400, 100, { error: 'invalid src_usd' });
    const err = await failure(estimatePoints(w.context({ fetch: refused.fetch }), estimateInput(user)));
    expect(err).toMatchObject({ code: 'POINTS_REJECTED', status: 400 });
    expect(err.message).toContain('invalid src_usd');
    expect(refused.hits()).toBe(1);

    const before = w.requests.length;
    saveCompanionUrl(w.context().resolveInput, 'platform', `http://127.0.0.1:${closedPort}/platform`);
    try {
      const down = await failure(estimatePoints(w.context(), estimateInput(user)));
      expect(down.code).toBe('NETWORK_ERROR');
      expect(w.requests.slice(before).filter((r) => r.path.startsWith('/platform/')).length).toBe(3);
    } finally {
      w.settings.delete('companion.sim.urls.platform');
    }
  });

  it('an aggregator 5xx is retried then AGGREGATOR_UNAVAILABLE; another 400 is AGGREGATOR_REJECTED, sent once', async () => {
    const receiver = w.envSigner().wallet.address;
    const params = validateSwapInput({ chain: 'base', tokenIn: 'native', tokenOut: tokenOf('base', 'USDC'), amountIn: (ETH / 100n).toString(), slippage: '0.005', receiver, source: 'perpsdesk' });

    const once = failNext('/aggregator/v1/base/swap', 500, 1);
    const q = await quoteSwap(w.context({ fetch: once.fetch }), params);
    expect(BigInt(q.amountOut!)).toBeGreaterThan(0n);
    expect(once.hits()).toBe(2);

    const always = failNext('/aggregator/v1/base/swap', 503, 100);
    expect(await failure(quoteSwap(w.context({ fetch: always.fetch }), params))).toMatchObject({ code: 'AGGREGATOR_UNAVAILABLE', status: 503 });
    expect(always.hits()).toBe(3);

    // The simulator's own refusal of an out-of-range slippage (its ceiling is below the client's).
    const before = w.requests.length;
    const rejected = await failure(quoteSwap(w.context(), { ...params, slippage: '0.9' }));
    expect(rejected).toMatchObject({ code: 'AGGREGATOR_REJECTED', status: 400 });
    expect(rejected.message).toMatch(/slippage/);
    expect(w.sent('/aggregator/', before)).toHaveLength(1);
  });
});

describe('points never block a funds move', () => {
  it('a swap goes ahead while the points service is down, and says why it has no estimate', async () => {
    const { wallet, signer } = w.envSigner();
    await w.fund('base', wallet.address, ETH);
    const down = failNext('/platform/v1/point/estimate', 503, 100);
    const r = await executeSwap(w.context({ fetch: down.fetch }), {
      chain: 'base',
      tokenIn: 'native',
      tokenOut: tokenOf('base', 'USDC'),
      amountIn: (ETH / 10n).toString(),
      slippage: '0.005',
      source: 'perpsdesk',
      signer,
      pointsUsd: { src: '300', dst: '299' },
    });
    expect(r.transaction.receipt.status).toBe('success');
    expect(r.points).toBeNull();
    expect(r.pointsError).toMatch(/^POINTS_UNAVAILABLE: /);
    expect(down.hits()).toBe(3);
  });

  it('a bridge goes ahead while the points service refuses, and says why it has no estimate', async () => {
    const { wallet, signer } = w.envSigner();
    await w.fund('arbitrum', wallet.address, ETH);
    const refused = failNext('/platform/v1/point/estimate', 400, 100, { error: 'unknown source' });
    const r = await sendBridge(w.context({ fetch: refused.fetch }), {
      fromChain: 'arbitrum',
      toChain: 'base',
      fromToken: 'native',
      toToken: 'native',
      amount: (ETH / 10n).toString(),
      protocols: ['rail_fast'],
      source: 'perpsdesk',
      signer,
      pointsUsd: { src: '300', dst: '299' },
    });
    expect(r.srcTx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(r.points).toBeNull();
    expect(r.pointsError).toContain('unknown source');
  });

  it('a bad USD value still stops a swap and a bridge before anything is asked or sent', async () => {
    const { wallet, signer } = w.envSigner();
    await w.fund('base', wallet.address, ETH);
    const before = w.requests.length;
    await expect(
      executeSwap(w.context(), { chain: 'base', tokenIn: 'native', tokenOut: tokenOf('base', 'USDC'), amountIn: '1000', slippage: '0.005', source: 'perpsdesk', signer, pointsUsd: { src: '-5', dst: '1' } }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      sendBridge(w.context(), { fromChain: 'arbitrum', toChain: 'base', fromToken: 'native', toToken: 'native', amount: '1000', protocols: ['rail_fast'], source: 'perpsdesk', signer, pointsUsd: { src: 'lots', dst: '1' } }),
    ).rejects.toThrow(/src_usd: 'lots' is not/);
    expect(w.requests.slice(before)).toEqual([]);
  });
});

describe('a swap is held to the quote the user reviewed', () => {
  it('a fresh quote below the reviewed minimum signs and sends nothing; one that meets it is sent', async () => {
    const { wallet, signer } = w.envSigner();
    await w.fund('base', wallet.address, ETH);
    const input = { chain: 'base', tokenIn: 'native', tokenOut: tokenOf('base', 'USDC'), amountIn: (ETH / 20n).toString(), slippage: '0.005', source: 'perpsdesk' };
    const reviewed = await quoteSwap(w.context(), validateSwapInput({ ...input, receiver: wallet.address }));

    // The user reviewed a better price than the aggregator gives now (the market moved against them).
    const better = { ...reviewed, minAmountOut: (BigInt(reviewed.amountOut!) + 1n).toString() };
    const before = w.requests.length;
    const err = await failure(executeSwap(w.context(), { ...input, signer, reviewed: better }));
    expect(err.code).toBe('SWAP_QUOTE_WORSENED');
    expect(err.details).toEqual({ reviewed_min_amount_out: better.minAmountOut, new_amount_out: reviewed.amountOut });
    const rpcMethods = w
      .sent('/rpc/base', before)
      .map((r) => (JSON.parse(r.body ?? '{}') as { method?: string }).method)
      .filter((m): m is string => typeof m === 'string');
    expect(rpcMethods).not.toContain('eth_sendRawTransaction');

    const ok = await executeSwap(w.context(), { ...input, signer, reviewed });
    expect(ok.transaction.receipt.status).toBe('success');
    expect(BigInt(ok.quote.amountOut!)).toBeGreaterThanOrEqual(BigInt(reviewed.minAmountOut!));
  });
});

describe('a service URL changed in Settings', () => {
  it('is used from the next call on, by a context built before the change', async () => {
    const ctx = w.context();
    const user = w.envSigner().wallet.address;
    expect((await estimatePoints(ctx, estimateInput(user))).point).toBeGreaterThan(0);
    const firstClient = ctx.points;

    saveCompanionUrl(ctx.resolveInput, 'platform', `http://127.0.0.1:${closedPort}/platform`);
    try {
      expect(ctx.points).not.toBe(firstClient);
      expect(ctx.points.baseUrl).toBe(`http://127.0.0.1:${closedPort}/platform`);
      expect((await failure(estimatePoints(ctx, estimateInput(user)))).code).toBe('NETWORK_ERROR');
      // Nothing changed for the other services.
      expect(ctx.inference.baseUrl).toBe(`${w.origin}/inference`);
    } finally {
      w.settings.delete('companion.sim.urls.platform');
    }
    expect(ctx.points.baseUrl).toBe(`${w.origin}/platform`);
    expect((await estimatePoints(ctx, estimateInput(user))).point).toBeGreaterThan(0);
  });
});

/**
 * Points against the simulator: an estimate before a bridge, then the bonus credited under the partner code
 * read back from the leaderboard for a date range once the bridge is done; a bridge without a partner code
 * credits base points only; input rules and the service's 400s.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PointsClient } from '../../../src/main/api/companion/index.js';
import { sendBridge, trackBridgeOrder } from '../../../src/main/services/bridge/index.js';
import { OperationError, ValidationError } from '../../../src/main/services/errors.js';
import { creditedPoints, estimatePoints, parseTimeInput } from '../../../src/main/services/points/index.js';
import { CompanionWorld, ETH } from './companionWorld.js';

let w: CompanionWorld;
beforeAll(async () => {
  w = await CompanionWorld.boot('companion-points');
});
afterAll(async () => {
  await w?.stop();
});

describe('points', () => {
  it('estimate before a partner-code bridge, then the credited bonus for the date range from the leaderboard', async () => {
    const ctx = w.context();
    const { wallet, signer } = w.envSigner();
    await w.fund('arbitrum', wallet.address, ETH);
    const start = Math.floor(w.sim.clock.now() / 1000);

    const estimate = await estimatePoints(ctx, { user: wallet.address, srcChain: 'arbitrum', dstChain: 'base', srcToken: 'native', dstToken: 'native', srcUsd: '300', dstUsd: '299.5', source: 'perpsdesk' });
    expect(estimate.point).toBeGreaterThan(0);
    expect(estimate.partnerBonus).toBeGreaterThan(0);
    expect(estimate.from).toBe(start);
    const q = w.requests.filter((r) => r.path.startsWith('/platform/v1/point/estimate')).at(-1);
    expect(q?.path).toContain('src_usd=300');
    expect(q?.path).toContain('dst_usd=299.5');
    expect(q?.path).toContain('source=perpsdesk');

    const before = await creditedPoints(ctx, { user: wallet.address, from: start - 60, to: start + 3600, partnerCode: 'perpsdesk' });
    expect(before).toMatchObject({ point: 0, partnerBonus: 0, partnerBonuses: {} });

    const sent = await sendBridge(ctx, { fromChain: 'arbitrum', toChain: 'base', fromToken: 'native', toToken: 'native', amount: (ETH / 10n).toString(), protocols: ['rail_fast'], source: 'perpsdesk', signer });
    expect((await trackBridgeOrder(ctx, sent.srcTx, { pollIntervalMs: 5_000 })).state).toBe('done');
    const end = Math.floor(w.sim.clock.now() / 1000);

    const after = await creditedPoints(ctx, { user: wallet.address, from: new Date(start * 1000), to: end, partnerCode: 'perpsdesk' });
    expect(after.point).toBeGreaterThan(0);
    expect(after.partnerBonus).toBeGreaterThan(0);
    expect(Object.keys(after.partnerBonuses)).toEqual(['perpsdesk']);
    // The bonus is a fraction of the base points (the sim pays 10% for perpsdesk).
    expect(after.partnerBonus).toBeLessThan(after.point);
    // Outside the range nothing is credited.
    const earlier = await creditedPoints(ctx, { user: wallet.address, from: start - 7200, to: start - 3600 });
    expect(earlier.point).toBe(0);
    expect(earlier.partnerBonus).toBeNull();
  });

  it('a bridge without a partner code earns base points and no bonus', async () => {
    const ctx = w.context();
    const { wallet, signer } = w.envSigner();
    await w.fund('arbitrum', wallet.address, ETH);
    const start = Math.floor(w.sim.clock.now() / 1000);
    const sent = await sendBridge(ctx, { fromChain: 'arbitrum', toChain: 'base', fromToken: 'native', toToken: 'native', amount: (ETH / 10n).toString(), protocols: ['rail_fast'], signer });
    await trackBridgeOrder(ctx, sent.srcTx, { pollIntervalMs: 5_000 });
    const r = await creditedPoints(ctx, { user: wallet.address, from: start, to: Math.floor(w.sim.clock.now() / 1000), partnerCode: 'perpsdesk' });
    expect(r.point).toBeGreaterThan(0);
    expect(r.partnerBonus).toBe(0);
  });

  it('inputs are checked before sending; the service refusing one is POINTS_REJECTED', async () => {
    const ctx = w.context();
    const user = Wallet.createRandom().address;
    const from = w.requests.length;
    const base = { user, srcChain: 'arbitrum', dstChain: 'base', srcToken: 'native', dstToken: 'native', srcUsd: '10', dstUsd: '10', source: 'perpsdesk' };
    await expect(estimatePoints(ctx, { ...base, srcUsd: '-1' })).rejects.toBeInstanceOf(ValidationError);
    await expect(estimatePoints(ctx, { ...base, source: '' })).rejects.toBeInstanceOf(ValidationError);
    await expect(creditedPoints(ctx, { user, from: 200, to: 100 })).rejects.toBeInstanceOf(ValidationError);
    expect(() => parseTimeInput('yesterday', 'from')).toThrow(ValidationError);
    expect(parseTimeInput('2025-01-15', 'from')).toBe(Date.UTC(2025, 0, 15) / 1000);
    expect(w.requests.slice(from)).toEqual([]);
    const err = await estimatePoints(ctx, { ...base, srcChain: 'solana' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).code).toBe('POINTS_REJECTED');
    expect((err as OperationError).status).toBe(400);
  });

  it('the client validates the shapes: points are JSON numbers', async () => {
    const client = new PointsClient({ baseUrl: 'http://127.0.0.1:9', fetch: async () => new Response(JSON.stringify({ point: '12', partnerBonus: 1 })) });
    await expect(client.estimate({ user: '0x0000000000000000000000000000000000000001', src_chain: 'a', dst_chain: 'b', src_token: 'x', dst_token: 'y', src_usd: '1', dst_usd: '1', from: 1, source: 'p' })).rejects.toThrow(/point/);
  });
});

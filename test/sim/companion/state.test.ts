import { afterEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/sim/runtime/clock.js';
import { SeededRandom } from '../../../src/sim/runtime/random.js';
import { serveModules } from '../../../src/sim/runtime/router.js';
import { NATIVE_TOKEN, createCompanions, defaultCompanionConfig, resolveCompanionConfig } from '../../../src/sim/companion/index.js';
import { alice, bob, qs, START, startHarness, type Harness, type Json } from './helpers.js';

const ETH = 10n ** 18n;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('config', () => {
  it('the default config is JSON-serialisable and valid', () => {
    const cfg = defaultCompanionConfig();
    const round = JSON.parse(JSON.stringify(cfg)) as unknown;
    expect(round).toEqual(cfg);
    expect(resolveCompanionConfig(cfg)).toEqual(cfg);
  });

  it('overrides merge object sections and replace arrays', () => {
    const cfg = resolveCompanionConfig({ bridge: { requestIdLifetimeMs: 5_000 }, partners: [{ code: 'x', bonusBps: 1 }] });
    expect(cfg.bridge.requestIdLifetimeMs).toBe(5_000);
    expect(cfg.bridge.coreSpotMinUsd).toBe('100');
    expect(cfg.partners).toEqual([{ code: 'x', bonusBps: 1 }]);
  });

  it('rejects invalid configs', () => {
    expect(() => resolveCompanionConfig({ points: { pointsPerUsd: '1.5e3' } })).toThrow();
    const tokens = defaultCompanionConfig().tokens;
    expect(() => resolveCompanionConfig({ tokens: [...tokens, { ...tokens[0]!, symbol: 'DUP' }] })).toThrow(/duplicate token/);
    expect(() => resolveCompanionConfig({ tokens: [{ ...tokens[0]!, chain: 'venue_core' }] })).toThrow(/venue token id/);
  });

  it('a shorter requestId lifetime from config is honoured', async () => {
    h = await startHarness({ bridge: { requestIdLifetimeMs: 5_000 } });
    const q = await h.get(`${h.bridgeUrl}/quote?${qs({ fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN, toToken: NATIVE_TOKEN, amount: ETH.toString(), protocols: 'rail_fast', sender: alice.address, receiver: alice.address })}`);
    h.clock.advance(5_000);
    expect((await h.post(`${h.bridgeUrl}/encode`, { requestId: q.body.requestId, quoteIdx: 0 })).body).toEqual({ error: 'no quotes found' });
  });
});

describe('snapshot and restore', () => {
  it('a pending bridge order, balances, points and keys survive a restore into a fresh instance', async () => {
    h = await startHarness();
    await h.fund('arbitrum', alice.address, 3n * ETH);
    const q = await h.get(`${h.bridgeUrl}/quote?${qs({ fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN, toToken: NATIVE_TOKEN, amount: ETH.toString(), protocols: 'rail_fast', sender: alice.address, receiver: bob.address, source: 'perpsdesk' })}`);
    const e = await h.post(`${h.bridgeUrl}/encode`, { requestId: q.body.requestId, quoteIdx: 0 });
    const sent = await alice.connect(h.provider('arbitrum')).sendTransaction(e.body.data);
    await sent.wait();
    await h.post(`${h.server.origin}/sim/companion/inference/keys`, { key: 'sk-sim-saved-0009', balance: '3.5', spendingLimit: '2' });
    const snap = JSON.parse(JSON.stringify(h.companions.snapshot())) as unknown;
    const balance = await h.provider('arbitrum').getBalance(alice.address);

    // A second simulator at the same time restores the snapshot.
    const clock = new SimClock({ manual: true, start: h.clock.now() });
    const restored = createCompanions({ clock, random: new SeededRandom(99) });
    restored.restore(snap);
    const server = await serveModules([
      { prefix: '/bridge/v1', module: restored.bridge },
      { prefix: '/platform', module: restored.points },
      { prefix: '/rpc', module: restored.rpc },
      { prefix: '/sim/companion', module: restored.control },
    ]);
    try {
      const get = async (path: string) => (await fetch(`${server.origin}${path}`)).json() as Promise<Json>;
      const rpc = async (chain: string, method: string, params: unknown[]) =>
        ((await (await fetch(`${server.origin}/rpc/${chain}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result: string }).result;
      expect(BigInt(await rpc('arbitrum', 'eth_getBalance', [alice.address, 'latest']))).toBe(balance);
      expect(await rpc('arbitrum', 'eth_getTransactionCount', [alice.address, 'latest'])).toBe('0x1');
      expect((await get(`/bridge/v1/bridge/orders?src_tx=${sent.hash}`)).orders[0].state).toBe('pending');
      clock.advance(120_000);
      expect((await get(`/bridge/v1/bridge/orders?src_tx=${sent.hash}`)).orders[0].state).toBe('done');
      expect(BigInt(await rpc('base', 'eth_getBalance', [bob.address, 'latest']))).toBe(BigInt(q.body.data[0].amountOut));
      const now = Math.floor(clock.now() / 1000);
      const lb = await get(`/platform/v1/point/leaderboard?${qs({ user: alice.address, from: '0', to: String(now) })}`);
      expect(lb.total.pointPartnerBonuses.perpsdesk).toBeGreaterThan(0);
      const key = await (await fetch(`${server.origin}/sim/companion/inference/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: 'sk-sim-saved-0009' }) })).json() as Json;
      expect(key.key).toMatchObject({ balance: '3.5', spendingLimit: '2' });
    } finally {
      await server.close();
    }

    // The original still settles on its own clock, independently.
    h.clock.advance(120_000);
    expect((await h.get(`${h.bridgeUrl}/bridge/orders?src_tx=${sent.hash}`)).body.orders[0].state).toBe('done');
  });

  it('restore replaces pending timers: an order settled after the snapshot is pending again and settles once', async () => {
    h = await startHarness();
    await h.fund('arbitrum', alice.address, 3n * ETH);
    const q = await h.get(`${h.bridgeUrl}/quote?${qs({ fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN, toToken: NATIVE_TOKEN, amount: ETH.toString(), protocols: 'rail_fast', sender: alice.address, receiver: bob.address })}`);
    const e = await h.post(`${h.bridgeUrl}/encode`, { requestId: q.body.requestId, quoteIdx: 0 });
    const sent = await alice.connect(h.provider('arbitrum')).sendTransaction(e.body.data);
    await sent.wait();
    const snap = h.companions.snapshot();
    h.companions.restore(snap);
    h.clock.advance(120_000);
    expect((await h.get(`${h.bridgeUrl}/bridge/orders?src_tx=${sent.hash}`)).body.orders[0].state).toBe('done');
    expect(await h.provider('base').getBalance(bob.address)).toBe(BigInt(q.body.data[0].amountOut));
  });

  it('a malformed snapshot is refused and changes nothing', async () => {
    const clock = new SimClock({ manual: true, start: START });
    const c = createCompanions({ clock, random: new SeededRandom(1) });
    const good = c.snapshot();
    expect(() => c.restore({ version: 2 })).toThrow();
    expect(() => c.restore({ ...good, points: [{ nope: true }] })).toThrow();
    expect(() => c.restore('garbage')).toThrow();
    expect(c.snapshot()).toEqual(good);
  });
});

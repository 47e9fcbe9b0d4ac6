/**
 * The companion screens' channels end to end in main: the real IPC handlers, AppCore on the sim profile
 * (the simulator's bridge, points, aggregator, inference and per-chain JSON-RPC on loopback), the real OS
 * keychain for the inference key. What users rely on: settings that refuse a wrong RPC URL, quotes whose
 * routes are compared, the chosen route sent from the main wallet and followed to done, refunded or
 * failed (and again after a restart), swaps with the partner code, points, and an assistant that is off
 * until a key is set.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCompanionConfig } from '../../../src/sim/companion/index.js';
import type { TransferView } from '../../../src/shared/ipc.js';
import { NATIVE_TOKEN_PLACEHOLDER } from '../../../src/shared/protocol/index.js';
import { wipeService } from '../../support/keychain.js';
import { startSimulator } from '../../../src/sim/index.js';
import { openNodeSettings } from '../../../src/main/settings/settingsStore.js';
import { AppHarness, FAST_SIM_CONFIG } from './appHarness.js';
import { PROXY_KEY, RpcProxy } from '../companion/bridgeRpcProxy.js';

const cfg = defaultCompanionConfig();
/** Bridge orders settle in about a second (six for rail_native_assets, so one can outlive a restart). */
const FAST_PROTOCOLS = cfg.protocols.map((p) => ({ ...p, etaSeconds: p.id === 'rail_native_assets' ? 6 : 1 }));
function tokenOf(chain: string, symbol: string): string {
  const t = cfg.tokens.find((x) => x.chain === chain && x.symbol === symbol);
  if (!t) throw new Error(`no ${symbol} on ${chain}`);
  return t.address;
}
const ETH = 10n ** 18n;
const MAIN = 'PERPS_COMPANION_MAIN_KEY';

describe('companion screens through the IPC handlers (sim profile)', () => {
  const main = Wallet.createRandom();
  let h: AppHarness;

  const origin = (): string => new URL(h.core.profile!.baseUrl).origin;
  /** Drops companion settings stored for the sim profile (the app has no control to unset them), as a test that starts from the defaults needs. */
  const forgetStored = (...names: string[]): void => {
    const settings = openNodeSettings(h.dataDir);
    for (const name of names) settings.delete(`companion.sim.${name}`);
  };
  async function control(path: string, body: unknown): Promise<void> {
    const res = await fetch(`${origin()}/sim/companion${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  }
  const fund = (chain: string, amount: bigint, token?: string): Promise<void> => control('/rpc/fund', { chain, address: main.address, amount: amount.toString(), ...(token ? { token } : {}) });
  const transfer = (id: string): TransferView | undefined =>
    h
      .eventsOf<{ transfers: TransferView[] }>('transfers')
      .flatMap((e) => e.payload.transfers)
      .filter((t) => t.id === id)
      .at(-1);
  /**
   * The transfer once it reaches `phase` (or ends otherwise, which then fails with its state and the log),
   * the simulator's clock moved 250 ms at a time meanwhile: bridge orders settle and the tracker polls as
   * it moves.
   */
  async function reach(id: string, phase: 'tracking' | 'final'): Promise<TransferView> {
    const t = await h
      .advanceUntil(`transfer ${id} ${phase}`, () => {
        const x = transfer(id);
        return x && (x.final || x.phase === phase) ? x : undefined;
      }, 250)
      .catch((err: unknown) => {
        throw new Error(`${(err as Error).message}: ${JSON.stringify(transfer(id))}\n${h.logs.slice(-10).join('\n')}`);
      });
    if (phase === 'tracking' && t.final) throw new Error(`transfer ${id} ended before tracking: ${JSON.stringify(t)}`);
    return t;
  }
  const phasesOf = (id: string): string[] => transfer(id)?.steps.map((s) => s.phase) ?? [];

  beforeAll(async () => {
    // The simulator's manual clock (issue 37): the core waits on it, and the test moves it.
    h = await AppHarness.start('companion', {
      env: { [MAIN]: main.privateKey },
      core: {
        companion: { pollIntervalMs: 100, rpcPollingIntervalMs: 50 },
        startSimulator: ({ stateFile }) => startSimulator({ port: 0, seed: 11, stateFile, manualClock: true, config: { ...FAST_SIM_CONFIG, companion: { protocols: FAST_PROTOCOLS } } }),
      },
    });
    await h.call('wallet:connectEnv', { variable: MAIN });
  });
  afterAll(async () => {
    await h.core.companion().settled();
    await h.stop();
    await wipeService(`${h.keychainService}.inference`);
    h.cleanup();
  });

  it('settings list every spec chain with its JSON-RPC (the simulator by default) and refuse a URL serving another chain', async () => {
    forgetStored('partnerCode', 'urls.platform');
    const s = await h.call('companion:getSettings', {});
    expect(s.chains.map((c) => c.chain)).toEqual(['ethereum', 'arbitrum', 'optimism', 'base', 'unichain', 'flare', 'plasma', 'venue_evm', 'venue_core']);
    expect(s.chains.find((c) => c.chain === 'arbitrum')).toMatchObject({ evm: true, evm_chain_id: '42161', rpc_source: 'simulator', rpc_url: `${origin()}/rpc/arbitrum` });
    expect(s.chains.find((c) => c.chain === 'venue_core')).toMatchObject({ evm: false, rpc_url: null });
    expect(s.services.every((x) => x.source === 'simulator')).toBe(true);
    expect(s.native_token).toBe(NATIVE_TOKEN_PLACEHOLDER);
    expect(s.partner_code).toBeNull();

    // The base chain's RPC stored for arbitrum: refused after eth_chainId, nothing stored.
    const wrong = await h.fail('companion:setRpcUrl', { chain: 'arbitrum', url: `${origin()}/rpc/base` });
    expect(wrong.code).toBe('WRONG_CHAIN');
    expect((await h.call('companion:getSettings', {})).chains.find((c) => c.chain === 'arbitrum')?.rpc_source).toBe('simulator');
    const notUrl = await h.fail('companion:setRpcUrl', { chain: 'arbitrum', url: 'file:///etc/passwd' });
    expect(notUrl).toMatchObject({ code: 'VALIDATION', reason: 'INVALID_URL' });
    expect((await h.fail('companion:setRpcUrl', { chain: 'venue_core', url: `${origin()}/rpc/base` })).code).toBe('VALIDATION');

    const stored = await h.call('companion:setRpcUrl', { chain: 'arbitrum', url: `${origin()}/rpc/arbitrum/` });
    expect(stored.chains.find((c) => c.chain === 'arbitrum')).toMatchObject({ rpc_source: 'stored', rpc_url: `${origin()}/rpc/arbitrum` });
    const cleared = await h.call('companion:setRpcUrl', { chain: 'arbitrum', url: null });
    expect(cleared.chains.find((c) => c.chain === 'arbitrum')?.rpc_source).toBe('simulator');
  });

  it('token look-ups read decimals, symbol and the wallet balance from the chain', async () => {
    // The balances as this test finds them (other tests spend and fund on arbitrum too), then what it adds.
    const balanceOf = async (token: string) => BigInt((await h.call('bridge:tokenInfo', { chain: 'arbitrum', token })).balance ?? '0');
    const [nativeBefore, usdcBefore] = [await balanceOf(NATIVE_TOKEN_PLACEHOLDER), await balanceOf(tokenOf('arbitrum', 'USDC'))];
    await fund('arbitrum', 2n * ETH);
    await fund('arbitrum', 1_000_000_000n, tokenOf('arbitrum', 'USDC'));
    const native = await h.call('bridge:tokenInfo', { chain: 'arbitrum', token: NATIVE_TOKEN_PLACEHOLDER });
    expect(native).toMatchObject({ native: true, symbol: 'ETH', decimals: 18, balance: (nativeBefore + 2n * ETH).toString(), note: null });
    const usdc = await h.call('bridge:tokenInfo', { chain: 'arbitrum', token: tokenOf('arbitrum', 'USDC') });
    expect(usdc).toMatchObject({ native: false, symbol: 'USDC', decimals: 6, balance: (usdcBefore + 1_000_000_000n).toString() });
    const core = await h.call('bridge:tokenInfo', { chain: 'venue_core', token: tokenOf('venue_core', 'USDC') });
    expect(core.decimals).toBeNull();
    expect(core.note).toMatch(/spot metadata/);
    const notToken = await h.fail('bridge:tokenInfo', { chain: 'arbitrum', token: main.address });
    expect(notToken.code).toBe('BAD_TOKEN');
  });

  it('quotes compare routes by amount out, best first, with the minimum after slippage; bad amounts change nothing', async () => {
    const q = await h.call('bridge:quote', {
      from_chain: 'arbitrum',
      to_chain: 'base',
      from_token: NATIVE_TOKEN_PLACEHOLDER,
      to_token: NATIVE_TOKEN_PLACEHOLDER,
      amount: '0.5',
      decimals: 18,
      protocols: ['rail_fast', 'rail_native_assets', 'rail_canonical'],
      slippage_bps: 50,
    });
    expect(q.amount_units).toBe((ETH / 2n).toString());
    expect(q.request_id).toBeTruthy();
    expect(q.expires_at - q.quoted_at).toBe(30_000);
    expect(q.routes.length).toBeGreaterThan(1);
    expect(q.routes[0]!.best).toBe(true);
    for (let i = 1; i < q.routes.length; i++) expect(BigInt(q.routes[i - 1]!.amount_out) >= BigInt(q.routes[i]!.amount_out)).toBe(true);
    for (const r of q.routes) {
      expect(BigInt(r.min_amount_out)).toBe((BigInt(r.amount_out) * 9950n) / 10000n);
      expect(BigInt(r.shortfall)).toBe(BigInt(q.routes[0]!.amount_out) - BigInt(r.amount_out));
    }
    const tooPrecise = await h.fail('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '0.1234567', decimals: 6, protocols: ['rail_fast'] });
    expect(tooPrecise).toMatchObject({ code: 'VALIDATION', field: 'amount' });
    const coreSpot = await h.fail('bridge:quote', { from_chain: 'arbitrum', to_chain: 'venue_core', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: tokenOf('venue_core', 'USDC'), amount: '1', decimals: 18, protocols: ['core_spot_swap'] });
    expect(coreSpot).toMatchObject({ code: 'VALIDATION', reason: 'CORE_SPOT_RULE' });
    const unknownChain = await h.fail('bridge:quote', { from_chain: 'atlantis', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '1', decimals: 18, protocols: ['rail_fast'] });
    expect(unknownChain.code).toBe('CHAIN_NOT_FOUND');
  });

  it('the chosen route is encoded, signed by the main wallet, sent and followed to done; a quote sends once', async () => {
    await fund('arbitrum', ETH);
    const q = await h.call('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '0.25', decimals: 18, protocols: ['rail_fast', 'rail_native_assets'] });
    const chosen = q.routes.at(-1)!; // not the best: the user's choice is what gets encoded
    const started = await h.call('bridge:send', { quote_id: q.quote_id, quote_idx: chosen.quote_idx });
    expect(started).toMatchObject({ kind: 'bridge', phase: 'preparing', final: false, protocol: chosen.protocol, amount_units: (ETH / 4n).toString() });
    expect((await h.fail('bridge:send', { quote_id: q.quote_id, quote_idx: chosen.quote_idx })).code).toBe('QUOTE_UNKNOWN');

    const tracking = await reach(started.id, 'tracking');
    expect(tracking.src_tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(tracking.protocol).toBe(chosen.protocol);
    const done = await reach(started.id, 'final');
    expect(done).toMatchObject({ phase: 'done', bridge_state: 'done', error: null });
    expect(phasesOf(started.id)).toEqual(['preparing', 'encoding', 'signing', 'sending', 'confirming', 'tracking', 'done']);
    expect((await h.call('transfers:list', {})).transfers.find((t) => t.id === started.id)?.phase).toBe('done');
  });

  it('an ERC-20 transfer is approved first; refunded and failed orders end so, with what to do', async () => {
    // Its own USDC to send and ETH for gas, whatever ran before.
    await fund('arbitrum', ETH);
    await fund('arbitrum', 1_000_000_000n, tokenOf('arbitrum', 'USDC'));
    await control('/bridge/outcome', { next: true, state: 'refunded' });
    const q = await h.call('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: tokenOf('arbitrum', 'USDC'), to_token: tokenOf('base', 'USDC'), amount: '250', decimals: 6, protocols: ['rail_canonical'] });
    const t = await h.call('bridge:send', { quote_id: q.quote_id, quote_idx: q.routes[0]!.quote_idx });
    const refunded = await reach(t.id, 'final');
    expect(refunded).toMatchObject({ phase: 'refunded', bridge_state: 'refunded' });
    expect(refunded.approve_tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(phasesOf(t.id)).toEqual(['preparing', 'encoding', 'checking-allowance', 'approving', 'signing', 'sending', 'confirming', 'signing', 'sending', 'confirming', 'tracking', 'refunded']);

    await control('/bridge/outcome', { next: true, state: 'failed' });
    const q2 = await h.call('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '0.01', decimals: 18, protocols: ['rail_fast'] });
    const t2 = await h.call('bridge:send', { quote_id: q2.quote_id, quote_idx: q2.routes[0]!.quote_idx });
    expect((await reach(t2.id, 'final')).phase).toBe('failed');

    // Ended transfers can be dismissed; the list keeps the rest.
    const after = await h.call('transfers:dismiss', { id: t2.id });
    expect(after.transfers.some((x) => x.id === t2.id)).toBe(false);
    expect(after.transfers.some((x) => x.id === t.id)).toBe(true);
  });

  it('a send that cannot pay for gas ends as an error saying so, with nothing broadcast', async () => {
    const q = await h.call('bridge:quote', { from_chain: 'optimism', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '0.1', decimals: 18, protocols: ['rail_fast'] });
    const t = await h.call('bridge:send', { quote_id: q.quote_id, quote_idx: q.routes[0]!.quote_idx });
    const ended = await reach(t.id, 'final');
    expect(ended.phase).toBe('error');
    expect(ended.error?.code).toBe('INSUFFICIENT_FUNDS');
    expect(ended.src_tx).toBeNull();
  });

  it('bridge:track follows any source transaction; a transfer under way is followed again after a restart', async () => {
    await fund('arbitrum', ETH);
    const q = await h.call('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '0.02', decimals: 18, protocols: ['rail_native_assets'] });
    const t = await h.call('bridge:send', { quote_id: q.quote_id, quote_idx: q.routes[0]!.quote_idx });
    const tracking = await reach(t.id, 'tracking');
    expect(tracking.protocol).toBe('rail_native_assets');
    expect((await h.call('bridge:track', { src_tx: tracking.src_tx! })).id).toBe(t.id);

    // A profile round trip closes this session's tracker and opens a new one from the saved list.
    await h.call('app:setProfile', { profile: 'sim' });
    const restored = (await h.call('transfers:list', {})).transfers.find((x) => x.id === t.id);
    expect(restored).toMatchObject({ phase: 'tracking', src_tx: tracking.src_tx });
    await h.advanceUntil('done after the restart', async () => (await h.call('transfers:list', {})).transfers.find((x) => x.id === t.id)?.phase === 'done', 250);

    const unknown = await h.call('bridge:track', { src_tx: '0x' + 'ab'.repeat(32) });
    expect(unknown).toMatchObject({ phase: 'tracking', amount_units: null });
    await h.advanceUntil('unseen', () => transfer(unknown.id)?.bridge_state === 'unseen', 250);
    expect((await h.fail('transfers:dismiss', { id: unknown.id })).reason).toBe('TRANSFER_IN_PROGRESS');
  });

  it('swaps need the partner code; with it the swap is quoted, signed and confirmed', async () => {
    forgetStored('partnerCode');
    const req = { chain: 'base', token_in: NATIVE_TOKEN_PLACEHOLDER, token_out: tokenOf('base', 'USDC'), amount: '0.05', decimals: 18, slippage: '0.005' };
    expect(await h.fail('swap:quote', req)).toMatchObject({ code: 'VALIDATION', reason: 'PARTNER_CODE_REQUIRED' });
    expect((await h.call('companion:setPartnerCode', { code: 'perpsdesk' })).partner_code).toBe('perpsdesk');
    const q = await h.call('swap:quote', req);
    expect(q).toMatchObject({ partner_code: 'perpsdesk', amount_units: (ETH / 20n).toString(), receiver: main.address });
    expect(BigInt(q.amount_out!)).toBeGreaterThan(0n);
    expect(BigInt(q.min_amount_out!) <= BigInt(q.amount_out!)).toBe(true);
    await fund('base', ETH);
    const t = await h.call('swap:execute', { quote_id: q.quote_id, points_usd: { src: '150', dst: '149' } });
    const done = await reach(t.id, 'final');
    expect(done).toMatchObject({ kind: 'swap', phase: 'done', error: null });
    expect(done.src_tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.points?.source).toBe('perpsdesk');
    expect(done.points!.point).toBeGreaterThan(0);
  });

  it('a points service URL changed in Settings applies at once; while it is down swaps and bridges go ahead and say why they have no estimate', async () => {
    // A loopback port nothing listens on.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const simPlatform = `${origin()}/platform`;
    // Its swap needs the partner code, whether or not the swaps test set it first.
    await h.call('companion:setPartnerCode', { code: 'perpsdesk' });
    const estimate = { src_chain: 'base', dst_chain: 'base', src_token: NATIVE_TOKEN_PLACEHOLDER, dst_token: tokenOf('base', 'USDC'), src_usd: '150', dst_usd: '149' };
    expect((await h.call('points:estimate', estimate)).point).toBeGreaterThan(0);

    await h.call('companion:setServiceUrl', { service: 'platform', url: `http://127.0.0.1:${deadPort}/platform` });
    try {
      expect((await h.fail('points:estimate', estimate)).code).toBe('NETWORK_ERROR');

      await fund('base', ETH);
      const q = await h.call('swap:quote', { chain: 'base', token_in: NATIVE_TOKEN_PLACEHOLDER, token_out: tokenOf('base', 'USDC'), amount: '0.01', decimals: 18, slippage: '0.005' });
      const swap = await reach((await h.call('swap:execute', { quote_id: q.quote_id, points_usd: { src: '30', dst: '29.9' } })).id, 'final');
      expect(swap).toMatchObject({ phase: 'done', error: null, points: null });
      expect(swap.points_error).toMatch(/^NETWORK_ERROR: /);

      await fund('arbitrum', ETH);
      const bq = await h.call('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '0.01', decimals: 18, protocols: ['rail_fast'] });
      const bridge = await reach((await h.call('bridge:send', { quote_id: bq.quote_id, quote_idx: bq.routes[0]!.quote_idx, points_usd: { src: '30', dst: '29.9' } })).id, 'final');
      expect(bridge).toMatchObject({ phase: 'done', error: null, points: null });
      expect(bridge.points_error).toMatch(/^NETWORK_ERROR: /);
      expect(h.logs.some((l) => l.includes('no points estimate') && l.includes(bridge.id))).toBe(true);
    } finally {
      await h.call('companion:setServiceUrl', { service: 'platform', url: simPlatform });
      // And back to the profile's own default (the simulator's), as the settings test expects to find it.
      openNodeSettings(h.dataDir).delete('companion.sim.urls.platform');
    }
    expect((await h.call('points:estimate', estimate)).point).toBeGreaterThan(0);
  });

  it('points: an estimate before a transfer and the credited partner bonuses of a range', async () => {
    await h.call('companion:setPartnerCode', { code: 'perpsdesk' });
    const est = await h.call('points:estimate', { src_chain: 'arbitrum', dst_chain: 'base', src_token: NATIVE_TOKEN_PLACEHOLDER, dst_token: NATIVE_TOKEN_PLACEHOLDER, src_usd: '300', dst_usd: '299' });
    expect(est.source).toBe('perpsdesk');
    expect(est.point).toBeGreaterThan(0);
    expect(est.partner_bonus).toBeGreaterThan(0);
    const now = Date.now();
    const credited = await h.call('points:credited', { from: now - 86_400_000, to: now + 60_000 });
    expect(credited.user).toBe(main.address);
    expect(credited.partner_code).toBe('perpsdesk');
    expect(credited.partner_bonus).toBe(credited.partner_bonuses.find((b) => b.code === 'perpsdesk')?.bonus ?? 0);
    expect((await h.fail('points:credited', { from: now, to: now - 1_000_000 })).code).toBe('VALIDATION');
  });

  it('the assistant is off until a key is in the keychain; a refused key is not stored; answers are about the account', async () => {
    expect(await h.call('assistant:status', {})).toMatchObject({ enabled: false });
    expect((await h.fail('assistant:ask', { question: 'What are my positions?' })).code).toBe('ASSISTANT_OFF');
    const refused = await h.fail('assistant:setKey', { api_key: 'sk-not-a-real-key' });
    expect(refused.code).toBe('INFERENCE_INVALID_API_KEY');
    expect((await h.call('assistant:status', {})).enabled).toBe(false);

    const on = await h.call('assistant:setKey', { api_key: 'sk-sim-default-0001' });
    expect(on.enabled).toBe(true);
    expect(on.model).toBeTruthy();
    const models = await h.call('assistant:models', {});
    expect(models.models).toContain('sim-chat-mini');
    await h.call('assistant:setModel', { model: 'sim-chat-mini' });
    const a = await h.call('assistant:ask', { question: 'Which positions do I hold?' });
    expect(a.answer.length).toBeGreaterThan(0);
    expect(a.model).toBe('sim-chat-mini');
    expect(a.context.positions).toBeGreaterThanOrEqual(0);
    // The key never travels back: not in the status, not in any log line.
    expect(JSON.stringify(await h.call('assistant:status', {}))).not.toContain('sk-sim-default-0001');
    expect(h.logs.join('\n')).not.toContain('sk-sim-default-0001');

    expect((await h.call('assistant:clearKey', {})).enabled).toBe(false);
    expect((await h.fail('assistant:models', {})).code).toBe('ASSISTANT_OFF');
  });

  it('the offline signer cannot sign source-chain transactions: refused before anything starts', async () => {
    const q = await h.call('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '0.01', decimals: 18, protocols: ['rail_fast'] });
    await h.call('wallet:connectOffline', { address: main.address });
    const before = (await h.call('transfers:list', {})).transfers.length;
    expect((await h.fail('bridge:send', { quote_id: q.quote_id, quote_idx: q.routes[0]!.quote_idx })).code).toBe('SIGNER_UNSUPPORTED');
    expect((await h.call('transfers:list', {})).transfers.length).toBe(before);
    await h.call('wallet:connectEnv', { variable: MAIN });
  });
});

describe('a bridge quote older than its 30 seconds (the simulator on a manual clock)', () => {
  const main = Wallet.createRandom();
  let h: AppHarness;
  const origin = (): string => new URL(h.core.profile!.baseUrl).origin;
  async function post(path: string, body: unknown): Promise<void> {
    const res = await fetch(`${origin()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  }

  beforeAll(async () => {
    h = await AppHarness.start('companion-requote', {
      env: { [MAIN]: main.privateKey },
      core: {
        companion: { pollIntervalMs: 100, rpcPollingIntervalMs: 50 },
        startSimulator: ({ stateFile }) => startSimulator({ port: 0, seed: 12, stateFile, manualClock: true, config: { ...FAST_SIM_CONFIG, companion: { protocols: FAST_PROTOCOLS } } }),
      },
    });
    await h.call('wallet:connectEnv', { variable: MAIN });
  });
  afterAll(async () => {
    await h.core.companion().settled();
    await h.stop();
    h.cleanup();
  });

  it("is re-quoted automatically when /encode answers 'no quotes found', and the same route is sent", async () => {
    await post('/sim/companion/rpc/fund', { chain: 'arbitrum', address: main.address, amount: ETH.toString() });
    const q = await h.call('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '0.1', decimals: 18, protocols: ['rail_fast', 'rail_native_assets'] });
    // The service's clock passes the requestId's 30 seconds while the user reads the routes.
    await post('/sim/advance', { ms: 31_000 });
    const t = await h.call('bridge:send', { quote_id: q.quote_id, quote_idx: q.routes[0]!.quote_idx });
    const tracking = await h.waitFor('tracking', () => {
      const x = (h.eventsOf<{ transfers: TransferView[] }>('transfers').flatMap((e) => e.payload.transfers).filter((y) => y.id === t.id)).at(-1);
      return x && (x.final || x.phase === 'tracking') ? x : undefined;
    });
    expect(tracking).toMatchObject({ phase: 'tracking', requotes: 1, protocol: q.routes[0]!.protocol, error: null });
    expect(tracking.steps.map((s) => s.phase)).toEqual(['preparing', 'encoding', 'requoting', 'signing', 'sending', 'confirming', 'tracking']);
  });
});

describe('bridges that fail after they were sent, and a bridge that cannot be reached (the chain RPC behind a proxy)', () => {
  const main = Wallet.createRandom();
  let h: AppHarness;
  let proxy: RpcProxy;
  /** While set, GET /bridge/orders fails as a refused connection would (the simulator has no outage switch for its companions). */
  let bridgeDown = false;
  /** Reads of GET /bridge/orders refused while the bridge was down. */
  let refusedBridgeReads = 0;
  const switchable: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (bridgeDown && url.pathname.endsWith('/bridge/orders')) {
      refusedBridgeReads++;
      throw new TypeError('fetch failed');
    }
    return fetch(input, init);
  };
  const origin = (): string => new URL(h.core.profile!.baseUrl).origin;
  const router = cfg.chains.find((c) => c.id === 'arbitrum')!.bridgeRouter!.toLowerCase();
  const transfer = (id: string): TransferView | undefined =>
    h
      .eventsOf<{ transfers: TransferView[] }>('transfers')
      .flatMap((e) => e.payload.transfers)
      .filter((t) => t.id === id)
      .at(-1);
  const seen = (id: string): TransferView[] =>
    h
      .eventsOf<{ transfers: TransferView[] }>('transfers')
      .flatMap((e) => e.payload.transfers)
      .filter((t) => t.id === id);
  const final = (id: string): Promise<TransferView> =>
    h.advanceUntil(`transfer ${id} final`, () => {
      const t = transfer(id);
      return t?.final ? t : undefined;
    }, 250);
  async function fund(amount: bigint): Promise<void> {
    const res = await fetch(`${origin()}/sim/companion/rpc/fund`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chain: 'arbitrum', address: main.address, amount: amount.toString() }) });
    expect(res.status).toBe(200);
  }
  /** Arbitrum's JSON-RPC through the proxy, as the key-in-path test stores it: the hooks below act there. */
  async function throughProxy(): Promise<void> {
    const settings = await h.call('companion:getSettings', {});
    if (settings.chains.find((c) => c.chain === 'arbitrum')?.rpc_url === proxy.url('arbitrum')) return;
    await h.call('companion:setRpcUrl', { chain: 'arbitrum', url: proxy.url('arbitrum') });
  }
  async function send(amount = '0.01', protocols: ('rail_fast' | 'rail_size')[] = ['rail_fast']): Promise<TransferView> {
    const q = await h.call('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount, decimals: 18, protocols });
    return h.call('bridge:send', { quote_id: q.quote_id, quote_idx: q.routes[0]!.quote_idx });
  }

  beforeAll(async () => {
    proxy = await RpcProxy.start();
    // The simulator's manual clock (issue 37): the bridge order settles and the tracker polls as the test
    // moves it (final() and the poll waits advance it); the receipt wait is the chain client's, on the wall clock.
    h = await AppHarness.start('companion-failures', {
      // A one-second receipt wait, so a receipt that never comes is given up on quickly.
      env: { [MAIN]: main.privateKey, PERPS_RECEIPT_TIMEOUT: '1s' },
      core: {
        fetch: switchable,
        companion: { pollIntervalMs: 100, rpcPollingIntervalMs: 50 },
        startSimulator: ({ stateFile }) => startSimulator({ port: 0, seed: 13, stateFile, manualClock: true, config: { ...FAST_SIM_CONFIG, companion: { protocols: FAST_PROTOCOLS } } }),
      },
    });
    proxy.target = `${origin()}/rpc`;
    await h.call('wallet:connectEnv', { variable: MAIN });
    await fund(ETH);
  });
  afterAll(async () => {
    await h.core.companion().settled();
    await h.stop();
    h.cleanup();
    await proxy.stop();
  });

  it('an RPC URL with a key in its path is checked against its chain; the key is in no error or log', async () => {
    const wrong = await h.fail('companion:setRpcUrl', { chain: 'arbitrum', url: proxy.url('base') });
    expect(wrong.code).toBe('WRONG_CHAIN');
    expect(JSON.stringify(wrong)).not.toContain(PROXY_KEY);
    expect(JSON.stringify(wrong)).toContain(`${proxy.origin}/…`);
    const stored = await h.call('companion:setRpcUrl', { chain: 'arbitrum', url: proxy.url('arbitrum') });
    // The user's own settings screen shows the URL they stored.
    expect(stored.chains.find((c) => c.chain === 'arbitrum')).toMatchObject({ rpc_source: 'stored', rpc_url: proxy.url('arbitrum') });
    expect(h.logs.join('\n')).not.toContain(PROXY_KEY);
  });

  it('a quote with no route at all is NO_ROUTES, and nothing is kept to send', async () => {
    // rail_size quotes only from 1000 USD: 0.01 ETH has no route.
    const err = await h.fail('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: NATIVE_TOKEN_PLACEHOLDER, to_token: NATIVE_TOKEN_PLACEHOLDER, amount: '0.01', decimals: 18, protocols: ['rail_size'] });
    expect(err.code).toBe('NO_ROUTES');
    expect(err.hint).toMatch(/other protocols/);
  });

  it('a receipt that never comes: the transfer is not ended but follows the bridge order to done', async () => {
    await throughProxy();
    proxy.hook = (c) => (c.method === 'eth_getTransactionReceipt' ? { result: null } : undefined);
    try {
      const t = await send();
      const done = await final(t.id);
      expect(done).toMatchObject({ phase: 'done', bridge_state: 'done', error: null, poll_error: null });
      expect(done.src_tx).toMatch(/^0x[0-9a-f]{64}$/);
      expect(done.steps.map((s) => s.phase)).toEqual(['preparing', 'encoding', 'signing', 'sending', 'confirming', 'tracking', 'done']);
      expect(seen(t.id).some((x) => x.phase === 'error')).toBe(false);
      expect(h.logs.some((l) => l.startsWith('warn') && l.includes(`the receipt of ${done.src_tx} was not confirmed (RECEIPT_TIMEOUT)`))).toBe(true);
    } finally {
      proxy.hook = null;
    }
  });

  it('a source transaction mined but reverted ends as an error with its hash, not followed; bridge:track leaves it so', async () => {
    await throughProxy();
    proxy.hook = (c) => (c.method === 'eth_estimateGas' && String((c.params[0] as { to?: string }).to).toLowerCase() === router ? { result: '0x7530' } : undefined);
    try {
      const t = await send();
      const ended = await final(t.id);
      expect(ended).toMatchObject({ phase: 'error', bridge_state: null, error: { code: 'TX_REVERTED' } });
      expect(ended.src_tx).toMatch(/^0x[0-9a-f]{64}$/);
      const tracked = await h.call('bridge:track', { src_tx: ended.src_tx! });
      expect(tracked).toMatchObject({ id: t.id, phase: 'error', final: true, error: { code: 'TX_REVERTED' } });
    } finally {
      proxy.hook = null;
    }
  });

  it('a bridge that cannot be reached shows on the tracking transfer (poll_error since the first failure), cleared when it answers again', async () => {
    bridgeDown = true;
    let t: TransferView;
    try {
      t = await send();
      const failing = await h.advanceUntil('poll_error', () => {
        const x = transfer(t.id);
        return x?.poll_error ? x : undefined;
      }, 250);
      expect(failing).toMatchObject({ phase: 'tracking', final: false, error: null, poll_error: { code: 'NETWORK_ERROR' } });
      expect(failing.poll_error!.since).toBeGreaterThanOrEqual(t.created_at);
      expect(failing.poll_error!.hint).toBeTruthy();
      // Several failed polls later: the same streak, logged once. A poll is one read and its retries, all
      // refused before the first poll_error showed; two more polls' reads and the next one's first mean two
      // more polls have failed and been handled (a poll's handling runs before the next poll's first read).
      const perPoll = refusedBridgeReads;
      expect(perPoll).toBeGreaterThan(0);
      await h.advanceUntil('two more failed polls', () => refusedBridgeReads >= 3 * perPoll + 1, 250);
      expect(transfer(t.id)?.poll_error?.since).toBe(failing.poll_error!.since);
      expect(h.logs.filter((l) => l.includes(`polling the bridge order of ${failing.src_tx}`))).toHaveLength(1);
    } finally {
      bridgeDown = false;
    }
    const done = await final(t.id);
    expect(done).toMatchObject({ phase: 'done', poll_error: null, error: null });
    expect(h.logs.join('\n')).not.toContain(PROXY_KEY);
  });
});

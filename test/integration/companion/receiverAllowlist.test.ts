/**
 * Where main delivers what it signs (issue 13: the renderer is not trusted). Through the REAL IPC handlers
 * and AppCore on the sim profile: a bridge or swap quote whose receiver is neither the connected main
 * wallet nor on the profile's receiver allowlist is refused before any companion service or chain is
 * asked, and a quote whose receiver was removed from the list since is refused at the send, before
 * anything is signed. Adding a receiver takes two calls, the second carrying the address typed again:
 * the first alone, a mismatched address, or an id alone changes nothing. After a proper add and confirm
 * the transfers are quoted, sent and delivered to that address.
 *
 * Every request the app makes to the simulator's companions and chains goes through a recording fetch, so
 * "nothing quoted, signed or sent" is counted, not assumed.
 *
 * Each test sets the allowlist it starts from (none, or the one friend), so none relies on another having
 * run first (issue 37).
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferView } from '../../../src/shared/ipc.js';
import { openNodeSettings } from '../../../src/main/settings/settingsStore.js';
import { NATIVE_TOKEN_PLACEHOLDER } from '../../../src/shared/protocol/index.js';
import { defaultCompanionConfig } from '../../../src/sim/companion/index.js';
import { startSimulator } from '../../../src/sim/index.js';
import { AppHarness, FAST_SIM_CONFIG } from '../app/appHarness.js';
import { ETH, tokenOf } from './companionWorld.js';

const MAIN = 'PERPS_RECEIVERS_MAIN_KEY';
const FAST_PROTOCOLS = defaultCompanionConfig().protocols.map((p) => ({ ...p, etaSeconds: 1 }));

interface Sent {
  path: string;
  /** The JSON-RPC method, for requests to a chain. */
  method: string | null;
}

describe('bridges and swaps deliver only to the main wallet or an allowlisted receiver', () => {
  const main = Wallet.createRandom();
  const friend = Wallet.createRandom().address;
  const stranger = Wallet.createRandom().address;
  let h: AppHarness;
  /** Requests to the simulator's bridge, aggregator, points platform and chain RPCs (not the trading API). */
  const sent: Sent[] = [];
  const recording: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (/^\/(bridge|aggregator|platform|rpc)\//.test(url.pathname)) {
      let method: string | null = null;
      if (url.pathname.startsWith('/rpc/') && typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { method?: string } | { method?: string }[];
        method = (Array.isArray(body) ? body.map((b) => b.method).join(',') : body.method) ?? null;
      }
      sent.push({ path: url.pathname, method });
    }
    return fetch(input, init);
  };
  const origin = (): string => new URL(h.core.profile!.baseUrl).origin;
  async function fund(chain: string, amount: bigint, token?: string): Promise<void> {
    const res = await fetch(`${origin()}/sim/companion/rpc/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain, address: main.address, amount: amount.toString(), ...(token ? { token } : {}) }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }
  /** Asks a chain directly (not through the app), so the reads are not counted as the app's. */
  async function rpc(chain: string, method: string, params: unknown[]): Promise<bigint> {
    const res = await fetch(`${origin()}/rpc/${chain}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const body = (await res.json()) as { result: string };
    return BigInt(body.result);
  }
  const nativeBalance = (chain: string, who: string) => rpc(chain, 'eth_getBalance', [who, 'latest']);
  const tokenBalance = (chain: string, token: string, who: string) => rpc(chain, 'eth_call', [{ to: token, data: '0x70a08231' + who.slice(2).toLowerCase().padStart(64, '0') }, 'latest']);
  const final = (id: string): Promise<TransferView> =>
    // The simulator's clock is manual: the bridge order settles as the wait moves it.
    h.advanceUntil(`transfer ${id} final`, () => {
      const t = h
        .eventsOf<{ transfers: TransferView[] }>('transfers')
        .flatMap((e) => e.payload.transfers)
        .filter((x) => x.id === id)
        .at(-1);
      return t?.final ? t : undefined;
    }, 250);
  const bridgeRequest = (receiver?: string) => ({
    from_chain: 'arbitrum',
    to_chain: 'base',
    from_token: NATIVE_TOKEN_PLACEHOLDER,
    to_token: NATIVE_TOKEN_PLACEHOLDER,
    amount: '0.1',
    decimals: 18,
    protocols: ['rail_fast' as const],
    ...(receiver !== undefined ? { receiver } : {}),
  });
  const swapRequest = (receiver?: string) => ({
    chain: 'base',
    token_in: NATIVE_TOKEN_PLACEHOLDER,
    token_out: tokenOf('base', 'USDC'),
    amount: '0.05',
    decimals: 18,
    slippage: '0.005',
    ...(receiver !== undefined ? { receiver } : {}),
  });
  const receivers = async () => (await h.call('companion:listReceivers', {})).receivers;
  const transferCount = async () => (await h.call('transfers:list', {})).transfers.length;
  /** The allowlist emptied, through the app as a person would. */
  const noReceivers = async () => {
    for (const r of await receivers()) await h.call('companion:removeReceiver', { address: r.address });
    expect(await receivers()).toEqual([]);
  };
  /** The allowlist holding the friend alone, added and confirmed as a person would. */
  const onlyFriend = async () => {
    if ((await receivers()).map((r) => r.address).join() === friend) return;
    await noReceivers();
    const pending = await h.call('companion:addReceiver', { address: friend, label: 'Cold wallet' });
    await h.call('companion:confirmReceiver', { confirmation_id: pending.confirmation_id, address: friend });
    expect((await receivers()).map((r) => r.address)).toEqual([friend]);
  };

  beforeAll(async () => {
    h = await AppHarness.start('receivers', {
      env: { [MAIN]: main.privateKey },
      core: {
        fetch: recording,
        companion: { pollIntervalMs: 100, rpcPollingIntervalMs: 50 },
        startSimulator: ({ stateFile }) => startSimulator({ port: 0, seed: 21, stateFile, manualClock: true, config: { ...FAST_SIM_CONFIG, companion: { protocols: FAST_PROTOCOLS } } }),
      },
    });
    await h.call('wallet:connectEnv', { variable: MAIN });
    await h.call('companion:setPartnerCode', { code: 'perpsdesk' });
    await fund('arbitrum', ETH);
    await fund('base', ETH);
  });
  afterAll(async () => {
    await h.core.companion().settled();
    await h.stop();
    h.cleanup();
  });

  it('a bridge quote to another address is refused before the bridge or a chain is asked', async () => {
    const before = { sent: sent.length, transfers: await transferCount() };
    const err = await h.fail('bridge:quote', bridgeRequest(stranger));
    expect(err).toMatchObject({ code: 'VALIDATION', reason: 'RECEIVER_NOT_ALLOWED', field: 'receiver' });
    expect(err.message).toContain(stranger);
    expect(err.hint).toMatch(/Settings › Companion services › Receivers/);
    expect(sent.slice(before.sent)).toEqual([]);
    expect(await transferCount()).toBe(before.transfers);
    // The main wallet itself, named or by default, is always a receiver (and the bridge is then asked: the recording sees it).
    expect((await h.call('bridge:quote', bridgeRequest(main.address.toLowerCase()))).receiver).toBe(main.address);
    expect(sent.slice(before.sent).some((r) => r.path.startsWith('/bridge/'))).toBe(true);
    expect((await h.call('bridge:quote', bridgeRequest())).receiver).toBe(main.address);
  });

  it('a swap quote to another address is refused before the aggregator or a chain is asked', async () => {
    const before = sent.length;
    expect(await h.fail('swap:quote', swapRequest(stranger))).toMatchObject({ code: 'VALIDATION', reason: 'RECEIVER_NOT_ALLOWED', field: 'receiver' });
    expect(sent.slice(before)).toEqual([]);
    expect((await h.call('swap:quote', swapRequest())).receiver).toBe(main.address);
    expect(sent.slice(before).some((r) => r.path.startsWith('/aggregator/'))).toBe(true);
  });

  it('adding a receiver takes a confirmation with the address typed again; alone, mismatched or by id only it changes nothing', async () => {
    await noReceivers();
    const pending = await h.call('companion:addReceiver', { address: friend.toLowerCase(), label: ' Cold wallet ' });
    expect(pending).toMatchObject({ address: friend, label: 'Cold wallet' });
    expect(pending.warning).toMatch(/leave your wallet.*only add addresses you control or trust/);
    expect(pending.expires_at).toBeGreaterThan(Date.now());

    // The first step alone stores nothing: the receiver is still refused.
    expect(await receivers()).toEqual([]);
    expect((await h.fail('bridge:quote', bridgeRequest(friend))).reason).toBe('RECEIVER_NOT_ALLOWED');

    // A different address typed the second time is refused, and changes nothing.
    const mismatch = await h.fail('companion:confirmReceiver', { confirmation_id: pending.confirmation_id, address: stranger });
    expect(mismatch).toMatchObject({ code: 'VALIDATION', reason: 'RECEIVER_MISMATCH', field: 'address' });
    expect(await receivers()).toEqual([]);
    // The id alone is not a request main accepts, and no other key rides along.
    expect((await h.fail('companion:confirmReceiver', { confirmation_id: pending.confirmation_id })).code).toBe('INVALID_PAYLOAD');
    expect((await h.fail('companion:confirmReceiver', { confirmation_id: pending.confirmation_id, address: friend, confirmed: true })).code).toBe('INVALID_PAYLOAD');
    expect((await h.fail('companion:confirmReceiver', { confirmation_id: 'not-an-issued-id', address: friend })).reason).toBe('CONFIRMATION_UNKNOWN');
    expect(await receivers()).toEqual([]);

    // Main's own dialog (which a page can neither draw nor answer) asks once more; a "no" adds nothing
    // and spends the confirmation.
    h.nextConfirm = false;
    const declinedAsk = await h.call('companion:addReceiver', { address: friend, label: 'Cold wallet' });
    expect((await h.fail('companion:confirmReceiver', { confirmation_id: declinedAsk.confirmation_id, address: friend })).code).toBe('RECEIVER_NOT_CONFIRMED');
    expect(h.confirmations.at(-1)).toMatchObject({ message: expect.stringContaining(friend), detail: expect.stringMatching(/Cold wallet[\s\S]*only add addresses you control or trust/) });
    expect(await receivers()).toEqual([]);
    expect((await h.fail('companion:confirmReceiver', { confirmation_id: declinedAsk.confirmation_id, address: friend })).reason).toBe('CONFIRMATION_UNKNOWN');
    h.nextConfirm = true;

    // The same address typed again (case does not matter) and a yes in main's dialog add it; the
    // confirmation is then spent.
    const added = await h.call('companion:confirmReceiver', { confirmation_id: pending.confirmation_id, address: friend.toUpperCase().replace('0X', '0x') });
    expect(added.receivers).toEqual([{ address: friend, label: 'Cold wallet', added_at: expect.any(Number) }]);
    expect(await receivers()).toEqual(added.receivers);
    expect((await h.fail('companion:confirmReceiver', { confirmation_id: pending.confirmation_id, address: friend })).reason).toBe('CONFIRMATION_UNKNOWN');
    expect(h.logs.some((l) => l.includes(`receiver ${friend} (Cold wallet) added`))).toBe(true);
  });

  it('inputs that cannot be added are refused at the first step', async () => {
    await onlyFriend();
    expect((await h.fail('companion:addReceiver', { address: main.address, label: 'Me' })).reason).toBe('RECEIVER_IS_WALLET');
    expect((await h.fail('companion:addReceiver', { address: friend, label: 'Again' })).reason).toBe('RECEIVER_EXISTS');
    expect(await h.fail('companion:addReceiver', { address: stranger, label: '   ' })).toMatchObject({ code: 'VALIDATION', field: 'label' });
    expect(await h.fail('companion:addReceiver', { address: stranger, label: 'two\nlines' })).toMatchObject({ code: 'VALIDATION', field: 'label' });
    expect((await h.fail('companion:addReceiver', { address: '0x1234', label: 'Short' })).code).toBe('INVALID_PAYLOAD');
    expect((await h.fail('companion:removeReceiver', { address: stranger })).reason).toBe('RECEIVER_UNKNOWN');
    expect((await receivers()).map((r) => r.address)).toEqual([friend]);
  });

  it('a bridge to an allowlisted receiver is quoted, sent and delivered to it', async () => {
    await onlyFriend();
    const before = await nativeBalance('base', friend);
    const q = await h.call('bridge:quote', bridgeRequest(friend));
    expect(q).toMatchObject({ sender: main.address, receiver: friend });
    const t = await h.call('bridge:send', { quote_id: q.quote_id, quote_idx: q.routes[0]!.quote_idx });
    expect(await final(t.id)).toMatchObject({ phase: 'done', error: null });
    expect((await nativeBalance('base', friend)) - before).toBe(BigInt(q.routes[0]!.amount_out));
  });

  it('a swap to an allowlisted receiver is quoted, signed by the main wallet and delivered to it', async () => {
    await onlyFriend();
    const usdc = tokenOf('base', 'USDC');
    const before = await tokenBalance('base', usdc, friend);
    const q = await h.call('swap:quote', swapRequest(friend));
    expect(q.receiver).toBe(friend);
    const t = await h.call('swap:execute', { quote_id: q.quote_id });
    expect(await final(t.id)).toMatchObject({ phase: 'done', error: null });
    expect((await tokenBalance('base', usdc, friend)) - before).toBeGreaterThanOrEqual(BigInt(q.min_amount_out!));
  });

  it('a receiver removed after its quote is refused at the send: nothing is signed or sent', async () => {
    await onlyFriend();
    const bq = await h.call('bridge:quote', bridgeRequest(friend));
    const sq = await h.call('swap:quote', swapRequest(friend));
    expect((await h.call('companion:removeReceiver', { address: friend })).receivers).toEqual([]);
    const before = { sent: sent.length, transfers: await transferCount() };
    expect(await h.fail('bridge:send', { quote_id: bq.quote_id, quote_idx: bq.routes[0]!.quote_idx })).toMatchObject({ reason: 'RECEIVER_NOT_ALLOWED' });
    expect(await h.fail('swap:execute', { quote_id: sq.quote_id })).toMatchObject({ reason: 'RECEIVER_NOT_ALLOWED' });
    await h.core.companion().settled();
    expect(sent.slice(before.sent)).toEqual([]);
    expect(await transferCount()).toBe(before.transfers);
    expect((await h.fail('bridge:quote', bridgeRequest(friend))).reason).toBe('RECEIVER_NOT_ALLOWED');
  });

  it('the allowlist is stored per profile in the settings file, and a list that does not parse refuses, not empties', async () => {
    await noReceivers();
    const pending = await h.call('companion:addReceiver', { address: friend, label: 'Cold wallet' });
    await h.call('companion:confirmReceiver', { confirmation_id: pending.confirmation_id, address: friend });
    // The same settings file the app uses, opened as the command line would.
    const settings = openNodeSettings(h.dataDir);
    expect(settings.get('companion.sim.receivers')).toEqual([{ address: friend, label: 'Cold wallet', added_at: expect.any(Number) }]);
    expect(settings.get('companion.mainnet.receivers')).toBeUndefined();

    settings.set('companion.sim.receivers', [{ address: 'not an address', label: 'x', added_at: 1 }]);
    try {
      expect((await h.fail('companion:listReceivers', {})).code).toBe('RECEIVERS_UNREADABLE');
      const before = sent.length;
      expect((await h.fail('bridge:quote', bridgeRequest(friend))).code).toBe('RECEIVERS_UNREADABLE');
      expect(sent.slice(before)).toEqual([]);
      // The main wallet does not depend on the list.
      expect((await h.call('bridge:quote', bridgeRequest())).receiver).toBe(main.address);
    } finally {
      settings.delete('companion.sim.receivers');
    }
    expect(await receivers()).toEqual([]);
  });
});

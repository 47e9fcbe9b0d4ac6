/**
 * The bridge's error paths against the simulator over loopback, where a healthy run never goes: a
 * re-quote whose route disappeared or got worse than the floor, the bridge answering 5xx (retried) and
 * other 400s, a source transaction mined but reverted, a receipt that never comes, an RPC that does not
 * answer or is not there at all, no RPC URL on a non-sim profile, a token balance short of the amount;
 * and the transfer tracker through a bridge outage, after a failed receipt wait, and on a request to
 * follow again. The simulator cannot produce a lost receipt or a vanished route by itself: a JSON-RPC
 * proxy (bridgeRpcProxy.ts) and a fetch that edits one of the simulator's answers stand in for those.
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeClient } from '../../../src/main/api/companion/index.js';
import { DEFAULT_RECEIPT_TIMEOUT_MS, EvmRpcClient, redactUrl } from '../../../src/main/api/evm/evmRpc.js';
import { BridgeDesk } from '../../../src/main/app/companion/bridgeDesk.js';
import { TransferRuns } from '../../../src/main/app/companion/transferRuns.js';
import { RECEIPT_UNCONFIRMED, TransferTracker } from '../../../src/main/app/companion/transferTracker.js';
import { ProfileError, simProfile } from '../../../src/main/profiles/profiles.js';
import {
  bridgeStatus,
  encodeRoute,
  minimumOut,
  quoteBridge,
  sendBridge,
  validateQuoteInput,
  type BridgeQuoteInput,
} from '../../../src/main/services/bridge/index.js';
import { sendPreparedTransaction } from '../../../src/main/services/chains/sendTransaction.js';
import { companionFailure, createCompanionContext, probeRpcUrl } from '../../../src/main/services/companion/index.js';
import { OperationError, ValidationError, describeFailure } from '../../../src/main/services/errors.js';
import type { TransferView } from '../../../src/shared/ipc.js';
import { PROXY_KEY, RpcProxy, closedPort } from './bridgeRpcProxy.js';
import { CompanionWorld, ETH, routerOf, tokenOf } from './companionWorld.js';

let w: CompanionWorld;
let proxy: RpcProxy;
beforeAll(async () => {
  w = await CompanionWorld.boot('companion-bridge-failures');
  proxy = await RpcProxy.start(`${w.origin}/rpc`);
});
afterAll(async () => {
  await proxy?.stop();
  await w?.stop();
});

const alice = Wallet.createRandom().address;
const ethToBase = (over: Partial<BridgeQuoteInput> = {}): BridgeQuoteInput => ({
  fromChain: 'arbitrum',
  toChain: 'base',
  fromToken: 'native',
  toToken: 'native',
  amount: (ETH / 10n).toString(),
  protocols: ['rail_fast', 'rail_native_assets'],
  sender: alice,
  receiver: alice,
  source: 'perpsdesk',
  ...over,
});
const sendInput = (over: Partial<BridgeQuoteInput> = {}) => ethToBase({ sender: undefined, receiver: undefined, ...over });

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

async function operationError(p: Promise<unknown>): Promise<OperationError> {
  const err = await rejection(p);
  expect(err).toBeInstanceOf(OperationError);
  return err as OperationError;
}

type QuoteBody = { requestId?: string; data: { amountOut: string; crossProtocol: { id: string } }[] };

/**
 * The world's fetch, with the bridge's GET /quote answers after the first `passFirst` rewritten by `edit`
 * (the simulator's prices never move between two quotes; a real service's do).
 */
function editingQuotes(edit: (body: QuoteBody) => QuoteBody, passFirst = 1): typeof fetch {
  let quotes = 0;
  return async (input, init) => {
    const res = await w.fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (!url.pathname.endsWith('/quote') || ++quotes <= passFirst) return res;
    const body = edit((await res.json()) as QuoteBody);
    return new Response(JSON.stringify(body), { status: res.status, headers: { 'content-type': 'application/json' } });
  };
}

const onChainNonce = async (address: string, chain = 'arbitrum'): Promise<number> => {
  const p = new JsonRpcProvider(`${w.origin}/rpc/${chain}`, undefined, { cacheTimeout: -1, staticNetwork: true });
  try {
    return await p.getTransactionCount(address);
  } finally {
    p.destroy();
  }
};

describe("re-quotes after /encode's 'no quotes found'", () => {
  it('a route that disappeared from the re-quote is ROUTE_GONE, never swapped for another protocol', async () => {
    // The local clock does not see the simulated 30 s: only the service's answer reveals the expiry.
    const ctx = w.context({ wallClock: true, fetch: editingQuotes((b) => ({ ...b, data: b.data.filter((d) => d.crossProtocol.id !== 'rail_native_assets') })) });
    const deps = { bridge: ctx.bridge, now: () => ctx.now() };
    const q = await quoteBridge(deps, ethToBase());
    const chosen = q.routes.find((r) => r.protocol === 'rail_native_assets')!;
    await w.advance(30_000);
    const from = w.requests.length;
    const err = await operationError(encodeRoute(deps, q, chosen));
    expect(err.code).toBe('ROUTE_GONE');
    expect(err.message).toContain('rail_native_assets');
    // Expired encode, the re-quote, and no second encode of some other route.
    expect(w.sent('/bridge/v1', from).map((x) => `${x.method} ${x.path.split('?')[0]} ${x.status}`)).toEqual(['POST /bridge/v1/encode 400', 'GET /bridge/v1/quote 200']);
  });

  it('a re-quote at the floor (first amountOut less the slippage) is taken; one unit below is ROUTE_WORSENED', async () => {
    const slippageBps = 50;
    let floor = 0n;
    const lowerTo = (delta: bigint) => (b: QuoteBody): QuoteBody => ({ ...b, data: b.data.map((d) => (d.crossProtocol.id === 'rail_fast' ? { ...d, amountOut: (floor - delta).toString() } : d)) });

    for (const [delta, outcome] of [
      [0n, 'taken'],
      [1n, 'ROUTE_WORSENED'],
    ] as const) {
      const ctx = w.context({ wallClock: true, fetch: editingQuotes((b) => lowerTo(delta)(b)) });
      const deps = { bridge: ctx.bridge, now: () => ctx.now() };
      const q = await quoteBridge(deps, ethToBase({ protocols: ['rail_fast'], slippageBps }));
      const route = q.ranked[0]!;
      floor = minimumOut(route.amountOut, slippageBps);
      await w.advance(30_000);
      const from = w.requests.length;
      if (outcome === 'taken') {
        const e = await encodeRoute(deps, q, route);
        expect(e.requotes).toBe(1);
        expect(e.route.amountOut).toBe(floor.toString());
        continue;
      }
      const err = await operationError(encodeRoute(deps, q, route));
      expect(err.code).toBe('ROUTE_WORSENED');
      expect(err.details).toEqual({ first_amount_out: route.amountOut, new_amount_out: (floor - 1n).toString() });
      // Refused before any transaction exists: no encode of the worse route.
      expect(w.sent('/bridge/v1/encode', from).filter((x) => x.status === 200)).toEqual([]);
    }
  });
});

describe('bridge answers other than a quote', () => {
  it('a 5xx is retried and the retry succeeds; a 5xx that lasts is BRIDGE_UNAVAILABLE after the retry budget', async () => {
    let failures = 0;
    let left = 1;
    const flaky: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (url.pathname.endsWith('/quote') && left > 0) {
        left--;
        failures++;
        return new Response(JSON.stringify({ error: 'upstream unavailable' }), { status: 503, headers: { 'content-type': 'application/json' } });
      }
      return w.fetch(input, init);
    };
    const ctx = w.context({ fetch: flaky });
    const q = await quoteBridge({ bridge: ctx.bridge, now: () => ctx.now() }, ethToBase());
    expect(failures).toBe(1);
    expect(q.routes.length).toBeGreaterThan(0);

    left = Number.POSITIVE_INFINITY;
    failures = 0;
    const err = await operationError(quoteBridge({ bridge: ctx.bridge, now: () => ctx.now() }, ethToBase()));
    expect(err.code).toBe('BRIDGE_UNAVAILABLE');
    expect(err.status).toBe(503);
    // The world's budget: three attempts.
    expect(failures).toBe(3);
  });

  it('400 for a quoteIdx out of range is BRIDGE_REJECTED with the service message, sent once', async () => {
    const ctx = w.context();
    const deps = { bridge: ctx.bridge, now: () => ctx.now() };
    const q = await quoteBridge(deps, ethToBase());
    const from = w.requests.length;
    const err = await operationError(encodeRoute(deps, q, { ...q.ranked[0]!, quoteIdx: 99 }));
    expect(err.code).toBe('BRIDGE_REJECTED');
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/invalid quoteIdx/);
    expect(w.sent('/bridge/v1', from)).toHaveLength(1);
  });

  it('slippage: 10000 (100%) is quoted by the service with a zero minimum; 10001 is refused locally, nothing sent', async () => {
    const ctx = w.context();
    const deps = { bridge: ctx.bridge, now: () => ctx.now() };
    const whole = await quoteBridge(deps, ethToBase({ slippageBps: 10_000 }));
    expect(whole.routes.length).toBeGreaterThan(0);
    expect(minimumOut(whole.ranked[0]!.amountOut, 10_000)).toBe(0n);
    expect((whole.routes[0]!.element as unknown as { minAmountOut: string }).minAmountOut).toBe('0');
    const from = w.requests.length;
    const err = await rejection(quoteBridge(deps, ethToBase({ slippageBps: 10_001 })));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).field).toBe('slippage');
    expect(w.requests.slice(from)).toEqual([]);
  });
});

describe('the source chain', () => {
  it('an RPC URL nothing answers on (closed loopback port) is RPC_UNREACHABLE; its key is in no message; the bridge is not asked', async () => {
    const { signer } = w.envSigner();
    const url = `http://127.0.0.1:${await closedPort()}/v3/${PROXY_KEY}/arbitrum`;
    const from = w.requests.length;
    const err = await operationError(sendBridge(w.context({ rpcUrls: { arbitrum: url } }), { ...sendInput(), signer }));
    expect(err.code).toBe('RPC_UNREACHABLE');
    expect(err.message).toContain(redactUrl(url));
    expect(`${err.message} ${err.hint ?? ''} ${JSON.stringify(describeFailure(err))}`).not.toContain(PROXY_KEY);
    expect(w.sent('/bridge/v1', from)).toEqual([]);
    // The same probe the settings use refuses to store it, with the same redaction.
    const probe = await operationError(probeRpcUrl('arbitrum', url, { timeoutMs: 2_000 }));
    expect(probe.code).toBe('RPC_UNREACHABLE');
    expect(probe.message).not.toContain(PROXY_KEY);
  });

  it('an RPC that takes no answer back in time is RPC_UNREACHABLE (a request timeout, not a receipt timeout)', async () => {
    const { wallet } = w.envSigner();
    const rpc = await EvmRpcClient.open({ chain: 'arbitrum', url: proxy.url('arbitrum'), timeoutMs: 300, pollingIntervalMs: 50 });
    proxy.hook = (c) => (c.method === 'eth_getBalance' ? 'hang' : undefined);
    try {
      const err = await rejection(rpc.balance(wallet.address));
      const d = describeFailure(companionFailure(err));
      expect(d.code).toBe('RPC_UNREACHABLE');
      expect(d.message).not.toContain(PROXY_KEY);
    } finally {
      proxy.hook = null;
      rpc.destroy();
    }
  });

  it('no RPC URL set on a non-sim profile: PROFILE_NOT_CONFIGURED (exit 2) saying how to set one; nothing sent', async () => {
    const { signer } = w.envSigner();
    const profile = { ...simProfile(w.sim.urls, w.dataDir), name: 'mainnet' as const };
    const ctx = createCompanionContext({ profile, settings: w.settings }, { fetch: w.fetch, urls: { bridge: w.sim.urls.bridge_url, platform: w.sim.urls.platform_url }, env: {} });
    const from = w.requests.length;
    const err = await rejection(sendBridge(ctx, { ...sendInput(), signer }));
    expect(err).toBeInstanceOf(ProfileError);
    const d = describeFailure(err);
    expect(d).toMatchObject({ code: 'PROFILE_NOT_CONFIGURED', exitCode: 2 });
    expect(d.hint).toMatch(/PERPS_RPC_URL_ARBITRUM|bridge rpc set/);
    expect(w.requests.slice(from)).toEqual([]);
  });

  it('a token balance short of the amount is INSUFFICIENT_FUNDS before the approve: zero transactions sent', async () => {
    const { wallet, signer } = w.envSigner();
    const usdc = tokenOf('arbitrum', 'USDC');
    await w.fund('arbitrum', wallet.address, ETH / 100n);
    await w.fund('arbitrum', wallet.address, 100_000_000n, usdc);
    const before = proxy.count('eth_sendRawTransaction');
    const err = await operationError(
      sendBridge(w.context({ rpcUrls: { arbitrum: proxy.url('arbitrum') } }), { fromChain: 'arbitrum', toChain: 'base', fromToken: usdc, toToken: tokenOf('base', 'USDC'), amount: '250000000', protocols: ['rail_canonical'], signer }),
    );
    expect(err.code).toBe('INSUFFICIENT_FUNDS');
    expect(err.details).toMatchObject({ token: usdc, balance: '100000000', needed: '250000000' });
    expect(err.hint).toMatch(/nothing was signed or sent/);
    expect(proxy.count('eth_sendRawTransaction') - before).toBe(0);
    expect(await onChainNonce(wallet.address)).toBe(0);
  });

  it('the gas token must cover the approve and the value the transfer then carries: refused before the approve, zero transactions', async () => {
    const { wallet, signer } = w.envSigner();
    const usdc = tokenOf('arbitrum', 'USDC');
    // Enough for the approve's gas alone, not for it plus the 0.01 ETH the prepared transaction carries.
    await w.fund('arbitrum', wallet.address, 10n ** 15n);
    await w.fund('arbitrum', wallet.address, 250_000_000n, usdc);
    const rpc = await w.context({ rpcUrls: { arbitrum: proxy.url('arbitrum') } }).rpc('arbitrum');
    const before = proxy.count('eth_sendRawTransaction');
    try {
      const tx = { to: routerOf('arbitrum', 'bridge'), value: (10n ** 16n).toString(), data: '0x' };
      const err = await operationError(sendPreparedTransaction({ rpc, signer, tx, approval: { token: usdc, amount: 250_000_000n } }));
      expect(err.code).toBe('INSUFFICIENT_FUNDS');
      expect(err.message).toMatch(/approval and the 10000000000000000 wei the transfer then carries/);
      expect(proxy.count('eth_sendRawTransaction') - before).toBe(0);
    } finally {
      rpc.destroy();
    }
  });

  it('a source transaction mined but reverted is TX_REVERTED with its hash; the bridge never sees an order', async () => {
    const { wallet, signer } = w.envSigner();
    await w.fund('arbitrum', wallet.address, ETH);
    const router = routerOf('arbitrum', 'bridge').toLowerCase();
    // Too little gas for the router (but enough to be accepted): the transaction is mined and runs out of gas.
    proxy.hook = (c) => (c.method === 'eth_estimateGas' && String((c.params[0] as { to?: string }).to).toLowerCase() === router ? { result: '0x7530' } : undefined);
    try {
      const err = await operationError(sendBridge(w.context({ rpcUrls: { arbitrum: proxy.url('arbitrum') } }), { ...sendInput(), signer }));
      expect(err.code).toBe('TX_REVERTED');
      const hash = err.details?.['tx_hash'] as string;
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(err.message).toContain(hash);
      expect(await onChainNonce(wallet.address)).toBe(1);
      expect((await bridgeStatus(w.context(), hash)).state).toBe('unseen');
    } finally {
      proxy.hook = null;
    }
  });

  it('a receipt that never comes is RECEIPT_TIMEOUT naming the sent hash (details tx_hash, tx main); the order is at the bridge', async () => {
    const { wallet, signer } = w.envSigner();
    await w.fund('arbitrum', wallet.address, ETH);
    proxy.hook = (c) => (c.method === 'eth_getTransactionReceipt' ? { result: null } : undefined);
    try {
      const started = Date.now();
      const err = await operationError(sendBridge(w.context({ rpcUrls: { arbitrum: proxy.url('arbitrum') } }), { ...sendInput(), signer, receiptTimeoutMs: 400 }));
      expect(err.code).toBe('RECEIPT_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(DEFAULT_RECEIPT_TIMEOUT_MS);
      const hash = err.details?.['tx_hash'] as string;
      expect(err.details).toMatchObject({ tx: 'main' });
      expect(err.message).toContain(hash);
      expect(err.message).not.toContain(PROXY_KEY);
      expect(err.hint).toMatch(/bridge track --src-tx/);
      expect(proxy.count('eth_getTransactionReceipt')).toBeGreaterThan(1);
      expect((await bridgeStatus(w.context(), hash)).state).toBe('pending');
    } finally {
      proxy.hook = null;
    }
  });
});

describe('the transfer tracker', () => {
  const logs: string[] = [];
  const logger = { info: (m: string) => logs.push(`info ${m}`), warn: (m: string) => logs.push(`warn ${m}`), error: (m: string) => logs.push(`error ${m}`) };
  let clock = 1_000_000;
  const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

  function tracker(bridge: () => BridgeClient, storeKey: string): TransferTracker {
    return new TransferTracker({ settings: w.settings, storeKey, emit: () => undefined, bridge, sleep: realSleep, now: () => clock, logger, pollIntervalMs: 20, throttleMs: 1 });
  }

  async function until<T>(what: string, check: () => T | undefined | false): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const v = check();
      if (v !== undefined && v !== false) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await realSleep(20);
    }
  }

  async function sentBridge(): Promise<string> {
    const { wallet, signer } = w.envSigner();
    await w.fund('arbitrum', wallet.address, ETH);
    return (await sendBridge(w.context(), { ...sendInput({ protocols: ['rail_fast'] }), signer })).srcTx;
  }

  const view = (t: TransferTracker, id: string): TransferView => t.get(id)!;

  it('a bridge that cannot be reached shows poll_error (since the first failure), logged once; the next good read clears it', async () => {
    const srcTx = await sentBridge();
    const ctx = w.context();
    const down = new BridgeClient({ baseUrl: `http://127.0.0.1:${await closedPort()}/bridge/v1`, retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
    let bridge: BridgeClient = down;
    const t = tracker(() => bridge, 'test.transfers.outage');
    const created = t.create({ kind: 'bridge', phase: 'tracking', src_tx: srcTx, from_chain: 'arbitrum', to_chain: 'base', from_token: 'native', to_token: 'native', amount_units: null, protocol: null, expected_out: null });
    logs.length = 0;
    const firstFailure = clock;
    t.follow(created.id);
    const failing = await until('poll_error', () => view(t, created.id).poll_error ?? undefined);
    expect(failing).toMatchObject({ code: 'NETWORK_ERROR', since: firstFailure });
    expect(failing.message).toMatch(/network error/);
    expect(failing.hint).toBeTruthy();
    expect(view(t, created.id)).toMatchObject({ phase: 'tracking', final: false, error: null });
    // Later failures of the same outage keep the streak's start and are not logged again.
    clock += 60_000;
    const polls = logs.length;
    await realSleep(200);
    expect(view(t, created.id).poll_error?.since).toBe(firstFailure);
    expect(logs.filter((l) => l.startsWith('warn') && l.includes('polling the bridge order'))).toHaveLength(1);
    expect(logs.length).toBe(polls);

    bridge = ctx.bridge;
    const back = await until('a good read', () => (view(t, created.id).poll_error === null ? view(t, created.id) : undefined));
    expect(back).toMatchObject({ phase: 'tracking', bridge_state: 'pending', bridge_orders: 1 });
    await w.forceOutcome({ src_tx: srcTx }, 'done');
    await w.advance(60_000);
    expect(await until('done', () => (view(t, created.id).final ? view(t, created.id) : undefined))).toMatchObject({ phase: 'done', poll_error: null });
    t.close();
  });

  it('after a failed receipt wait the order is followed, the note kept until the bridge lists the order', async () => {
    const ctx = w.context();
    const t = tracker(() => ctx.bridge, 'test.transfers.receipt');
    // The hash of a transaction the bridge has not seen (yet): the note stays while the order is unseen.
    const unseen = '0x' + 'cd'.repeat(32);
    const a = t.create({ kind: 'bridge', from_chain: 'arbitrum', to_chain: 'base', from_token: 'native', to_token: 'native', amount_units: '1', protocol: 'rail_fast', expected_out: '1' });
    t.update(a.id, { phase: 'confirming', src_tx: unseen });
    const receiptFailure = new OperationError('RECEIPT_TIMEOUT', `arbitrum: no receipt for the transaction ${unseen} within 1 s`, { details: { tx_hash: unseen, tx: 'main' } });
    const followed = t.followAfterSendFailure(a.id, receiptFailure);
    expect(followed).toMatchObject({ phase: 'tracking', final: false, bridge_state: 'unseen', error: null });
    expect(followed.poll_error).toMatchObject({ code: RECEIPT_UNCONFIRMED, since: clock });
    expect(followed.poll_error?.message).toContain('RECEIPT_TIMEOUT');
    await realSleep(200);
    expect(view(t, a.id).poll_error?.code).toBe(RECEIPT_UNCONFIRMED);

    // One the bridge has seen: the first good read lists it and clears the note.
    const srcTx = await sentBridge();
    const b = t.create({ kind: 'bridge', from_chain: 'arbitrum', to_chain: 'base', from_token: 'native', to_token: 'native', amount_units: '1', protocol: 'rail_fast', expected_out: '1' });
    t.update(b.id, { phase: 'confirming', src_tx: srcTx });
    t.followAfterSendFailure(b.id, receiptFailure);
    expect(await until('listed', () => (view(t, b.id).bridge_state === 'pending' ? view(t, b.id) : undefined))).toMatchObject({ poll_error: null, phase: 'tracking' });
    t.close();
  });

  it('bridge:track follows again a transfer that ended in error after its source transaction was sent; a reverted one stays as it is', async () => {
    const ctx = w.context();
    const t = tracker(() => ctx.bridge, 'test.transfers.refollow');
    const desk = new BridgeDesk({ companion: ctx, tracker: t, wallet: null as never, logger }, new TransferRuns(t));
    const srcTx = await sentBridge();
    // As an older version left it: the receipt wait failed and the transfer was ended.
    const old = t.create({ kind: 'bridge', from_chain: 'arbitrum', to_chain: 'base', from_token: 'native', to_token: 'native', amount_units: '1', protocol: 'rail_fast', expected_out: '1' });
    t.update(old.id, { phase: 'confirming', src_tx: srcTx });
    t.fail(old.id, new OperationError('RECEIPT_TIMEOUT', 'arbitrum: no receipt yet'));
    expect(view(t, old.id)).toMatchObject({ phase: 'error', final: true });

    const again = desk.track({ src_tx: srcTx.toUpperCase().replace('0X', '0x') });
    expect(again).toMatchObject({ id: old.id, phase: 'tracking', final: false, error: null });
    expect(again.poll_error).toMatchObject({ code: RECEIPT_UNCONFIRMED });
    expect(again.steps.map((s) => s.phase)).toEqual(['preparing', 'confirming', 'error', 'tracking']);
    await until('listed', () => view(t, old.id).bridge_state === 'pending');
    await w.forceOutcome({ src_tx: srcTx }, 'done');
    await w.advance(60_000);
    expect(await until('done', () => (view(t, old.id).final ? view(t, old.id) : undefined))).toMatchObject({ phase: 'done', poll_error: null, error: null });

    const revertedTx = '0x' + 'ef'.repeat(32);
    const reverted = t.create({ kind: 'bridge', from_chain: 'arbitrum', to_chain: 'base', from_token: 'native', to_token: 'native', amount_units: '1', protocol: 'rail_fast', expected_out: '1' });
    t.update(reverted.id, { phase: 'confirming', src_tx: revertedTx });
    t.fail(reverted.id, new OperationError('TX_REVERTED', 'arbitrum: the transaction was mined but reverted'));
    expect(desk.track({ src_tx: revertedTx })).toMatchObject({ id: reverted.id, phase: 'error', final: true, error: { code: 'TX_REVERTED' } });
    // A done transfer is answered as it is, too.
    expect(desk.track({ src_tx: srcTx })).toMatchObject({ id: old.id, phase: 'done' });
    t.close();
  });
});

describe('inputs checked before anything is sent', () => {
  it('validateQuoteInput refuses a slippage above 10000 bps with the field named', () => {
    expect(() => validateQuoteInput({ ...ethToBase(), slippageBps: 10_001 })).toThrow(/slippage: '10001' is not a slippage/);
    expect(validateQuoteInput({ ...ethToBase(), slippageBps: 10_000 }).slippageBps).toBe(10_000);
  });
});

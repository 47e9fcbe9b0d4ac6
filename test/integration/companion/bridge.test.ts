/**
 * The bridge client and the bridge service against the simulator over loopback: typed errors for the
 * spec's two 400 messages, the core-spot rules refused before the service is asked (no request sent),
 * route ranking, the requestId's 30 seconds (re-quote on `no quotes found`, driven by the sim's manual
 * clock), and transfers signed by env and keystore transaction signers, sent through the sim's JSON-RPC and
 * tracked to done, refunded and failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { JsonRpcProvider, Wallet, encryptKeystoreJson } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeChainNotFoundError, BridgeClient, BridgeNoQuotesError } from '../../../src/main/api/companion/index.js';
import { DecodeError } from '../../../src/shared/protocol/index.js';
import {
  chooseRoute,
  encodeRoute,
  quoteBridge,
  rankRoutes,
  sendBridge,
  trackBridgeOrder,
  unsuccessfulBridgeError,
  bridgeStatus,
  type BridgeQuoteInput,
  type BridgeRoute,
} from '../../../src/main/services/bridge/index.js';
import { OperationError, ValidationError } from '../../../src/main/services/errors.js';
import { WalletTransactionSigner } from '../../../src/main/signers/transactions/index.js';
import { NATIVE_TOKEN_PLACEHOLDER } from '../../../src/shared/protocol/index.js';
import { CompanionWorld, ETH, tokenOf } from './companionWorld.js';

let w: CompanionWorld;
beforeAll(async () => {
  w = await CompanionWorld.boot('companion-bridge');
});
afterAll(async () => {
  await w?.stop();
});

const alice = Wallet.createRandom().address;
const ethToBase = (over: Partial<BridgeQuoteInput> = {}): BridgeQuoteInput => ({
  fromChain: 'arbitrum',
  toChain: 'base',
  fromToken: 'native',
  toToken: 'native',
  amount: (ETH / 10n).toString(),
  protocols: ['rail_fast', 'rail_native_assets', 'rail_size'],
  sender: alice,
  receiver: alice,
  source: 'perpsdesk',
  ...over,
});

async function expectRejected<E extends Error>(p: Promise<unknown>, cls: new (...args: never[]) => E): Promise<E> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(cls);
  return err as E;
}

describe('bridge client', () => {
  it('quotes with a requestId when sender and receiver are given, and only rates without', async () => {
    const client = new BridgeClient({ baseUrl: w.sim.urls.bridge_url, fetch: w.fetch });
    const q = await client.quote({ fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN_PLACEHOLDER, toToken: NATIVE_TOKEN_PLACEHOLDER, amount: ETH.toString(), protocols: ['rail_fast'], sender: alice, receiver: alice, slippage: 50 });
    expect(q.requestId).toMatch(/\S/);
    expect(q.data[0]).toMatchObject({ crossProtocol: { id: 'rail_fast' } });
    expect(q.data[0]?.amountOut).toMatch(/^\d+$/);
    const rates = await client.quote({ fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN_PLACEHOLDER, toToken: NATIVE_TOKEN_PLACEHOLDER, amount: ETH.toString(), protocols: ['rail_fast'] });
    expect(rates.requestId).toBeUndefined();
    const sent = w.requests.at(-2);
    expect(sent?.path).toContain('protocols=rail_fast');
    expect(sent?.path).toContain('slippage=50');
  });

  it("400 'chain not found' is BridgeChainNotFoundError", async () => {
    const client = new BridgeClient({ baseUrl: w.sim.urls.bridge_url, fetch: w.fetch });
    const from = w.requests.length;
    const err = await expectRejected(client.quote({ fromChain: 'solana', toChain: 'base', fromToken: NATIVE_TOKEN_PLACEHOLDER, toToken: NATIVE_TOKEN_PLACEHOLDER, amount: '1', protocols: ['rail_fast'] }), BridgeChainNotFoundError);
    expect(err.status).toBe(400);
    expect(err.serverMessage).toBe('chain not found');
    // A 400 is never retried: one request.
    expect(w.sent('/bridge/v1', from)).toHaveLength(1);
  });

  it("400 'no quotes found' on /encode after the requestId's 30 seconds is BridgeNoQuotesError", async () => {
    const client = new BridgeClient({ baseUrl: w.sim.urls.bridge_url, fetch: w.fetch });
    const q = await client.quote({ fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN_PLACEHOLDER, toToken: NATIVE_TOKEN_PLACEHOLDER, amount: ETH.toString(), protocols: ['rail_fast'], sender: alice, receiver: alice });
    await w.advance(30_000);
    const err = await expectRejected(client.encode(q.requestId!, 0), BridgeNoQuotesError);
    expect(err.serverMessage).toBe('no quotes found');
    await expectRejected(client.encode('not-a-request-id', 0), BridgeNoQuotesError);
  });

  it('encode answers { to, value, data } and a new requestId; an unseen source transaction has no orders', async () => {
    const client = new BridgeClient({ baseUrl: w.sim.urls.bridge_url, fetch: w.fetch });
    const q = await client.quote({ fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN_PLACEHOLDER, toToken: NATIVE_TOKEN_PLACEHOLDER, amount: ETH.toString(), protocols: ['rail_fast'], sender: alice, receiver: alice });
    const e = await client.encode(q.requestId!, 0);
    expect(e.status).toBe('ok');
    expect(e.requestId).not.toBe(q.requestId);
    expect(e.data.to).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(BigInt(e.data.value)).toBe(ETH);
    expect(await client.orders('0x' + 'ab'.repeat(32))).toEqual({ orders: [] });
  });

  it('a response that does not match the shape is a DecodeError naming the field', async () => {
    const fake: typeof fetch = async () => new Response(JSON.stringify({ requestId: 'x', data: [{ amountOut: 12.5, crossProtocol: { id: 'rail_fast' } }] }), { status: 200 });
    const client = new BridgeClient({ baseUrl: 'http://127.0.0.1:9/v1', fetch: fake });
    const err = await expectRejected(client.quote({ fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN_PLACEHOLDER, toToken: NATIVE_TOKEN_PLACEHOLDER, amount: '1', protocols: ['rail_fast'] }), DecodeError);
    expect(err.message).toMatch(/data\[0\]\.amountOut/);
  });
});

describe('core-spot flow rules, checked before the service is asked', () => {
  const coreUsdc = tokenOf('venue_core', 'USDC');
  const evmUsdc = tokenOf('venue_evm', 'USDC');
  const coreSpot = (over: Partial<BridgeQuoteInput>): BridgeQuoteInput => ({
    fromChain: 'venue_evm',
    toChain: 'venue_core',
    fromToken: 'native',
    toToken: coreUsdc,
    amount: (5n * ETH).toString(),
    protocols: ['core_spot_swap'],
    sender: alice,
    receiver: alice,
    source: 'perpsdesk',
    ...over,
  });

  it.each([
    ['fromChain is not venue_evm', { fromChain: 'arbitrum' }, 'CORE_SPOT_RULE', /starts on venue_evm/],
    ['toChain is neither venue_core nor venue_evm', { toChain: 'base', toToken: 'native' }, 'CORE_SPOT_RULE', /ends on venue_core or venue_evm/],
    ['no partner code in source', { source: undefined }, 'CORE_SPOT_RULE', /partner code/],
    ['venue_core with an address instead of a venue token id', { toToken: evmUsdc }, 'VALIDATION_ERROR', /venue token id/],
    ['venue_evm without a USD value', { toChain: 'venue_evm', toToken: evmUsdc }, 'USD_VALUE_REQUIRED', /USD value/],
    ['venue_evm worth less than 100 USD', { toChain: 'venue_evm', toToken: evmUsdc, sourceUsdValue: '99.99' }, 'CORE_SPOT_MINIMUM', /at least 100 USD/],
  ] as const)('%s: refused, nothing sent', async (_name, over, code, message) => {
    const ctx = w.context();
    const from = w.requests.length;
    const input = { ...coreSpot({}), ...over } as BridgeQuoteInput;
    const err = await expectRejected(quoteBridge({ bridge: ctx.bridge, now: () => ctx.now() }, input), ValidationError);
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
    expect(w.requests.slice(from)).toEqual([]);
  });

  it('the 100 USD minimum can come from the caller\'s price source (never a built-in price)', async () => {
    const ctx = w.context();
    const from = w.requests.length;
    const asked: unknown[] = [];
    const input = coreSpot({ toChain: 'venue_evm', toToken: evmUsdc, priceSource: async (q) => (asked.push(q), '42.5') });
    const err = await expectRejected(quoteBridge({ bridge: ctx.bridge, now: () => ctx.now() }, input), ValidationError);
    expect(err.code).toBe('CORE_SPOT_MINIMUM');
    expect(asked).toEqual([{ chain: 'venue_evm', token: NATIVE_TOKEN_PLACEHOLDER, amount: (5n * ETH).toString() }]);
    expect(w.requests.slice(from)).toEqual([]);
  });

  it('requests that follow the rules are quoted: to venue_core with a token id, to venue_evm at 100 USD or more', async () => {
    const ctx = w.context();
    const deps = { bridge: ctx.bridge, now: () => ctx.now() };
    const core = await quoteBridge(deps, coreSpot({}));
    expect(core.coreSpot).toBe(true);
    expect(core.ranked[0]?.protocol).toBe('core_spot_swap');
    const evm = await quoteBridge(deps, coreSpot({ toChain: 'venue_evm', toToken: evmUsdc, sourceUsdValue: '200' }));
    expect(evm.sourceUsdValue).toBe('200');
    expect(evm.routes.length).toBeGreaterThan(0);
  });

  it('an uppercase or malformed chain id is refused locally; an unknown lowercase id is the service\'s `chain not found`', async () => {
    const ctx = w.context();
    const deps = { bridge: ctx.bridge, now: () => ctx.now() };
    const from = w.requests.length;
    await expectRejected(quoteBridge(deps, ethToBase({ fromChain: 'Arbitrum' })), ValidationError);
    await expectRejected(quoteBridge(deps, ethToBase({ amount: '1.5' })), ValidationError);
    await expectRejected(quoteBridge(deps, ethToBase({ protocols: ['rail_teleport'] })), ValidationError);
    expect(w.requests.slice(from)).toEqual([]);
    const err = await expectRejected(quoteBridge(deps, ethToBase({ toChain: 'solana' })), OperationError);
    expect(err.code).toBe('CHAIN_NOT_FOUND');
    expect(err.cause).toBeInstanceOf(BridgeChainNotFoundError);
    expect(w.sent('/bridge/v1', from)).toHaveLength(1);
  });
});

describe('routes', () => {
  const r = (quoteIdx: number, protocol: string, amountOut: string): BridgeRoute => ({ quoteIdx, protocol, amountOut, element: { amountOut, crossProtocol: { id: protocol } } });

  it('rank by amountOut as integers, then by the order the protocols were asked in', () => {
    const routes = [r(0, 'rail_size', '99999999999999999999'), r(1, 'rail_fast', '100000000000000000000'), r(2, 'rail_gas', '100000000000000000000')];
    expect(rankRoutes(routes).map((x) => x.protocol)).toEqual(['rail_fast', 'rail_gas', 'rail_size']);
    expect(rankRoutes(routes, ['rail_gas', 'rail_fast']).map((x) => x.protocol)).toEqual(['rail_gas', 'rail_fast', 'rail_size']);
    expect(chooseRoute(routes, { protocol: 'rail_size' }).quoteIdx).toBe(0);
    expect(() => chooseRoute(routes, { protocol: 'rail_canonical' })).toThrow(ValidationError);
    expect(() => chooseRoute([])).toThrow(OperationError);
  });

  it('a real quote: every route keeps its quoteIdx, best first', async () => {
    const ctx = w.context();
    const q = await quoteBridge({ bridge: ctx.bridge, now: () => ctx.now() }, ethToBase());
    expect(q.routes.map((x) => x.quoteIdx)).toEqual(q.routes.map((_, i) => i));
    const outs = q.ranked.map((x) => BigInt(x.amountOut));
    expect([...outs].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(outs);
  });
});

describe("encoding within the requestId's 30 seconds", () => {
  it("re-quotes the same parameters when /encode answers 'no quotes found' (the service's clock ran out)", async () => {
    // The local clock does not see the simulated 30 s: only the service's answer reveals the expiry.
    const ctx = w.context({ wallClock: true });
    const deps = { bridge: ctx.bridge, now: () => ctx.now() };
    const q = await quoteBridge(deps, ethToBase());
    const route = q.ranked[0]!;
    const from = w.requests.length;
    await w.advance(30_000);
    const requotes: string[] = [];
    const e = await encodeRoute(deps, q, route, { onRequote: (i) => requotes.push(i.reason) });
    expect(requotes).toEqual(['no_quotes_found']);
    expect(e.requotes).toBe(1);
    expect(e.route.protocol).toBe(route.protocol);
    const sent = w.sent('/bridge/v1', from).map((x) => `${x.method} ${x.path.split('?')[0]} ${x.status}`);
    expect(sent).toEqual(['POST /bridge/v1/encode 400', 'GET /bridge/v1/quote 200', 'POST /bridge/v1/encode 200']);
    // The re-quote repeats the first query exactly.
    const quotes = w.requests.filter((x) => x.path.startsWith('/bridge/v1/quote'));
    expect(quotes.at(-1)?.path).toBe(quotes.at(-2)?.path);
  });

  it('renews a quote about to expire by the local clock before asking /encode', async () => {
    const ctx = w.context();
    const deps = { bridge: ctx.bridge, now: () => ctx.now() };
    const q = await quoteBridge(deps, ethToBase());
    const from = w.requests.length;
    await w.advance(26_000);
    const e = await encodeRoute(deps, q, q.ranked[0]!);
    expect(e.requotes).toBe(1);
    expect(w.sent('/bridge/v1', from).map((x) => `${x.method} ${x.path.split('?')[0]} ${x.status}`)).toEqual(['GET /bridge/v1/quote 200', 'POST /bridge/v1/encode 200']);
  });

  it('gives up with QUOTE_EXPIRED when the budget of re-quotes is spent', async () => {
    const ctx = w.context({ wallClock: true });
    const deps = { bridge: ctx.bridge, now: () => ctx.now() };
    const q = await quoteBridge(deps, ethToBase());
    await w.advance(30_000);
    const err = await expectRejected(encodeRoute(deps, q, q.ranked[0]!, { maxRequotes: 0 }), OperationError);
    expect(err.code).toBe('QUOTE_EXPIRED');
    expect(err.cause).toBeInstanceOf(BridgeNoQuotesError);
  });
});

describe('send and track', () => {
  it('native ETH arbitrum -> base: env signer, sim JSON-RPC, re-quoted after 30 s mid-flow, tracked to done', async () => {
    const ctx = w.context({ wallClock: true });
    const { wallet, signer, warnings } = w.envSigner();
    expect(warnings[0]).toMatch(/automation only/);
    expect(JSON.stringify(signer)).not.toContain(wallet.privateKey.slice(2));
    await w.fund('arbitrum', wallet.address, 2n * ETH);
    const phases: string[] = [];
    const res = await sendBridge(ctx, {
      ...ethToBase({ sender: undefined, receiver: undefined }),
      protocols: ['rail_fast', 'rail_native_assets'],
      signer,
      pointsUsd: { src: '300', dst: '299' },
      onProgress: (p) => {
        phases.push('step' in p ? `${p.tx}:${p.phase}` : p.phase);
        // The requestId dies between quote and encode: the send must re-quote and still go through.
        if (!('step' in p) && p.phase === 'encoding') w.sim.clock.advance(30_000);
      },
    });
    expect(phases).toEqual(['estimating-points', 'quoting', 'encoding', 'requoting', 'main:signing', 'main:sending', 'main:confirming']);
    expect(res.requotes).toBe(1);
    expect(res.route.protocol).toBe('rail_fast');
    expect(res.transaction.approval).toBeNull();
    expect(res.transaction.receipt.status).toBe('success');
    expect(res.points?.partnerBonus).toBeGreaterThan(0);
    expect(res.srcTx).toMatch(/^0x[0-9a-f]{64}$/);

    expect((await bridgeStatus(ctx, res.srcTx)).state).toBe('pending');
    const seen: string[] = [];
    const final = await trackBridgeOrder(ctx, res.srcTx, { pollIntervalMs: 2_000, onUpdate: (s) => seen.push(s.state) });
    expect(seen).toEqual(['pending', 'done']);
    expect(final.state).toBe('done');
    const base = new JsonRpcProvider(`${w.origin}/rpc/base`, undefined, { cacheTimeout: -1, staticNetwork: true });
    expect(await base.getBalance(wallet.address)).toBe(BigInt(res.route.amountOut));
    base.destroy();
  });

  it('USDC arbitrum -> base with a keystore signer: ERC-20 approve first, then forced to refunded', async () => {
    const ctx = w.context();
    const wallet = Wallet.createRandom();
    const file = path.join(w.dataDir, 'keystore.json');
    fs.writeFileSync(file, await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, 'pw', { scrypt: { N: 1024 } }));
    await expectRejected(WalletTransactionSigner.fromKeystore(file, async () => 'wrong'), Error);
    const signer = await WalletTransactionSigner.fromKeystore(file, async () => 'pw');
    expect(signer.address).toBe(wallet.address);
    const usdc = tokenOf('arbitrum', 'USDC');
    await w.fund('arbitrum', wallet.address, ETH / 100n);
    await w.fund('arbitrum', wallet.address, 500_000_000n, usdc);
    await w.forceOutcome({ next: true }, 'refunded');
    const res = await sendBridge(ctx, { fromChain: 'arbitrum', toChain: 'base', fromToken: usdc, toToken: tokenOf('base', 'USDC'), amount: '250000000', protocols: ['rail_canonical'], signer });
    expect(res.transaction.approval).toMatchObject({ token: usdc, amount: '250000000', spender: res.transaction.approval?.spender });
    expect(res.transaction.approval?.receipt.status).toBe('success');
    const final = await trackBridgeOrder(ctx, res.srcTx, { pollIntervalMs: 5_000 });
    expect(final.state).toBe('refunded');
    expect(final.orders[0]).toMatchObject({ state: 'refunded', refund: { chain: 'venue_core' } });
    expect(unsuccessfulBridgeError(final).code).toBe('BRIDGE_REFUNDED');
  });

  it('an order forced to failed through its src_tx is tracked to failed', async () => {
    const ctx = w.context();
    const { wallet, signer } = w.envSigner();
    await w.fund('arbitrum', wallet.address, ETH);
    const res = await sendBridge(ctx, { ...ethToBase({ sender: undefined, receiver: undefined }), signer });
    await w.forceOutcome({ src_tx: res.srcTx }, 'failed');
    const final = await trackBridgeOrder(ctx, res.srcTx, { pollIntervalMs: 5_000 });
    expect(final.state).toBe('failed');
    const err = unsuccessfulBridgeError(final);
    expect(err.code).toBe('BRIDGE_FAILED');
    expect(err.hint).toMatch(/operator/);
  });

  it('tracking gives up with TRACK_TIMEOUT while the order is pending', async () => {
    const ctx = w.context();
    const { wallet, signer } = w.envSigner();
    await w.fund('arbitrum', wallet.address, ETH);
    const res = await sendBridge(ctx, { ...ethToBase({ sender: undefined, receiver: undefined }), protocols: ['rail_canonical', 'rail_native_assets'], signer });
    const err = await expectRejected(trackBridgeOrder(ctx, res.srcTx, { pollIntervalMs: 1_000, timeoutMs: 3_000 }), OperationError);
    expect(err.code).toBe('TRACK_TIMEOUT');
  });

  it('nothing is signed without the gas to pay for it; a wrong-chain RPC URL is refused before the bridge is asked', async () => {
    const { signer } = w.envSigner();
    const poor = await expectRejected(sendBridge(w.context(), { ...ethToBase({ sender: undefined, receiver: undefined }), signer }), OperationError);
    expect(poor.code).toBe('INSUFFICIENT_FUNDS');

    const from = w.requests.length;
    const wrong = w.context({ rpcUrls: { arbitrum: `${w.origin}/rpc/base` } });
    const err = await expectRejected(sendBridge(wrong, { ...ethToBase({ sender: undefined, receiver: undefined }), signer }), OperationError);
    expect(err.code).toBe('WRONG_CHAIN');
    expect(w.sent('/bridge/v1', from)).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_TOKEN, defaultCompanionConfig } from '../../../src/sim/companion/index.js';
import { alice, bob, qs, startHarness, type Harness } from './helpers.js';

const cfg = defaultCompanionConfig();
function tokenAddr(chain: string, symbol: string): string {
  const t = cfg.tokens.find((x) => x.chain === chain && x.symbol === symbol);
  if (!t) throw new Error(`no ${symbol} on ${chain}`);
  return t.address;
}
const ARB_USDC = tokenAddr('arbitrum', 'USDC');
const BASE_USDC = tokenAddr('base', 'USDC');
const EVM_USDC = tokenAddr('venue_evm', 'USDC');
const CORE_USDC = tokenAddr('venue_core', 'USDC');
const CORE_HYPE = tokenAddr('venue_core', 'HYPE');

const ETH_1 = '1000000000000000000';
const base = { fromChain: 'arbitrum', toChain: 'base', fromToken: NATIVE_TOKEN, toToken: NATIVE_TOKEN, amount: ETH_1, protocols: 'rail_fast,rail_native_assets,rail_size' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const quote = (p: Record<string, string | undefined>) => h.get(`${h.bridgeUrl}/quote?${qs(p)}`);
const encode = (body: unknown) => h.post(`${h.bridgeUrl}/encode`, body);

describe('GET /quote validation', () => {
  it.each(['fromChain', 'toChain', 'fromToken', 'toToken', 'amount', 'protocols'])('400 when %s is missing', async (name) => {
    const r = await quote({ ...base, [name]: undefined });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `missing required parameter: ${name}` });
  });

  it.each([
    ['fromChain', 'solana'],
    ['toChain', 'solana'],
    ['fromChain', 'Arbitrum'],
    ['toChain', 'BASE'],
  ])('400 chain not found for %s=%s (ids are lowercase)', async (name, value) => {
    const r = await quote({ ...base, [name]: value });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'chain not found' });
  });

  it('400 when fromChain is venue_core (no EVM source transaction)', async () => {
    const r = await quote({ ...base, fromChain: 'venue_core', fromToken: CORE_USDC });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/fromChain/);
  });

  it.each([
    ['fromToken', 'eth', /fromToken/],
    ['fromToken', '0x1234', /fromToken/],
    ['fromToken', '0x000000000000000000000000000000000000dEaD', /fromToken: token not found on arbitrum/],
    // Mixed case with a wrong checksum is a typo, not an address.
    ['fromToken', '0xAF88d065e77c8cC2239327C5EDb3A432268e5831', /fromToken/],
    ['toToken', 'ETH', /toToken/],
    ['toToken', '0x000000000000000000000000000000000000dEaD', /toToken: token not found on base/],
  ])('400 for %s=%s', async (name, value, msg) => {
    const r = await quote({ ...base, [name]: value });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(msg);
  });

  it('400 when toChain venue_core gets an EVM address instead of a venue token id', async () => {
    const r = await quote({ ...base, fromToken: ARB_USDC, toChain: 'venue_core', toToken: ARB_USDC, amount: '5000000', protocols: 'core_bridge' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/toToken: venue_core takes a venue spot token id/);
  });

  it('400 for an unknown venue token id', async () => {
    const r = await quote({ ...base, fromToken: ARB_USDC, toChain: 'venue_core', toToken: '0x' + 'ab'.repeat(16), amount: '5000000', protocols: 'core_bridge' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/toToken: token not found on venue_core/);
  });

  it.each(['1.5', '-1', '1e18', '0x10', '007', '0', ' 1'])('400 for amount=%s', async (amount) => {
    const r = await quote({ ...base, amount });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^invalid amount/);
  });

  it.each([
    ['bogus', /unknown protocol bogus/],
    ['rail_fast,,rail_size', /empty protocol id/],
    ['rail_fast, rail_size', /unknown protocol {2}rail_size/],
    ['RAIL_FAST', /unknown protocol RAIL_FAST/],
  ])('400 for protocols=%s', async (protocols, msg) => {
    const r = await quote({ ...base, protocols });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(msg);
  });

  it.each(['0.5', '-1', '1%', '10001'])('400 for slippage=%s', async (slippage) => {
    const r = await quote({ ...base, slippage });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^invalid slippage/);
  });

  it('accepts every slippage the client offers, up to 10000 (100%): the spec sets no maximum', async () => {
    for (const slippage of ['0', '5001', '10000']) {
      const r = await quote({ ...base, slippage });
      expect(r.status, `slippage=${slippage}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.data[0].slippage).toBe(Number(slippage));
    }
    const whole = await quote({ ...base, slippage: '10000' });
    // 100% tolerance: the minimum received is zero.
    expect(whole.body.data[0].minAmountOut).toBe('0');
  });

  it.each([
    ['sender', 'alice'],
    ['receiver', '0x12'],
    ['source', ''],
  ])('400 for %s=%j', async (name, value) => {
    const r = await quote({ ...base, [name]: value });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(new RegExp(`invalid ${name}`));
  });
});

describe('GET /quote routes', () => {
  it('returns several routes differing by protocol and amountOut, best first, with integer-string amounts', async () => {
    const r = await quote(base);
    expect(r.status).toBe(200);
    expect(r.body.requestId).toBeUndefined();
    const data = r.body.data as { amountOut: string; minAmountOut: string; crossProtocol: { id: string } }[];
    expect(data.map((d) => d.crossProtocol.id).sort()).toEqual(['rail_fast', 'rail_native_assets', 'rail_size']);
    for (const d of data) expect(d.amountOut).toMatch(/^[1-9]\d*$/);
    const outs = data.map((d) => BigInt(d.amountOut));
    expect(new Set(outs).size).toBe(3);
    expect([...outs].sort((a, b) => (a > b ? -1 : 1))).toEqual(outs);
    // Default slippage 100 = 1%.
    for (const d of data) expect(BigInt(d.minAmountOut)).toBe((BigInt(d.amountOut) * 9900n) / 10000n);
  });

  it('applies the given slippage to minAmountOut', async () => {
    const r = await quote({ ...base, slippage: '50' });
    const d = r.body.data[0];
    expect(BigInt(d.minAmountOut)).toBe((BigInt(d.amountOut) * 9950n) / 10000n);
    expect(d.slippage).toBe(50);
  });

  it('issues a requestId only when both sender and receiver are given', async () => {
    expect((await quote({ ...base, sender: alice.address })).body.requestId).toBeUndefined();
    expect((await quote({ ...base, receiver: alice.address })).body.requestId).toBeUndefined();
    const both = await quote({ ...base, sender: alice.address, receiver: bob.address });
    expect(typeof both.body.requestId).toBe('string');
    const again = await quote({ ...base, sender: alice.address, receiver: bob.address });
    expect(again.body.requestId).not.toBe(both.body.requestId);
  });

  it('omits rail_gas above its USD ceiling and quotes it below', async () => {
    const big = await quote({ ...base, protocols: 'rail_gas' });
    expect(big.body.data).toEqual([]);
    const small = await quote({ ...base, protocols: 'rail_gas', amount: '10000000000000000' });
    expect(small.body.data).toHaveLength(1);
    expect(small.body.data[0].crossProtocol.id).toBe('rail_gas');
  });

  it('combines a swap leg with a same-asset rail (crossProtocol is the rail)', async () => {
    const r = await quote({ ...base, toToken: BASE_USDC, protocols: 'rail_fast,swap_evm' });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    const d = r.body.data[0];
    expect(d.crossProtocol.id).toBe('rail_fast');
    // The best of swapping on the source or on the destination chain.
    expect(d.steps.map((s: { protocol: string }) => s.protocol).sort()).toEqual(['rail_fast', 'swap_evm']);
    expect(d.steps[0].fromChain).toBe('arbitrum');
    expect(d.steps[1].toChain).toBe('base');
    // About 3000 USDC for 1 ETH, less fees and impact.
    expect(BigInt(d.amountOut)).toBeGreaterThan(2_900_000_000n);
    expect(BigInt(d.amountOut)).toBeLessThan(3_000_000_000n);
  });

  it('returns no quotes for the same token on the same chain', async () => {
    const r = await quote({ ...base, toChain: 'arbitrum', protocols: 'swap_evm' });
    expect(r.body).toEqual({ data: [] });
  });

  it('quotes arbitrum USDC to venue_core USDC through core_bridge with 8-decimal output', async () => {
    const r = await quote({ fromChain: 'arbitrum', toChain: 'venue_core', fromToken: ARB_USDC, toToken: CORE_USDC, amount: '250000000', protocols: 'core_bridge', sender: alice.address, receiver: alice.address });
    expect(r.status).toBe(200);
    // 250 USDC less the 1 USD flat fee, in 8 decimals.
    expect(r.body.data[0].amountOut).toBe('24900000000');
    expect(r.body.requestId).toBeDefined();
  });
});

describe('core-spot flow rules', () => {
  const core = { fromChain: 'venue_evm', toChain: 'venue_core', fromToken: EVM_USDC, toToken: CORE_HYPE, amount: '500000000', protocols: 'core_spot_swap', source: 'perpsdesk' };

  it('quotes venue_evm to venue_core with a venue token id', async () => {
    const r = await quote(core);
    expect(r.status).toBe(200);
    expect(r.body.data[0].crossProtocol.id).toBe('core_spot_swap');
  });

  it('400 when fromChain is not venue_evm', async () => {
    const r = await quote({ ...core, fromChain: 'arbitrum', fromToken: ARB_USDC });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/fromChain: the core-spot flow starts on venue_evm/);
  });

  it('400 when toChain is neither venue_core nor venue_evm', async () => {
    const r = await quote({ ...core, toChain: 'base', toToken: BASE_USDC });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/toChain: the core-spot flow ends on venue_core or venue_evm/);
  });

  it('400 when source is missing', async () => {
    const r = await quote({ ...core, source: undefined });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/missing required parameter: source/);
  });

  it('to venue_evm: no quotes below 100 USD at source value, quotes at 100 USD', async () => {
    const toEvm = { ...core, toChain: 'venue_evm', toToken: NATIVE_TOKEN, sender: alice.address, receiver: alice.address };
    const low = await quote({ ...toEvm, amount: '99999999' });
    expect(low.status).toBe(200);
    expect(low.body).toEqual({ data: [] });
    const ok = await quote({ ...toEvm, amount: '100000000' });
    expect(ok.body.data.length).toBeGreaterThan(0);
    expect(ok.body.requestId).toBeDefined();
  });
});

describe('POST /encode', () => {
  const fresh = async (p: Record<string, string> = {}) => {
    const r = await quote({ ...base, sender: alice.address, receiver: bob.address, ...p });
    expect(r.status).toBe(200);
    return r.body as { requestId: string; data: { amountOut: string }[] };
  };

  it('encodes within the lifetime and issues a new requestId', async () => {
    const q = await fresh();
    h.clock.advance(29_000);
    const r = await encode({ requestId: q.requestId, quoteIdx: 1 });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(Object.keys(r.body.data).sort()).toEqual(['data', 'to', 'value']);
    expect(r.body.data.to).toBe(cfg.chains.find((c) => c.id === 'arbitrum')?.bridgeRouter);
    expect(r.body.data.value).toBe(ETH_1);
    expect(r.body.data.data).toMatch(/^0x[0-9a-f]+$/);
    expect(typeof r.body.requestId).toBe('string');
    expect(r.body.requestId).not.toBe(q.requestId);
  });

  it('answers no quotes found at 31 s', async () => {
    const q = await fresh();
    h.clock.advance(31_000);
    const r = await encode({ requestId: q.requestId, quoteIdx: 0 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'no quotes found' });
  });

  it('treats exactly 30 s as expired', async () => {
    const q = await fresh();
    h.clock.advance(30_000);
    expect((await encode({ requestId: q.requestId, quoteIdx: 0 })).body).toEqual({ error: 'no quotes found' });
  });

  it('answers no quotes found for an unknown requestId and for an id issued by /encode', async () => {
    expect((await encode({ requestId: 'nope', quoteIdx: 0 })).body).toEqual({ error: 'no quotes found' });
    const q = await fresh();
    const e = await encode({ requestId: q.requestId, quoteIdx: 0 });
    expect((await encode({ requestId: e.body.requestId, quoteIdx: 0 })).body).toEqual({ error: 'no quotes found' });
  });

  it('sends value 0 for an ERC-20 source', async () => {
    const q = await fresh({ fromToken: ARB_USDC, toToken: BASE_USDC, amount: '5000000', protocols: 'rail_canonical,rail_fast' });
    const r = await encode({ requestId: q.requestId, quoteIdx: 0 });
    expect(r.body.data.value).toBe('0');
  });

  it.each([
    [undefined, /invalid body/],
    [[], /invalid body/],
    [{ quoteIdx: 0 }, /missing required field: requestId/],
    [{ requestId: 5, quoteIdx: 0 }, /invalid requestId/],
    [{ requestId: 'x' }, /missing required field: quoteIdx/],
    [{ requestId: 'x', quoteIdx: -1 }, /invalid quoteIdx/],
    [{ requestId: 'x', quoteIdx: '0' }, /invalid quoteIdx/],
    [{ requestId: 'x', quoteIdx: 1.5 }, /invalid quoteIdx/],
  ])('400 for body %j', async (body, msg) => {
    const r = await encode(body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(msg);
  });

  it('400 for a body that is not JSON', async () => {
    const r = await h.post(`${h.bridgeUrl}/encode`, '{not json');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/invalid body/);
  });

  it('400 for a quoteIdx past the end of data', async () => {
    const q = await fresh();
    const r = await encode({ requestId: q.requestId, quoteIdx: q.data.length });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/invalid quoteIdx/);
  });
});

describe('GET /bridge/orders validation', () => {
  it('400 without src_tx or with a malformed hash', async () => {
    const missing = await h.get(`${h.bridgeUrl}/bridge/orders`);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/missing required parameter: src_tx/);
    const bad = await h.get(`${h.bridgeUrl}/bridge/orders?src_tx=0x1234`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/invalid src_tx/);
  });

  it('an unknown transaction has no orders yet', async () => {
    const r = await h.get(`${h.bridgeUrl}/bridge/orders?src_tx=0x${'ab'.repeat(32)}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ orders: [] });
  });

  it('unknown paths fall through to the server 404', async () => {
    expect((await h.get(`${h.bridgeUrl}/quotes`)).status).toBe(404);
    expect((await h.post(`${h.bridgeUrl}/quote`, {})).status).toBe(404);
  });
});

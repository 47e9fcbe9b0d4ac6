import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { FORBIDDEN_MESSAGE } from '../../../src/sim/core/response.js';
import { TradingKeysSchema } from '../../../src/shared/protocol/index.js';
import { Trader, startTestSim, type Api } from './helpers.js';
import type { RunningSimulator } from '../../../src/sim/index.js';

let sim: RunningSimulator;
let api: Api;

beforeAll(async () => {
  ({ sim, api } = await startTestSim());
});
afterAll(async () => {
  await sim.stop();
});

const DAY = 86_400_000;

describe('trading keys', () => {
  it('registers, lists the key as a bare array, and refreshes expiry on re-register without a second key', async () => {
    const t = new Trader(api, 1);
    const body = await t.registerBody();
    const r = await api.post('/auth/register', body);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data.expires_at).toBe(body.expires_at);
    const list = await api.get(`/auth/trading-keys?wallet=${t.wallet}`);
    expect(Array.isArray(list.body.data)).toBe(true);
    expect(TradingKeysSchema.parse(list.body.data)).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ agent_wallet_address: t.agent.address, status: 'ACTIVE', expires_at: body.expires_at });
    const later = sim.clock.now() + 60 * DAY;
    const again = await api.post('/auth/register', await t.registerBody({ expires_at: later }));
    expect(again.status).toBe(200);
    const list2 = await api.get(`/auth/trading-keys?wallet=${t.wallet.toLowerCase()}`);
    expect(list2.body.data).toHaveLength(1);
    expect(list2.body.data[0].expires_at).toBe(later);
  });

  it('answers the documented codes for each registration failure', async () => {
    const t = new Trader(api, 2);
    const now = sim.clock.now();
    const cases: [Record<string, unknown>, number, string | null][] = [
      [await t.registerBody({ service_environment: 'Mainnet' }), 400, 'INVALID_ENVIRONMENT'],
      [await t.registerBody({ expires_at: 0 }), 400, 'INVALID_EXPIRES_AT'],
      [await t.registerBody({ expires_at: now - 1 }), 400, 'INVALID_EXPIRES_AT'],
      [await t.registerBody({ expires_at: now + 181 * DAY }), 400, 'INVALID_EXPIRES_AT'],
      [await t.registerBody({ name: 'x'.repeat(65) }), 400, 'INVALID_REQUEST'],
      [await t.registerBody({ key_hint: 'x'.repeat(33) }), 400, 'INVALID_REQUEST'],
      [await t.registerBody({ nonce: '5' }), 400, 'INVALID_REQUEST'],
      // expires_at differing from the signed expiresAt recovers another address.
      [await t.registerBody({}, { expiresAt: String(now + 5 * DAY) }), 400, 'INVALID_SIGNATURE'],
    ];
    for (const [body, status, code] of cases) {
      const r = await api.post('/auth/register', body);
      expect({ status: r.status, code: r.body.error?.code }).toEqual({ status, code });
    }
    const noExpiry = await t.registerBody();
    delete noExpiry.expires_at;
    expect((await api.post('/auth/register', noExpiry)).body.error.code).toBe('INVALID_EXPIRES_AT');
    const zeroChain = await t.registerBody();
    zeroChain.signature_chain_id = 0;
    expect((await api.post('/auth/register', zeroChain)).body.error.code).toBe('INVALID_SIGNATURE_CHAIN_ID');
    const missing = await t.registerBody();
    delete missing.agent_wallet_address;
    const m = await api.post('/auth/register', missing);
    expect(m.body.error.code).toBe('INVALID_REQUEST');
    expect(m.body.error.message).toContain('agent_wallet_address');
  });

  it('accepts any wallet chainId > 0 and exactly 180 days; replays answer 409', async () => {
    const t = new Trader(api, 3);
    const body = await t.registerBody({ expires_at: sim.clock.now() + 180 * DAY }, {}, 1);
    expect((await api.post('/auth/register', body)).status).toBe(200);
    const replay = await api.post('/auth/register', body);
    expect(replay.status).toBe(409);
    expect(replay.body.success).toBe(false);
    expect(replay.body.error.code).toBeNull();
  });

  it('expires with the SimClock and revokes immediately', async () => {
    const t = new Trader(api, 4);
    await api.post('/auth/register', await t.registerBody({ expires_at: sim.clock.now() + 10_000 }));
    expect((await api.get(`/auth/trading-keys?wallet=${t.wallet}`)).body.data).toHaveLength(1);
    await api.advance(10_000);
    expect((await api.get(`/auth/trading-keys?wallet=${t.wallet}`)).body.data).toHaveLength(0);
    const expired = await t.place([{ market: 'BTC', side: 'BUY', size: '0.001', limit_price: '90000', order_type: 'LIMIT', time_in_force: 'GTC' }]);
    expect(expired.status).toBe(403);

    await t.register();
    const ok = await t.place([{ market: 'BTC', side: 'BUY', size: '0.001', limit_price: '90000', order_type: 'LIMIT', time_in_force: 'GTC' }]);
    expect(ok.status).toBe(200);
    const rv = await api.post('/auth/trading-keys/revoke', await t.revokeBody());
    expect(rv.status).toBe(200);
    expect((await api.get(`/auth/trading-keys?wallet=${t.wallet}`)).body.data).toHaveLength(0);
    const after = await t.place([{ market: 'BTC', side: 'BUY', size: '0.001', limit_price: '90000', order_type: 'LIMIT', time_in_force: 'GTC' }]);
    expect(after.status).toBe(403);
    expect(after.body.error).toEqual({ code: 'FORBIDDEN', message: FORBIDDEN_MESSAGE });
  });

  it('revoke checks environment and signature with the register codes', async () => {
    const t = new Trader(api, 5);
    await t.register();
    expect((await api.post('/auth/trading-keys/revoke', await t.revokeBody({ service_environment: 'Mainnet' }))).body.error.code).toBe('INVALID_ENVIRONMENT');
    const forged = await t.revokeBody();
    forged.agent_wallet_address = Wallet.createRandom().address;
    expect((await api.post('/auth/trading-keys/revoke', forged)).body.error.code).toBe('INVALID_SIGNATURE');
    const zero = await t.revokeBody();
    zero.signature_chain_id = -1;
    expect((await api.post('/auth/trading-keys/revoke', zero)).body.error.code).toBe('INVALID_SIGNATURE_CHAIN_ID');
  });

  it('gives the same 403 for an unknown agent and for a payload mismatch', async () => {
    const t = new Trader(api, 6);
    await t.register();
    const spec = { market: 'BTC', side: 'BUY' as const, size: '0.001', limit_price: '90000', order_type: 'LIMIT' as const, time_in_force: 'GTC' as const };
    const stranger = await t.leg(spec, {}, Wallet.createRandom());
    const mismatch = await t.leg(spec, { size: '0.002' });
    const a = await t.place([stranger]);
    const b = await t.place([mismatch]);
    expect(a.status).toBe(403);
    expect(b.status).toBe(403);
    expect(a.body.error).toEqual(b.body.error);
    // A signature over the mainnet chainId recovers a different address on the testnet sim.
    const mainnetSigned = await t.leg(spec, {}, t.agent, 999);
    expect((await t.place([mainnetSigned])).status).toBe(403);
  });

  it('lists keys only for a valid wallet query', async () => {
    expect((await api.get('/auth/trading-keys')).status).toBe(400);
    expect((await api.get('/auth/trading-keys?wallet=0x123')).status).toBe(400);
  });
});

/**
 * The risk limits seen from the renderer's side of the IPC boundary (issue 39): a compromised page
 * sending raw calls through the real handlers cannot get an order past a limit. orders:preview beyond a
 * limit is refused (VALIDATION, reason RISK_LIMIT); a preview made while there was room and sent with a
 * raw orders:place after the limit was tightened is refused too; risk:setLimits cannot loosen at once; a
 * raw risk:panic without its confirmation word is refused, with it every position is closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../support/keychain.js';
import { AppHarness } from './appHarness.js';

let h: AppHarness;
beforeAll(async () => {
  h = await AppHarness.start('risk-ipc', { core: { keychainService: testService('risk-ipc') } });
  await h.call('wallet:createPaper', {});
}, 60_000);
afterAll(async () => {
  await h?.stop();
  h?.cleanup();
});

const buy = (size: string) => ({ intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size } }) as const;

describe('a compromised renderer and the risk limits', () => {
  it('raw orders:preview and orders:place beyond a limit are refused; a loosening waits', async () => {
    const small = await h.call('orders:preview', buy('0.01'));
    const notional = Number(small.total_notional);
    const limits = await h.call('risk:setLimits', { limits: { max_order_notional: String(Math.ceil(notional * 3)) } });
    expect(limits.limits.max_order_notional).toBe(String(Math.ceil(notional * 3)));

    const over = await h.fail('orders:preview', buy('0.05'));
    expect(over).toMatchObject({ code: 'VALIDATION', reason: 'RISK_LIMIT' });
    expect(over.message).toContain('max_order_notional');

    // A preview made while there was room, then the limit tightened: the raw place is refused.
    const ok = await h.call('orders:preview', buy('0.02'));
    await h.call('risk:setLimits', { limits: { max_order_notional: String(Math.floor(notional)) } });
    const placed = await h.fail('orders:place', { preview_id: ok.preview_id });
    expect(placed).toMatchObject({ code: 'VALIDATION', reason: 'RISK_LIMIT' });

    // The page cannot loosen at once, nor name another wallet.
    const loosened = await h.call('risk:setLimits', { limits: { max_order_notional: null } });
    expect(loosened.limits.max_order_notional).toBe(String(Math.floor(notional)));
    expect(loosened.pending).toEqual([{ limit: 'max_order_notional', value: null, effective_at: expect.any(Number) }]);
    expect(await h.fail('risk:setLimits', { wallet: '0x' + 'a'.repeat(40), limits: { max_order_notional: null } })).toMatchObject({ code: 'INVALID_PAYLOAD' });
    expect(await h.fail('orders:preview', buy('0.05'))).toMatchObject({ reason: 'RISK_LIMIT' });
  });

  it('risk:panic needs its confirmation word; with it, every position is closed and the report says so', async () => {
    expect(await h.fail('risk:panic', {})).toMatchObject({ code: 'INVALID_PAYLOAD' });
    const report = await h.call('risk:panic', { confirm: 'panic' });
    expect(report.failures).toEqual([]);
    expect(report.remaining_positions).toEqual([]);
    expect(report.lines[0]).toMatch(/^Panic finished for 0x/);
  });
});

/**
 * The risk limits seen from the renderer's side of the IPC boundary (issue 39): a compromised page
 * sending raw calls through the real handlers cannot get an order past a limit. orders:preview beyond a
 * limit is refused (VALIDATION, reason RISK_LIMIT); a preview made while there was room and sent with a
 * raw orders:place after the limit was tightened is refused too; risk:setLimits cannot loosen at once; a
 * raw risk:panic without its confirmation word is refused, with it every position is closed.
 *
 * The simulator runs a manual clock (issue 37): the paper wallet's deposit, a fill and a panic's closes
 * come as the test moves it (advanceDuring, advanceUntil).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../support/keychain.js';
import { AppHarness } from './appHarness.js';

let h: AppHarness;
const keychainService = testService('risk-ipc');
beforeAll(async () => {
  h = await AppHarness.start('risk-ipc', { core: { keychainService } });
  await h.advanceDuring('the paper wallet', h.call('wallet:createPaper', {}));
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
    const report = await h.advanceDuring('the panic', h.call('risk:panic', { confirm: 'panic' }));
    expect(report.failures).toEqual([]);
    expect(report.remaining_positions).toEqual([]);
    expect(report.lines[0]).toMatch(/^Panic finished for 0x/);
  });

  it('a panic cut short (the app killed mid-way) is finished when the app starts again with the wallet', async () => {
    const wallet = (await h.call('wallet:current', {})).address!;
    const placed = await h.call('orders:place', { preview_id: (await h.call('orders:preview', buy('0.005'))).preview_id });
    expect(placed.success).toBe(true);
    await h.advanceUntil('the position', async () => ((await h.call('positions:list', {})) as { positions: unknown[] }).positions.length === 1, 100);
    // What a panic killed after its cancel step leaves in the data folder.
    const file = path.join(h.dataDir, 'panic', `sim-${wallet.toLowerCase()}.json`);
    const started = Date.now() - 60_000;
    fs.writeFileSync(file, JSON.stringify({ version: 1, profile: 'sim', wallet, started_at: started, finished_at: null, step: 'close', resumed: 0, stopped_algos: [], cancelled_orders: [], closed: [], failures: [], remaining_orders: null, remaining_positions: null }), { mode: 0o600 });
    await h.core.stop();
    h = await AppHarness.start('risk-ipc', { dataDir: h.dataDir, core: { keychainService } });
    const done = await h.advanceUntil('the panic finished', () => {
      const r = JSON.parse(fs.readFileSync(file, 'utf8')) as { step: string; resumed: number; started_at: number; closed: { market: string }[]; remaining_positions: string[] | null };
      return r.step === 'done' ? r : undefined;
    }, 100);
    expect(done).toMatchObject({ resumed: 1, started_at: started, closed: [{ market: 'ETH' }], remaining_positions: [] });
    expect(h.logs.some((l) => l.includes('a panic was cut short; finishing it now'))).toBe(true);
  });
});

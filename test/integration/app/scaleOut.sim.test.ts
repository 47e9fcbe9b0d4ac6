/**
 * A scale-out from the app (issue 35): the Scale ticket with Reduce-only on a long whose TP and SL are
 * armed, through the real IPC handlers against the simulator over HTTP. orders:preview says what is
 * lifted and re-armed (the same use case as `perps order scale`, services/positions/scaleOut.ts);
 * orders:place lifts them, rests the ladder and re-arms both at the same levels on the whole position,
 * and returns what became of them.
 *
 * The simulator runs a manual clock (issue 37): the deposit, the fill and the arming come as the test
 * moves it (advanceUntil), and a call that waits on it (TP/SL applied, the ladder's lift and re-arm) is
 * awaited while it moves (advanceDuring).
 */
import { Wallet } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { Decimal, canonical, roundToStep } from '../../../src/shared/decimal/index.js';
import { AppHarness } from './appHarness.js';

const MAIN = 'PERPS_SCALE_OUT_MAIN_KEY';
const env = { [MAIN]: Wallet.createRandom().privateKey };
let h: AppHarness;

afterAll(async () => {
  await h?.stop();
  h?.cleanup();
});

describe('a reduce-only ladder on a position with TP/SL armed, from the app', () => {
  it('is reviewed with the lift, placed, and leaves both levels re-armed', async () => {
    h = await AppHarness.start('scale-out', { env });
    await h.call('wallet:connectEnv', { variable: MAIN });
    const { agent } = await h.call('keys:create', { name: 'scale-out' });
    await h.call('keys:authorize', { review_id: (await h.call('keys:review', { action: 'authorize', agent })).review_id });
    await h.call('funding:faucet', { amount: '20000' });
    await h.advanceUntil('the deposit', async () => (await h.call('account:balance', {})).free_balance === '20000', 100);
    const eth = (await h.call('markets:list', {})).markets.find((m) => m.symbol === 'ETH')!;
    const at = (f: string) => canonical(roundToStep(new Decimal(eth.mark!).times(f), eth.tick_size, 'down'));
    const entry = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.3', leverage: 5 } });
    await h.call('orders:place', { preview_id: entry.preview_id });
    await h.advanceUntil('the ETH position', async () => (await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH'), 100);
    const tpsl = await h.call('positions:previewTpsl', { market: 'ETH', tp: at('1.1'), sl: at('0.9') });
    await h.advanceDuring('the TP/SL applied', h.call('positions:applyTpsl', { preview_id: tpsl.preview_id }));
    const before = await h.advanceUntil('both armed', async () => {
      const t = (await h.call('orders:listTriggers', { market: 'ETH' })).triggers.filter((x) => x.armed);
      return t.length === 2 && t;
    }, 100);

    const preview = await h.call('orders:preview', { intent: { kind: 'scale', market: 'ETH', side: 'SELL', from_price: at('1.02'), to_price: at('1.04'), count: 3, total_size: '0.15', reduce_only: true } });
    expect(preview.protection?.triggers_to_cancel.map((t) => t.order_id).sort()).toEqual(before.map((t) => t.order_id).sort());
    expect(preview.protection?.rearm.map((l) => l.kind)).toEqual(['tp', 'sl']);
    expect(preview.protection?.summary.join('\n')).toMatch(/TP [\d,.]+ and SL [\d,.]+ are lifted for the ladder and re-armed once it rests, on the whole position \(0\.3 ETH now\)/);

    const placed = await h.advanceDuring('the ladder placed', h.call('orders:place', { preview_id: preview.preview_id }));
    expect(placed.legs.map((l) => l.status)).toEqual(['SUBMITTED', 'SUBMITTED', 'SUBMITTED']);
    expect(placed.rearm).toMatchObject({ past_mark: [], failed: [] });
    expect(placed.rearm!.rearmed.map((l) => l.kind)).toEqual(['tp', 'sl']);
    const after = (await h.call('orders:listTriggers', { market: 'ETH' })).triggers.filter((x) => x.armed);
    expect(after.map((t) => [t.tpsl, canonical(new Decimal(t.trigger_price!))]).sort()).toEqual(before.map((t) => [t.tpsl, canonical(new Decimal(t.trigger_price!))]).sort());
    expect(after.some((t) => before.some((b) => b.order_id === t.order_id))).toBe(false);
    const open = (await h.call('orders:listOpen', { market: 'ETH' })).orders.filter((o) => o.order_type === 'LIMIT');
    expect(open).toHaveLength(3);
    expect(open.every((o) => o.reduce_only)).toBe(true);
  }, 90_000);
});

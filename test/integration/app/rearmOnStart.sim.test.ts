/**
 * The app restores what a killed close left (issue 35, item 2): a close lifted the position's TP and SL
 * and its process died before re-arming them (the record in the data folder, the triggers cancelled).
 * On the next start, once the wallet is open, the app re-arms both at the same levels, once, says so in a
 * notification, and removes the record.
 *
 * The simulator runs a manual clock (issue 37): fills, arming and the re-arm's own waits come as the test
 * moves it (advanceUntil), and the TP/SL call, which waits for its triggers, is awaited while it moves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { Decimal, canonical, roundToStep } from '../../../src/shared/decimal/index.js';
import { wipeService } from '../../support/keychain.js';
import { AppHarness } from './appHarness.js';

const MAIN = 'PERPS_REARM_MAIN_KEY';
const env = { [MAIN]: Wallet.createRandom().privateKey };
let h: AppHarness;

afterAll(async () => {
  await h?.stop();
  h?.cleanup();
});

describe('TP/SL lifted by a close that died', () => {
  it('are re-armed on the next start of the app, once', async () => {
    h = await AppHarness.start('rearm-start', { env });
    await h.call('wallet:connectEnv', { variable: MAIN });
    const { agent } = await h.call('keys:create', { name: 'rearm' });
    await h.call('keys:authorize', { review_id: (await h.call('keys:review', { action: 'authorize', agent })).review_id });
    await h.call('funding:faucet', { amount: '20000' });
    await h.advanceUntil('the deposit', async () => (await h.call('account:balance', {})).free_balance === '20000', 100);
    const eth = (await h.call('markets:list', {})).markets.find((m) => m.symbol === 'ETH')!;
    const at = (f: string) => canonical(roundToStep(new Decimal(eth.mark!).times(f), eth.tick_size, 'down'));
    const preview = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.2', leverage: 5 } });
    await h.call('orders:place', { preview_id: preview.preview_id });
    await h.advanceUntil('the ETH position', async () => (await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH'), 100);
    const tpsl = await h.call('positions:previewTpsl', { market: 'ETH', tp: at('1.1'), sl: at('0.9') });
    await h.advanceDuring('the TP/SL applied', h.call('positions:applyTpsl', { preview_id: tpsl.preview_id }));
    const armed = await h.advanceUntil('both armed', async () => {
      const t = (await h.call('orders:listTriggers', { market: 'ETH' })).triggers.filter((x) => x.armed);
      return t.length === 2 && t;
    }, 100);
    const wallet = (await h.call('wallet:current', {})).address!;

    // As a close does before its first cancel: the record; then the cancels land and the process dies.
    const record = {
      version: 1,
      id: 'a1b2c3d4e5f6',
      profile: 'sim',
      wallet,
      market: 'ETH',
      side: 'LONG',
      lifted: armed.map((t) => ({ order_id: t.order_id, kind: t.tpsl, trigger_price: canonical(new Decimal(t.trigger_price!)), limit_price: canonical(new Decimal(t.limit_price)) })).sort((a, b) => ((a.kind ?? '') < (b.kind ?? '') ? 1 : -1)),
      close_order_id: null,
      created_at: Date.now(),
      updated_at: Date.now(),
    };
    fs.mkdirSync(path.join(h.dataDir, 'protection'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(h.dataDir, 'protection', `${record.id}.json`), JSON.stringify(record), { mode: 0o600 });
    for (const t of armed) await h.call('orders:cancel', { order_id: t.order_id, order_type: 'TRIGGER' });
    await h.advanceUntil('no trigger armed', async () => (await h.call('orders:listTriggers', { market: 'ETH' })).triggers.filter((x) => x.armed).length === 0, 100);
    const service = h.keychainService;
    await h.core.stop();

    h = await AppHarness.start('rearm-start', { env, dataDir: h.dataDir, core: { keychainService: service } });
    try {
      await h.call('wallet:connectEnv', { variable: MAIN });
      const back = await h.advanceUntil(
        'the TP and SL re-armed',
        async () => {
          const t = (await h.call('orders:listTriggers', { market: 'ETH' })).triggers.filter((x) => x.armed);
          return t.length === 2 && t;
        },
        100,
      );
      expect(back.map((t) => [t.tpsl, canonical(new Decimal(t.trigger_price!))]).sort()).toEqual(record.lifted.map((l) => [l.kind, l.trigger_price]).sort());
      await h.advanceUntil('the notification', async () => h.notifications.some((n) => /TP\/SL after an interrupted close/.test(n.title) && /re-armed on the remaining/.test(n.body)), 100);
      // The record goes once the re-arm is done (just after the triggers show, not with them): with it gone
      // nothing is left to re-arm from, and there are still exactly two.
      await h.advanceUntil('the protection record removed', async () => fs.readdirSync(path.join(h.dataDir, 'protection')).filter((n) => n.endsWith('.json')).length === 0, 100);
      expect((await h.call('orders:listTriggers', { market: 'ETH' })).triggers.filter((x) => x.armed)).toHaveLength(2);
    } finally {
      await wipeService(service);
    }
  }, 120_000);
});

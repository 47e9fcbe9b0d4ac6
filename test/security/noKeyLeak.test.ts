/**
 * No key material leaves the vault: after a whole flow through the IPC handlers (env main wallet,
 * trading keys created and authorized, faucet, a bracket order filled, a position closed, a withdrawal
 * completed, a second key created), every private key the vault holds (read back from the real OS
 * keychain with keytar) and the main wallet's key are searched for, in every spelling, in:
 *  - the recorded IPC traffic (every request and every response),
 *  - every main-to-renderer event,
 *  - every file of the data folder (settings, nonces, tracked withdrawals, the simulator's state),
 *  - everything logged (the core's logger and the console).
 */
import { Wallet } from 'ethers';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Decimal, canonical, roundToStep } from '../../src/shared/decimal/index.js';
import type { IpcEventPayload } from '../../src/shared/ipc.js';
import { AppHarness } from '../integration/app/appHarness.js';
import { filesUnder, rawKeytar } from '../support/keychain.js';

/** Every way a 32-byte hex secret could be written. */
function spellings(secretHex: string): string[] {
  const bare = secretHex.replace(/^0x/i, '').toLowerCase();
  expect(bare).toMatch(/^[0-9a-f]{64}$/);
  const b64 = Buffer.from(bare, 'hex').toString('base64');
  return [bare, bare.toUpperCase(), b64, b64.replace(/=+$/, ''), Buffer.from(bare, 'hex').toString('base64url')];
}

describe('no key leaves the vault', () => {
  let h: AppHarness;
  const consoleOutput: string[] = [];
  const main = Wallet.createRandom();

  beforeAll(async () => {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        consoleOutput.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack ?? ''}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      });
    }
    h = await AppHarness.start('leak', { env: { PERPS_LEAK_MAIN_KEY: main.privateKey } });
  }, 60_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    await h?.stop();
    h?.cleanup();
  });

  it('runs a whole session', async () => {
    await h.call('wallet:connectEnv', { variable: 'PERPS_LEAK_MAIN_KEY' });
    const { agent } = await h.call('keys:create', { name: 'leak test' });
    await h.call('keys:authorize', { review_id: (await h.call('keys:review', { action: 'authorize', agent })).review_id });
    await h.call('keys:create', { name: 'second, never authorized' });
    await h.call('funding:faucet', { amount: '1000' });
    await h.waitFor('the credit', async () => (await h.call('account:balance', {})).free_balance === '1000');

    const eth = (await h.call('markets:list', {})).markets.find((m) => m.symbol === 'ETH')!;
    const mark = new Decimal(eth.mark!);
    const preview = await h.call('orders:preview', {
      intent: {
        kind: 'bracket',
        market: 'ETH',
        side: 'BUY',
        order_type: 'MARKET',
        size: '0.01',
        tp: { trigger_price: canonical(roundToStep(mark.times('1.1'), eth.tick_size, 'down')) },
        sl: { trigger_price: canonical(roundToStep(mark.times('0.9'), eth.tick_size, 'down')) },
      },
    });
    const placed = await h.call('orders:place', { preview_id: preview.preview_id });
    const entry = placed.legs[0]!.order_id!;
    await h.waitFor('the fill event', () => h.eventsOf<IpcEventPayload<'fills'>>('fills').some((e) => e.payload.fills.some((f) => f.order_id === entry)));
    await h.waitFor('the position', async () => (await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH'));
    await h.call('positions:close', { market: 'ETH' });
    await h.call('history:orders', { offset: 0, limit: 50 });
    await h.call('history:fills', { offset: 0, limit: 50 });

    const w = await h.call('withdraw:preview', { amount: '50' });
    const tracked = await h.call('withdraw:submit', { review_id: w.review.review_id });
    await h.waitFor(
      'the withdrawal to complete',
      () =>
        h
          .eventsOf<IpcEventPayload<'withdrawals'>>('withdrawals')
          .flatMap((e) => e.payload.withdrawals)
          .some((x) => x.intent_id === tracked.intent_id && x.status === 'COMPLETED'),
      30_000,
    );
    await h.call('keys:list', {});
    // An error path too: its message must not carry anything secret either.
    await h.fail('wallet:connectEnv', { variable: 'PERPS_NOT_SET' });
  }, 90_000);

  it('finds no vault key or main-wallet key in traffic, events, files or logs', async () => {
    const held = await rawKeytar.findCredentials(h.keychainService);
    // Both trading keys are in the keychain (so the search below has something to look for).
    expect(held).toHaveLength(2);
    const secrets = [...held.map((c) => c.password), main.privateKey];

    const haystacks: [string, string][] = [
      ['IPC traffic', JSON.stringify(h.exchanges)],
      ['events', JSON.stringify(h.events)],
      ['core logs', h.logs.join('\n')],
      ['console', consoleOutput.join('\n')],
      ['notifications', JSON.stringify(h.notifications)],
    ];
    const files = filesUnder(h.dataDir);
    expect(files.some((f) => f.endsWith('settings.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('state.json'))).toBe(false); // the simulator saves its state on stop, checked below
    for (const f of files) haystacks.push([`file ${f}`, fs.readFileSync(f).toString('utf8')]);

    expect(h.exchanges.length).toBeGreaterThan(20);
    expect(h.events.length).toBeGreaterThan(5);
    // The failure message names which key and which spelling, never any part of the key itself.
    secrets.forEach((secret, i) => {
      spellings(secret).forEach((spelling, j) => {
        for (const [where, text] of haystacks) expect(text.includes(spelling), `key #${i} (spelling #${j}) appears in ${where}`).toBe(false);
      });
    });
  });

  it('and none in the simulator state written on quit', async () => {
    const held = await rawKeytar.findCredentials(h.keychainService);
    await h.core.stop();
    const texts = filesUnder(h.dataDir).map((f) => fs.readFileSync(f).toString('utf8'));
    expect(filesUnder(h.dataDir).some((f) => f.endsWith('state.json'))).toBe(true);
    for (const secret of [...held.map((c) => c.password), main.privateKey]) {
      for (const spelling of spellings(secret)) for (const t of texts) expect(t.includes(spelling)).toBe(false);
    }
  });
});

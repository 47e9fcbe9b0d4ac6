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

/** What a whole session left behind, gathered once: every test below only reads it, in any order or alone. */
interface SessionRecord {
  /** The trading keys the keychain holds, and the main wallet's key. */
  secrets: string[];
  heldKeys: number;
  /** Where to look, read while the app runs: traffic, events, logs, notifications and the data folder. */
  haystacks: [string, string][];
  exchanges: number;
  events: number;
  files: string[];
  /** The data folder after the app quit (the simulator saves its state then). */
  filesAfterQuit: string[];
  textsAfterQuit: string[];
  /** What the flow reached, read back from the app. */
  outcome: { withdrawalCompleted: boolean; positionClosed: boolean; freeBalance: string; keys: number; envError: string };
}

describe('no key leaves the vault', () => {
  let h: AppHarness;
  let record: SessionRecord;
  const consoleOutput: string[] = [];
  const main = Wallet.createRandom();

  /** The whole session through the IPC handlers, then what it left, gathered before and after quit. */
  async function runSession(): Promise<SessionRecord> {
    await h.call('wallet:connectEnv', { variable: 'PERPS_LEAK_MAIN_KEY' });
    const { agent } = await h.call('keys:create', { name: 'leak test' });
    await h.call('keys:authorize', { review_id: (await h.call('keys:review', { action: 'authorize', agent })).review_id });
    await h.call('keys:create', { name: 'second, never authorized' });
    await h.call('funding:faucet', { amount: '1000' });
    // The simulator's clock is manual (AppHarness): each wait below moves it until it is seen.
    await h.advanceUntil('the credit', async () => (await h.call('account:balance', {})).free_balance === '1000', 100);

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
    await h.advanceUntil('the fill event', () => h.eventsOf<IpcEventPayload<'fills'>>('fills').some((e) => e.payload.fills.some((f) => f.order_id === entry)), 100);
    await h.advanceUntil('the position', async () => (await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH'), 100);
    // The close waits for its fill on the simulator's clock: it is awaited while the clock moves.
    await h.advanceDuring('the close', h.call('positions:close', { market: 'ETH' }));
    await h.advanceUntil('the position closed', async () => !(await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH'), 100);
    await h.call('history:orders', { offset: 0, limit: 50 });
    await h.call('history:fills', { offset: 0, limit: 50 });

    const w = await h.call('withdraw:preview', { amount: '50' });
    const tracked = await h.call('withdraw:submit', { review_id: w.review.review_id });
    const completed = () =>
      h
        .eventsOf<IpcEventPayload<'withdrawals'>>('withdrawals')
        .flatMap((e) => e.payload.withdrawals)
        .some((x) => x.intent_id === tracked.intent_id && x.status === 'COMPLETED');
    await h.advanceUntil('the withdrawal to complete', completed, 100);
    const keys = (await h.call('keys:list', {})).keys.length;
    // An error path too: its message must not carry anything secret either.
    const envError = await h.fail('wallet:connectEnv', { variable: 'PERPS_NOT_SET' });
    const outcome = {
      withdrawalCompleted: completed(),
      positionClosed: !(await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH'),
      freeBalance: (await h.call('account:balance', {})).free_balance,
      keys,
      envError: envError.code,
    };

    const held = await rawKeytar.findCredentials(h.keychainService);
    const files = filesUnder(h.dataDir);
    const haystacks: [string, string][] = [
      ['IPC traffic', JSON.stringify(h.exchanges)],
      ['events', JSON.stringify(h.events)],
      ['core logs', h.logs.join('\n')],
      ['console', consoleOutput.join('\n')],
      ['notifications', JSON.stringify(h.notifications)],
      ...files.map((f): [string, string] => [`file ${f}`, fs.readFileSync(f).toString('utf8')]),
    ];
    const exchanges = h.exchanges.length;
    const events = h.events.length;
    await h.core.stop();
    const filesAfterQuit = filesUnder(h.dataDir);
    return {
      secrets: [...held.map((c) => c.password), main.privateKey],
      heldKeys: held.length,
      haystacks,
      exchanges,
      events,
      files,
      filesAfterQuit,
      textsAfterQuit: filesAfterQuit.map((f) => fs.readFileSync(f).toString('utf8')),
      outcome,
    };
  }

  beforeAll(async () => {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        consoleOutput.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack ?? ''}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      });
    }
    h = await AppHarness.start('leak', { env: { PERPS_LEAK_MAIN_KEY: main.privateKey } });
    record = await runSession();
  }, 150_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    await h?.stop();
    h?.cleanup();
  });

  it('the session went the whole way: filled, closed, withdrew, two keys held, the bad env refused', () => {
    expect(record.outcome).toEqual({ withdrawalCompleted: true, positionClosed: true, freeBalance: expect.stringMatching(/^9\d\d(\.\d+)?$/), keys: 2, envError: expect.any(String) });
    // Both trading keys are in the keychain (so the search below has something to look for).
    expect(record.heldKeys).toBe(2);
    expect(record.exchanges).toBeGreaterThan(20);
    expect(record.events).toBeGreaterThan(5);
  });

  it('finds no vault key or main-wallet key in traffic, events, files or logs', () => {
    expect(record.files.some((f) => f.endsWith('settings.json'))).toBe(true);
    expect(record.files.some((f) => f.endsWith('state.json'))).toBe(false); // the simulator saves its state on stop, checked below
    // The failure message names which key and which spelling, never any part of the key itself.
    record.secrets.forEach((secret, i) => {
      spellings(secret).forEach((spelling, j) => {
        for (const [where, text] of record.haystacks) expect(text.includes(spelling), `key #${i} (spelling #${j}) appears in ${where}`).toBe(false);
      });
    });
  });

  it('and none in the simulator state written on quit', () => {
    expect(record.filesAfterQuit.some((f) => f.endsWith('state.json'))).toBe(true);
    for (const secret of record.secrets) {
      for (const spelling of spellings(secret)) for (const t of record.textsAfterQuit) expect(t.includes(spelling)).toBe(false);
    }
  });
});

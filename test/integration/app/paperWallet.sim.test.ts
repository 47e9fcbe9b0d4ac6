/**
 * The app's one-click paper wallet (wallet:createPaper) through the REAL IPC handlers, AppCore on the sim
 * profile (its simulator in-process on loopback) and the REAL keychain: one call leaves a paper wallet
 * connected, its trading key authorized and the account funded; after a restart the remembered paper
 * wallet is connected again with no password asked; on mainnet it signs nothing and cannot be made.
 *
 * The simulator runs a manual clock (issue 37): making a paper wallet waits for its deposit's credit,
 * which comes as the test moves the clock (advanceDuring).
 *
 * The harness is shared (a test that restarts the app leaves the restarted one to the next), but each
 * test builds what it needs: ensure helpers look at the actual wallet through IPC (wallet:current) and
 * make a paper wallet, or forget the remembered one, only when it is missing or in the way; the test that
 * switches to mainnet switches back in `finally`. So every test passes alone or in any order, and every
 * test must log no error.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { testService, rawKeytar } from '../../support/keychain.js';
import { AppHarness } from './appHarness.js';

const keychainService = testService('app-paper');
let h: AppHarness;
let wallet: string;

beforeAll(async () => {
  h = await AppHarness.start('paper', { core: { keychainService } });
}, 60_000);

afterAll(async () => {
  await h?.stop();
  h?.cleanup();
});

/** The paper wallet connected on the sim profile (made in one click when another or none is), its address in `wallet`. */
async function ensurePaperWallet(): Promise<void> {
  if ((await h.call('app:getProfile', {})).active !== 'sim') await h.call('app:setProfile', { profile: 'sim' });
  const current = await h.call('wallet:current', {});
  wallet = current.signer?.kind === 'paper' ? current.address! : (await h.advanceDuring('the paper wallet', h.call('wallet:createPaper', {}))).wallet.address!;
}

/** No wallet connected or remembered, on the sim profile: the app as first started. */
async function ensureNoWallet(): Promise<void> {
  if ((await h.call('app:getProfile', {})).active !== 'sim') await h.call('app:setProfile', { profile: 'sim' });
  if ((await h.call('wallet:current', {})).address !== null) await h.call('wallet:disconnect', { forget: true });
}

// Every test logs no error line (a test that restarts the app: the first run's from its start, the restarted one's all).
let logged: { harness: AppHarness; from: number };
beforeEach(() => {
  logged = { harness: h, from: h.logs.length };
});
afterEach(() => {
  const lines = [...logged.harness.logs.slice(logged.from), ...(h === logged.harness ? [] : h.logs)];
  expect(lines.filter((l) => l.startsWith('error '))).toEqual([]);
});

describe('wallet:createPaper', () => {
  it('makes, connects, authorizes and funds a paper wallet in one call; the next order is placed', async () => {
    await ensureNoWallet();
    expect((await h.call('wallet:current', {})).address).toBeNull();
    const r = await h.advanceDuring('the paper wallet', h.call('wallet:createPaper', {}));
    wallet = r.wallet.address!;
    expect(r.wallet).toMatchObject({ signer: { kind: 'paper', label: 'Paper wallet (simulator)', path: null }, last_signer_kind: 'paper' });
    expect(r.free_balance).toBe('10000');
    expect(await rawKeytar.getPassword(keychainService, `paper-wallet:sim/${wallet.toLowerCase()}`)).not.toBeNull();

    const keys = await h.call('keys:list', {});
    expect(keys.keys).toEqual([expect.objectContaining({ agent: r.agent, status: 'ACTIVE', stored_locally: true, name: 'Perps Desk paper' })]);
    expect((await h.call('account:balance', {})).free_balance).toBe('10000');

    const preview = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.01' } });
    expect(preview.signer).toBe(r.agent);
    const placed = await h.call('orders:place', { preview_id: preview.preview_id });
    expect(placed.success).toBe(true);
  });

  it('signs custody actions with the paper wallet, reviewed as any signer', async () => {
    await ensurePaperWallet();
    const preview = await h.call('withdraw:preview', { amount: '10' });
    expect(preview.review.signer).toEqual({ kind: 'paper', address: wallet });
    expect(preview.review.typed_data.message).toMatchObject({ user: wallet, serviceEnvironment: 'Testnet' });
    expect(await h.call('withdraw:submit', { review_id: preview.review.review_id })).toMatchObject({ amount: '10', phase: 'TRACKING' });
  });

  it('makes one wallet at a time: a second click while one is under way is refused', async () => {
    const [a, b] = await h.advanceDuring('both clicks answered', Promise.all([h.invoke('wallet:createPaper', {}), h.invoke('wallet:createPaper', {})]));
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const refused = (a.ok ? b : a) as { ok: false; error: { code: string } };
    expect(refused.error.code).toBe('PAPER_WALLET_IN_PROGRESS');
    // The one that went through is the session's wallet now; carry on with it.
    wallet = (await h.call('wallet:current', {})).address!;
  });

  it('reconnects the remembered paper wallet after a restart, with no password, and it still signs', async () => {
    await ensurePaperWallet();
    await h.core.stop();
    h = await AppHarness.start('paper', { dataDir: h.dataDir, core: { keychainService } });
    const view = await h.call('wallet:current', {});
    expect(view).toMatchObject({ address: wallet, signer: { kind: 'paper' }, last_signer_kind: 'paper' });
    const before = new Decimal((await h.call('account:balance', {})).free_balance);
    const preview = await h.call('withdraw:preview', { amount: '5' });
    await h.call('withdraw:submit', { review_id: preview.review.review_id });
    expect(new Decimal((await h.call('account:balance', {})).free_balance).lte(before.minus(5))).toBe(true);
  });

  it('on mainnet the paper wallet is not connected, signs nothing, and none can be made; back on sim it is reconnected', async () => {
    await ensurePaperWallet();
    const entries = (await rawKeytar.findCredentials(keychainService)).length;
    await h.call('app:setProfile', { profile: 'mainnet', mainnet: { base_url: 'http://127.0.0.1:9/api/v1', venue_info_url: 'http://127.0.0.1:9/info' } });
    try {
      expect(await h.call('wallet:current', {})).toMatchObject({ address: wallet, signer: null, last_signer_kind: 'paper' });
      const refused = await h.fail('withdraw:preview', { amount: '5' });
      expect(refused.code).toBe('SIGNER_NOT_CONNECTED');
      expect(refused.hint).toMatch(/paper wallet/);
      expect((await h.fail('wallet:createPaper', {})).code).toBe('NOT_SIM_PROFILE');
      expect((await rawKeytar.findCredentials(keychainService)).length).toBe(entries);
    } finally {
      await h.call('app:setProfile', { profile: 'sim' });
    }
    expect(await h.call('wallet:current', {})).toMatchObject({ address: wallet, signer: { kind: 'paper' } });
  });

  it('a remembered paper wallet whose key is gone from the keychain stays unconnected, and the log says why', async () => {
    await ensurePaperWallet();
    await h.core.stop();
    await rawKeytar.deletePassword(keychainService, `paper-wallet:sim/${wallet.toLowerCase()}`);
    h = await AppHarness.start('paper', { dataDir: h.dataDir, core: { keychainService } });
    expect(await h.call('wallet:current', {})).toMatchObject({ address: wallet, signer: null });
    expect(h.logs.some((l) => l.startsWith('warn ') && l.includes(wallet) && l.includes('not in the keychain'))).toBe(true);
    // A new paper wallet replaces it in one click.
    const r = await h.advanceDuring('the new paper wallet', h.call('wallet:createPaper', {}));
    expect(r.wallet.address).not.toBe(wallet);
    expect(r.wallet.signer?.kind).toBe('paper');
  });
});

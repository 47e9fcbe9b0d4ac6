/**
 * AppCore on the sim profile, driven end to end through the registered IPC handlers: onboarding with a
 * keystore main wallet (password flow, wrong password refused), a trading key created in the real OS
 * keychain and authorized with exactly the reviewed typed data, the faucet, a bracket order (entry +
 * TP + SL) with its events (order status, fills, positions, marks; throttled), history windows and CSV
 * export, closing the position, a withdrawal followed to COMPLETED, and the key revoked.
 *
 * The simulator runs a manual clock (issue 37): a deposit's credit, an order's progress, /positions (which
 * lags a fill), the venue's ticks and a withdrawal's steps move as the test moves it (advanceUntil), and a
 * call that waits on that clock (a close waiting for its fill) is awaited while the clock moves.
 *
 * Each test builds what it needs (appCoreSetup's ensure helpers look at the app's actual state through
 * IPC and build only what is missing: the wallet, the trading key, the faucet's deposit, the bracket's
 * position), so every test passes alone, in the file's order and shuffled; in the file's order they build
 * only the session's wallet and otherwise find what the test before left. The tests share one session, except those that need a fresh app or end what
 * they use (onboarding from nothing, the switch to a configured mainnet profile, the quit): each of those
 * starts and stops an AppHarness of its own. After every test, nothing new was logged at error level.
 */
import { Wallet } from 'ethers';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical, roundToStep } from '../../../src/shared/decimal/index.js';
import type { IpcEventPayload } from '../../../src/shared/ipc.js';
import { AppHarness, makeKeystore } from './appHarness.js';
import {
  PASSWORD,
  ensureEthBracketPosition,
  ensureEthTraded,
  ensureFillsDelivered,
  ensureFunded,
  ensureNoEthPosition,
  ensureNoTradingKey,
  ensureTradingKey,
  ensureUnfundedWallet,
  ensureWallet,
  ethMarket,
} from './appCoreSetup.js';

function maxPerSecond(times: number[]): number {
  let best = 0;
  for (let i = 0; i < times.length; i++) {
    let j = i;
    while (j < times.length && times[j]! - times[i]! < 1000) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

/** A harness's log lines at error level. */
function errorLines(logs: readonly string[]): string[] {
  if (process.env['PERPS_DEBUG_LOGS']) console.log(logs.join('\n'));
  return logs.filter((l) => l.startsWith('error '));
}

/**
 * Runs `use` on an AppHarness of its own (a fresh app: another data folder, keychain service and
 * simulator), stopped and removed after, whatever happens; what it logged, the stop included, holds no error.
 */
async function withOwnHarness(label: string, use: (own: AppHarness) => Promise<void>): Promise<void> {
  const own = await AppHarness.start(label);
  try {
    await use(own);
  } finally {
    try {
      await own.stop();
    } finally {
      own.cleanup();
    }
  }
  expect(errorLines(own.logs)).toEqual([]);
}

describe('AppCore on the sim profile, through the IPC handlers', () => {
  let h: AppHarness;
  /** How many of h's log lines an afterEach has checked: the next one checks those after. */
  let logsChecked = 0;

  beforeAll(async () => {
    h = await AppHarness.start('flow');
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  // Every test, alone too, logs no errors (the start's lines are checked with the first test's).
  afterEach(() => {
    const lines = h.logs.slice(logsChecked);
    logsChecked = h.logs.length;
    expect(errorLines(lines)).toEqual([]);
  });

  it('starts the simulator in-process and reports the sim profile', async () => {
    const info = await h.call('app:getInfo', {});
    expect(info).toMatchObject({ name: 'Perps Desk', profile: 'sim' });
    const profile = await h.call('app:getProfile', {});
    expect(profile.active).toBe('sim');
    expect(profile.environment).toBe('Testnet');
    expect(profile.sim.running).toBe(true);
    expect(profile.sim.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(profile.mainnet.configured).toBe(false);
    // Mainnet without URLs is refused and the sim session keeps running.
    expect(await h.fail('app:setProfile', { profile: 'mainnet' })).toMatchObject({ code: 'VALIDATION', reason: 'PROFILE_NOT_CONFIGURED' });
    expect((await h.call('app:getProfile', {})).sim.running).toBe(true);
  });

  it('onboards a keystore main wallet: a wrong password is refused, the right one connects', async () => {
    // Onboarding starts from an app that has never had a wallet: a fresh one, not this session's.
    await withOwnHarness('onboarding', async (h) => {
      expect((await h.call('wallet:current', {})).address).toBeNull();
      expect((await h.fail('keys:list', {})).code).toBe('NO_WALLET');
      const keystore = await makeKeystore(h.dataDir, PASSWORD);
      h.nextOpenFile = keystore.file;
      const choice = await h.call('wallet:chooseKeystoreFile', {});
      expect(choice).not.toBeNull();
      expect(choice!.file_name).toBe('main-wallet.json');
      expect(choice!.address).toBe(keystore.wallet.address);
      // The renderer never sees the path, only a token.
      expect(JSON.stringify(choice)).not.toContain(h.dataDir);
      const wrong = await h.fail('wallet:connectKeystore', { file_token: choice!.file_token, password: 'wrong' });
      expect(wrong).toMatchObject({ code: 'VALIDATION', reason: 'WRONG_PASSWORD' });
      // Main keeps paths: the page is told which keystore by its name, never where it lives.
      expect(JSON.stringify(wrong)).toContain('main-wallet.json');
      expect(JSON.stringify(wrong)).not.toContain(h.dataDir);
      const view = await h.call('wallet:connectKeystore', { file_token: choice!.file_token, password: PASSWORD });
      expect(view.address).toBe(keystore.wallet.address);
      expect(view.signer).toMatchObject({ kind: 'keystore', label: 'Keystore main-wallet.json' });
      const wallet = view.address!;
      // A used token cannot be replayed.
      expect((await h.fail('wallet:connectKeystore', { file_token: choice!.file_token, password: PASSWORD })).reason).toBe('UNKNOWN_FILE_TOKEN');
      await h.waitFor('a session event with the wallet', () => h.eventsOf<IpcEventPayload<'session'>>('session').some((e) => e.payload.wallet.address === wallet));
    });
  });

  it('the page can name only PERPS_ variables as a key source, and learns nothing of the others', async () => {
    const wallet = await ensureWallet(h);
    h.env['HOME_KEY_PROBE'] = '0x' + '11'.repeat(32);
    const probe = await h.fail('wallet:connectEnv', { variable: 'HOME_KEY_PROBE' });
    expect(probe).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'variable' });
    expect(JSON.stringify(probe)).not.toMatch(/hex|private key|secp256k1/i);
    expect((await h.fail('wallet:connectEnv', { variable: 'PATH' })).code).toBe('INVALID_PAYLOAD');
    expect((await h.fail('wallet:connectEnv', { variable: 'PERPS_NOT_SET_HERE' })).reason).toBe('ENV_KEY_MISSING');
    expect((await h.call('wallet:current', {})).address).toBe(wallet);
  });

  it('authorizes only trading keys held in this keychain: a key the page names is refused before signing', async () => {
    await ensureWallet(h);
    const foreign = Wallet.createRandom().address;
    const refused = await h.fail('keys:review', { action: 'authorize', agent: foreign, expires_in_days: 30 });
    expect(refused).toMatchObject({ code: 'VALIDATION', reason: 'AGENT_NOT_LOCAL' });
    expect((await h.call('keys:list', {})).keys.some((k) => k.agent === foreign)).toBe(false);

    // The separate flow for a key made on another device: main's own dialog first; a "no" prepares nothing.
    h.nextConfirm = false;
    expect((await h.fail('keys:reviewForeign', { agent: foreign, expires_in_days: 7 })).code).toBe('FOREIGN_KEY_NOT_CONFIRMED');
    expect(h.confirmations.at(-1)?.message).toContain(foreign);
    h.nextConfirm = true;
    const review = await h.call('keys:reviewForeign', { agent: foreign, expires_in_days: 7 });
    expect(review.primary_type).toBe('AuthorizeAgent');
    expect(review.warnings.join(' ')).toMatch(/does not hold/);
    const authorized = await h.call('keys:authorize', { review_id: review.review_id });
    expect(authorized).toMatchObject({ agent: foreign, stored_locally: false });
    expect((await h.call('keys:list', {})).keys.find((k) => k.agent === foreign)).toMatchObject({ status: 'ACTIVE', stored_locally: false });
    // Revoked again, so it plays no part in the rest of this session.
    await h.call('keys:revoke', { review_id: (await h.call('keys:review', { action: 'revoke', agent: foreign })).review_id });
  });

  it('creates a trading key in the keychain and authorizes exactly the reviewed typed data', async () => {
    const wallet = await ensureWallet(h);
    // Orders are refused below for want of an authorized key: none may be active yet.
    await ensureNoTradingKey(h);
    const created = await h.call('keys:create', { name: 'desk test' });
    const agent = created.agent;
    expect(created.expires_at).toBeNull();
    const before = await h.call('keys:list', {});
    expect(before.keys.find((k) => k.agent === agent)).toMatchObject({ status: 'NOT_AUTHORIZED', stored_locally: true });
    // Orders need an authorized key: refused before anything is signed.
    expect((await h.fail('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.01' } })).code).toBe('NO_TRADING_KEY');

    const review = await h.call('keys:review', { action: 'authorize', agent, expires_in_days: 30 });
    expect(review.primary_type).toBe('AuthorizeAgent');
    expect(review.signer).toEqual({ kind: 'keystore', address: wallet });
    expect(review.typed_data.domain).toEqual({ name: 'Service Perps', version: '2', chainId: 998 });
    expect(review.typed_data.message).toMatchObject({ user: wallet, agent, serviceEnvironment: 'Testnet' });
    expect(review.summary.join('\n')).toContain(`Authorize trading key ${agent}`);
    const result = await h.call('keys:authorize', { review_id: review.review_id });
    expect(result.agent).toBe(agent);
    expect(String(result.expires_at)).toBe(review.typed_data.message['expiresAt']);
    // A review is used once.
    expect((await h.fail('keys:authorize', { review_id: review.review_id })).code).toBe('REVIEW_EXPIRED');
    const after = await h.call('keys:list', {});
    expect(after.keys.find((k) => k.agent === agent)).toMatchObject({ status: 'ACTIVE', listed: true, expiring_soon: false });
  });

  it('funds the account from the sim faucet', async () => {
    // The credit is checked on an account that held nothing before it.
    await ensureUnfundedWallet(h);
    const info = await h.call('funding:depositInfo', {});
    expect(info.faucet_available).toBe(true);
    expect(info.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(info.rails.map((r) => r.rail)).toContain('hypercore');
    await h.call('funding:faucet', { amount: '5000' });
    await h.advanceUntil('the deposit to be credited', async () => (await h.call('account:balance', {})).free_balance === '5000', 100);
  });

  it('lists markets joined to venue data, and candles', async () => {
    const { markets } = await h.call('markets:list', {});
    const eth = markets.find((m) => m.symbol === 'ETH')!;
    expect(eth).toMatchObject({ venue_symbol: 'ETH', joined: true, is_active: true });
    expect(eth.mark).toMatch(/^\d+(\.\d+)?$/);
    expect(eth.funding_rate).not.toBeNull();
    expect(eth.open_interest).not.toBeNull();
    const pepe = markets.find((m) => m.symbol === 'PEPE')!;
    expect(pepe.venue_symbol).toBe('kPEPE');
    expect(pepe.joined).toBe(true);
    const candles = await h.call('markets:candles', { market: 'ETH', interval: '1m' });
    expect(candles.market).toBe('ETH');
    expect(Array.isArray(candles.candles)).toBe(true);
  });

  it('previews a bracket with the exact typed data, places it, and streams its events', async () => {
    const agent = await ensureTradingKey(h);
    await ensureFunded(h);
    // The bracket opens the ETH long and its legs are the only ETH triggers: no ETH position before it;
    // and its entry's fill is the only one the orders pump has not delivered yet (it notifies "Order filled").
    await ensureNoEthPosition(h);
    await ensureFillsDelivered(h);
    const eth = await ethMarket(h);
    // What this bracket brings (events, notifications) is looked for from here on.
    const eventsFrom = h.events.length;
    const notificationsFrom = h.notifications.length;
    const eventsOf = <T>(name: string) =>
      h.events
        .slice(eventsFrom)
        .filter((e) => e.channel === `event:${name}`)
        .map((e) => ({ payload: e.payload as T, at: e.at }));
    const mark = new Decimal(eth.mark!);
    const tp = canonical(roundToStep(mark.times('1.05'), eth.tick_size, 'down'));
    const sl = canonical(roundToStep(mark.times('0.95'), eth.tick_size, 'down'));
    const preview = await h.call('orders:preview', {
      intent: { kind: 'bracket', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.01', leverage: 5, tp: { trigger_price: tp }, sl: { trigger_price: sl } },
    });
    expect(preview.signer).toBe(agent);
    expect(preview.legs.map((l) => l.label)).toEqual(['entry', 'tp', 'sl']);
    const [entry, tpLeg, slLeg] = preview.legs;
    expect(entry).toMatchObject({ order_type: 'MARKET', time_in_force: 'IOC', fee_kind: 'taker', fee_rate: eth.taker_fee_rate, reduce_only: false, leverage: 5 });
    expect(tpLeg).toMatchObject({ order_type: 'TRIGGER', reduce_only: true, size: '0', side: 'SELL', parent_client_order_id: entry!.client_order_id, trigger: { trigger_price: tp, tpsl: 'TP', is_market: true } });
    expect(slLeg!.trigger).toMatchObject({ trigger_price: sl, tpsl: 'SL' });
    for (const leg of preview.legs) {
      expect(leg.typed_data.primaryType).toBe('Order');
      expect(leg.typed_data.message['market']).toBe('ETH');
      expect(leg.typed_data.message['size']).toBe(leg.size);
      expect(leg.typed_data.message['limitPrice']).toBe(leg.limit_price);
      expect(leg.digest).toMatch(/^0x[0-9a-f]{64}$/);
    }
    expect(new Decimal(preview.total_fee_estimate).eq(new Decimal(entry!.notional).times(eth.taker_fee_rate).toDecimalPlaces(6))).toBe(true);
    expect(preview.margin_required).not.toBeNull();
    // Every decimal crosses as a string.
    expect(typeof preview.total_notional).toBe('string');

    const placed = await h.call('orders:place', { preview_id: preview.preview_id });
    expect(placed.success).toBe(true);
    expect(placed.legs.map((l) => [l.label, l.status])).toEqual([
      ['entry', 'SUBMITTED'],
      ['tp', 'SUBMITTED'],
      ['sl', 'SUBMITTED'],
    ]);
    const entryId = placed.legs[0]!.order_id!;
    const legIds = placed.legs.slice(1).map((l) => l.order_id!);

    const statusOf = (id: string) =>
      eventsOf<IpcEventPayload<'orderStatus'>>('orderStatus')
        .flatMap((e) => e.payload.updates)
        .filter((u) => u.order_id === id);
    await h.advanceUntil('the entry to fill', () => statusOf(entryId).some((u) => u.status === 'FILLED'), 100);
    await h.advanceUntil('a fill event for the entry', () => eventsOf<IpcEventPayload<'fills'>>('fills').some((e) => e.payload.fills.some((f) => f.order_id === entryId)), 100);
    await h.advanceUntil(
      'a positions event with the ETH long',
      () => eventsOf<IpcEventPayload<'positions'>>('positions').some((e) => e.payload.positions.some((p) => p.market === 'ETH' && p.side === 'LONG' && p.unrealized_pnl !== null)),
      100,
    );
    await h.advanceUntil('both bracket legs to arm', () => legIds.every((id) => statusOf(id).some((u) => u.armed)), 100);
    await h.advanceUntil('marks events', () => h.eventsOf<IpcEventPayload<'marks'>>('marks').some((e) => e.payload.marks.some((m) => m.market === 'ETH')), 250);
    expect(h.notifications.slice(notificationsFrom).some((n) => n.title === 'Order filled')).toBe(true);

    const { triggers } = await h.call('orders:listTriggers', {});
    expect(triggers.filter((t) => t.market === 'ETH').map((t) => t.tpsl).sort()).toEqual(['sl', 'tp']);
    expect(triggers.every((t) => t.armed && !t.pending_parent)).toBe(true);

    // Each stream stays within 10 deliveries in any one second.
    for (const name of ['orderStatus', 'fills', 'positions', 'marks', 'withdrawals', 'keyExpiry', 'session']) {
      expect(maxPerSecond(h.eventsOf(name).map((e) => e.at)), name).toBeLessThanOrEqual(10);
    }
  });

  it('attaches PENDING_PARENT legs to their resting entry in the open-orders view', async () => {
    await ensureTradingKey(h);
    await ensureFunded(h);
    const eth = await ethMarket(h);
    const mark = new Decimal(eth.mark!);
    const price = canonical(roundToStep(mark.times('0.5'), eth.tick_size, 'down'));
    const sl = canonical(roundToStep(mark.times('0.4'), eth.tick_size, 'down'));
    const preview = await h.call('orders:preview', { intent: { kind: 'bracket', market: 'ETH', side: 'BUY', order_type: 'LIMIT', size: '0.01', limit_price: price, sl: { trigger_price: sl } } });
    expect(preview.legs[0]!.fee_kind).toBe('maker');
    const placed = await h.call('orders:place', { preview_id: preview.preview_id });
    const entryId = placed.legs[0]!.order_id!;
    const open = await h.advanceUntil('the resting entry with its leg', async () => {
      const { orders } = await h.call('orders:listOpen', { market: 'ETH' });
      const e = orders.find((o) => o.order_id === entryId);
      return e && e.legs.length === 1 ? orders : undefined;
    }, 100);
    const e = open.find((o) => o.order_id === entryId)!;
    expect(e.legs[0]).toMatchObject({ pending_parent: true, parent_order_id: entryId, tpsl: 'sl', armed: false });
    expect(open.some((o) => o.order_id === e.legs[0]!.order_id)).toBe(false);

    // Modify the resting entry, then cancel it (its pending leg goes with it).
    const newPrice = canonical(roundToStep(mark.times('0.45'), eth.tick_size, 'down'));
    const modified = await h.call('orders:modify', { order_id: entryId, price: newPrice, size: '0.01' });
    expect(modified.status).toBe('SUBMITTED');
    const newId = modified.new_order_id!;
    await h.advanceUntil('the modified order to rest', async () => (await h.call('orders:listOpen', { market: 'ETH' })).orders.some((o) => o.order_id === newId && o.limit_price.startsWith(newPrice.split('.')[0]!)), 100);
    const cancelled = await h.call('orders:cancel', { order_id: newId });
    expect(cancelled.results[0]).toMatchObject({ order_id: newId, order_type: 'LIMIT', status: 'SUBMITTED' });
    await h.advanceUntil(
      'the CANCELLED status event',
      () =>
        h
          .eventsOf<IpcEventPayload<'orderStatus'>>('orderStatus')
          .flatMap((x) => x.payload.updates)
          .some((u) => u.order_id === newId && u.status === 'CANCELLED'),
      100,
    );
  });

  it('serves history in windows with a total, and exports CSV through the save dialog', async () => {
    // A faucet deposit and a filled market bracket (three orders) to list.
    await ensureEthTraded(h);
    const first = await h.call('history:orders', { offset: 0, limit: 2 });
    expect(first.rows).toHaveLength(2);
    expect(first.total).toBeGreaterThan(2);
    const second = await h.call('history:orders', { offset: 2, limit: 2 });
    expect(second.total).toBe(first.total);
    expect(second.rows[0]).not.toEqual(first.rows[0]);
    const fills = await h.call('history:fills', { offset: 0, limit: 50, market: 'ETH' });
    expect(fills.total).toBeGreaterThan(0);
    expect((await h.call('history:deposits', { offset: 0, limit: 10 })).rows[0]).toMatchObject({ amount: '5000', status: 'CONFIRMED' });

    h.nextSaveFile = path.join(h.dataDir, 'fills.csv');
    const exported = await h.call('history:exportCsv', { kind: 'fills', market: 'ETH' });
    expect(exported).toEqual({ saved: true, file_name: 'fills.csv', rows: fills.total });
    const csv = fs.readFileSync(h.nextSaveFile, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('tid,order_id,market,dir,price,size,fee,closed_pnl,is_liquidation,filled_at');
    h.nextSaveFile = null;
    expect(await h.call('history:exportCsv', { kind: 'orders' })).toMatchObject({ saved: false, file_name: null });

    // Order history one row per order: every order of the raw log once, its status changes inside, in windows.
    const raw = await h.call('history:orders', { offset: 0, limit: 200 });
    const ids = new Set(raw.rows.map((r) => r.order_id));
    const groups = await h.call('history:orderGroups', { offset: 0, limit: 200 });
    expect(groups.total).toBe(ids.size);
    expect(groups.total).toBeLessThan(raw.total);
    expect(new Set(groups.rows.map((g) => g.order.order_id))).toEqual(ids);
    for (const g of groups.rows) {
      const own = raw.rows.filter((r) => r.order_id === g.order.order_id);
      expect(g.changes).toHaveLength(own.length);
      expect(g.order.status).toBe(g.changes[g.changes.length - 1]!.status);
      // A market order is shown at what it paid, never at its slippage bound.
      if (g.order.order_type === 'MARKET' && g.order.status === 'filled') expect(g.price).toBe(g.avg_fill_price);
    }
    expect(groups.rows.some((g) => g.order.order_type === 'MARKET' && g.order.status === 'filled')).toBe(true);
    const window = await h.call('history:orderGroups', { offset: 1, limit: 1 });
    expect(window).toMatchObject({ total: groups.total, offset: 1, limit: 1 });
    expect(window.rows[0]).toEqual(groups.rows[1]);
    h.nextSaveFile = path.join(h.dataDir, 'orders.csv');
    expect(await h.call('history:exportCsv', { kind: 'orders' })).toEqual({ saved: true, file_name: 'orders.csv', rows: groups.total });
    const orderCsv = fs.readFileSync(h.nextSaveFile, 'utf8').trim().split('\r\n');
    expect(orderCsv[0]).toMatch(/^order_id,.*,price,statuses$/);
    expect(orderCsv).toHaveLength(1 + groups.total);
    h.nextSaveFile = null;
  });

  it('portfolio:get rebuilds the account from its records with a balanced ledger; portfolio:exportCsv writes its tables; bad requests are refused', async () => {
    // The two reads compared below are of one moment: the venue's random walk stops, so a tick between
    // them cannot move the equity (it did, by 0.003, on a loaded machine when the walk ran on the wall clock;
    // on the manual clock the clock stands still between them, and the walk stays stopped for what follows:
    // no test here needs a mark to move).
    await ensureEthTraded(h);
    const frozen = await fetch(h.sim!.urls.control_url + '/freeze-marks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(frozen.status).toBe(200);
    const report = await h.call('portfolio:get', { range: 'all' });
    expect(report.ledger).toMatchObject({ balanced: true, difference: '0', issues: [] });
    const health = await h.call('account:health', {});
    expect(report.equity).toBe(health.equity);
    expect(report.per_market.map((m) => m.market)).toContain('ETH');
    expect(report.points.at(-1)!.equity).toBe(report.equity);

    h.nextSaveFile = path.join(h.dataDir, 'days.csv');
    const exported = await h.call('portfolio:exportCsv', { range: 'all', table: 'days' });
    expect(exported).toEqual({ saved: true, file_name: 'days.csv', rows: report.per_day.length });
    expect(fs.readFileSync(h.nextSaveFile, 'utf8').split('\r\n')[0]).toBe('day,realized_pnl,fees,funding,net');
    h.nextSaveFile = null;
    expect(await h.call('portfolio:exportCsv', { range: '1d', table: 'markets' })).toMatchObject({ saved: false, file_name: null });

    for (const bad of [{ range: '2y' }, { range: 'all', extra: 1 }, {}, { range: ['all'] }]) expect((await h.fail('portfolio:get', bad as never)).code).toBe('INVALID_PAYLOAD');
    expect((await h.fail('portfolio:exportCsv', { range: 'all', table: '../../etc/passwd' } as never)).code).toBe('INVALID_PAYLOAD');
  });

  it('closes the position (cancelling its armed triggers first)', async () => {
    await ensureTradingKey(h);
    await ensureEthBracketPosition(h);
    const { positions } = await h.call('positions:list', {});
    const pos = positions.find((p) => p.market === 'ETH')!;
    expect(pos).toMatchObject({ side: 'LONG' });
    expect(pos.mark).not.toBeNull();
    // The close waits for its cancels and its fill: the clock moves until it answers.
    const closed = await h.advanceDuring('the close', h.call('positions:close', { market: 'ETH' }));
    expect(closed).toMatchObject({ market: 'ETH', closed: true, cancelled_triggers: 2 });
    await h.advanceUntil('a positions event without ETH', () => {
      const last = h.eventsOf<IpcEventPayload<'positions'>>('positions').at(-1);
      return last !== undefined && !last.payload.positions.some((p) => p.market === 'ETH');
    }, 100);
  });

  it('previews a withdrawal (no new-wallet fee: the wallet deposited), submits the reviewed one and follows it to COMPLETED', async () => {
    const wallet = await ensureFunded(h);
    const preview = await h.call('withdraw:preview', { amount: '100' });
    expect(preview.check).toMatchObject({ wallet, amount: '100', destination: wallet });
    expect(preview.check.fee_preview).toBeNull();
    expect(preview.review.primary_type).toBe('Withdraw');
    expect(preview.review.typed_data.message).toMatchObject({ user: wallet, destination: wallet, amount: '100000000' });
    const tracked = await h.call('withdraw:submit', { review_id: preview.review.review_id });
    expect(tracked).toMatchObject({ amount: '100', phase: 'TRACKING', status: 'REQUESTED' });
    await h.advanceUntil(
      'the withdrawal to complete',
      () =>
        h
          .eventsOf<IpcEventPayload<'withdrawals'>>('withdrawals')
          .flatMap((e) => e.payload.withdrawals)
          .some((w) => w.intent_id === tracked.intent_id && w.status === 'COMPLETED'),
      100,
    );
    const statuses = h
      .eventsOf<IpcEventPayload<'withdrawals'>>('withdrawals')
      .flatMap((e) => e.payload.withdrawals)
      .filter((w) => w.intent_id === tracked.intent_id)
      .map((w) => w.status);
    expect(statuses.at(-1)).toBe('COMPLETED');
    expect(h.notifications.some((n) => n.title === 'Withdrawal completed')).toBe(true);
    const list = await h.call('withdraw:list', {});
    expect(list.withdrawals[0]).toMatchObject({ intent_id: tracked.intent_id, phase: 'DONE', status: 'COMPLETED' });
    // The signed body never crosses to the renderer.
    expect(JSON.stringify(list)).not.toMatch(/signature|"body"/);
    expect(list.damaged).toEqual([]);

    // Files in the withdrawals folder that are not records (issue 36): listed apart with why, names
    // cleaned of control characters, contents never shown, and the healthy record still listed.
    const folder = path.join(h.dataDir, 'withdrawals');
    expect(fs.existsSync(path.join(folder, `${tracked.intent_id}.json`))).toBe(true);
    fs.writeFileSync(path.join(folder, 'edited\u001b]52;c;cGF5bWU=\u0007.json'), '{"intent_id": "x", "body": {"signature": "0xdeadbeef"', { mode: 0o600 });
    fs.mkdirSync(path.join(folder, 'a-folder.json'));
    const after = await h.call('withdraw:list', {});
    expect(after.withdrawals.map((w) => w.intent_id)).toEqual([tracked.intent_id]);
    expect(after.damaged.map((d) => d.name).sort()).toEqual(['a-folder.json', 'edited]52;c;cGF5bWU=.json']);
    expect(after.damaged.find((d) => d.name.startsWith('edited'))!.reason).toMatch(/not valid JSON/);
    expect(after.damaged.find((d) => d.name === 'a-folder.json')!.reason).toMatch(/not a regular file|folder|directory/);
    const text = JSON.stringify(after);
    for (const bad of ['deadbeef', '\u001b', '\\u001b', '\u0007']) expect(text).not.toContain(bad);
    fs.rmSync(path.join(folder, 'edited\u001b]52;c;cGF5bWU=\u0007.json'));
    fs.rmdirSync(path.join(folder, 'a-folder.json'));
  });

  it('revokes the key with the reviewed RevokeAgent, deleting it from the keychain', async () => {
    const agent = await ensureTradingKey(h);
    const review = await h.call('keys:review', { action: 'revoke', agent });
    expect(review.primary_type).toBe('RevokeAgent');
    // A review of one kind cannot confirm another.
    expect((await h.fail('keys:authorize', { review_id: review.review_id })).code).toBe('REVIEW_EXPIRED');
    const review2 = await h.call('keys:review', { action: 'revoke', agent });
    const revoked = await h.call('keys:revoke', { review_id: review2.review_id });
    expect(revoked).toMatchObject({ agent, revoked: true, deleted_locally: true });
    expect((await h.call('keys:list', {})).keys.find((k) => k.agent === agent)).toBeUndefined();
  });

  it('switches to a configured mainnet profile and back; the simulator resumes from its saved state', async () => {
    // Configured mainnet URLs stay for the rest of a session: this switch runs in an app of its own, with a funded wallet.
    await withOwnHarness('profiles', async (h) => {
      await ensureFunded(h);
      const before = (await h.call('account:balance', {})).free_balance;
      // URLs the user fills in are validated before they are stored.
      expect((await h.fail('app:setProfile', { profile: 'mainnet', mainnet: { base_url: 'not a url', venue_info_url: 'http://127.0.0.1:9/info' } })).reason).toBe('INVALID_URL');
      const onMainnet = await h.call('app:setProfile', { profile: 'mainnet', mainnet: { base_url: 'http://127.0.0.1:9/api/v1', venue_info_url: 'http://127.0.0.1:9/info' } });
      expect(onMainnet).toMatchObject({ active: 'mainnet', environment: 'Mainnet', sim: { running: false }, mainnet: { configured: true, venue_ws_url: null } });
      expect((await h.call('app:getInfo', {})).profile).toBe('mainnet');
      // The faucet exists only on the simulator.
      expect((await h.fail('funding:faucet', { amount: '1' })).code).toBe('NOT_SIM_PROFILE');
      const back = await h.call('app:setProfile', { profile: 'sim' });
      expect(back).toMatchObject({ active: 'sim', sim: { running: true } });
      expect((await h.call('account:balance', {})).free_balance).toBe(before);
      await h.waitFor('session events for both switches', () => {
        const profiles = h.eventsOf<IpcEventPayload<'session'>>('session').map((e) => e.payload.profile);
        return profiles.includes('mainnet') && profiles.at(-1) === 'sim';
      });
    });
  });

  it('stops the simulator on quit and keeps its state in the data folder', async () => {
    // The quit ends the session: an app of its own, with a wallet whose account the stopped core can no longer read.
    await withOwnHarness('quit', async (h) => {
      await ensureWallet(h);
      await h.core.stop();
      expect(fs.existsSync(path.join(h.dataDir, 'sim', 'state.json'))).toBe(true);
      expect((await h.fail('account:balance', {})).code).toBe('NOT_READY');
    });
  });
});

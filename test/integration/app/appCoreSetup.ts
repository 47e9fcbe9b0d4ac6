/**
 * What a test of appCore.sim needs in place, built on demand: each helper looks at the ACTUAL state
 * through the app's IPC (the wallet, the trading keys, the balance, the positions and triggers, the
 * history) and builds only what is missing, or takes away what is in the way of the test (a position
 * before a bracket that must open one, an active key before one that shows an order refused for want
 * of a key). In the file's order they build only the session's wallet (onboarding runs on an app of its
 * own) and otherwise find what the test before left; alone or shuffled, each builds what the tests it no
 * longer follows used to build, the way they built it.
 */
import { Decimal, canonical, roundToStep } from '../../../src/shared/decimal/index.js';
import type { IpcEventPayload, MarketView } from '../../../src/shared/ipc.js';
import { makeKeystore, type AppHarness } from './appHarness.js';

export const PASSWORD = 'correct horse battery staple';
/** What the faucet credits a wallet with, here. */
export const FAUCET_AMOUNT = '5000';
/** The size of what the helpers trade on ETH (rounded up to ETH's lot where it is used: onLot). */
export const BRACKET_SIZE = '0.01';

/** ETH as markets:list shows it now (its mark, tick and lot). */
export async function ethMarket(h: AppHarness): Promise<MarketView> {
  const eth = (await h.call('markets:list', {})).markets.find((m) => m.symbol === 'ETH');
  if (!eth) throw new Error('markets:list has no ETH');
  return eth;
}

/** A size the market accepts: `size` rounded up to the market's lot (10^-sz_decimals). */
export function onLot(market: MarketView, size: string): string {
  return canonical(roundToStep(size, new Decimal(10).pow(-market.sz_decimals), 'up'));
}

/** Makes a keystore main wallet and connects it through the page's flow (file dialog, password). */
export async function connectNewKeystoreWallet(h: AppHarness): Promise<string> {
  const keystore = await makeKeystore(h.dataDir, PASSWORD);
  h.nextOpenFile = keystore.file;
  const choice = await h.call('wallet:chooseKeystoreFile', {});
  h.nextOpenFile = null;
  if (!choice) throw new Error('the keystore file dialog answered nothing');
  const view = await h.call('wallet:connectKeystore', { file_token: choice.file_token, password: PASSWORD });
  if (view.address !== keystore.wallet.address) throw new Error(`connected ${view.address}, not the keystore's ${keystore.wallet.address}`);
  return view.address;
}

/** The main wallet, connected with its signer: the one there, or a new keystore wallet. */
export async function ensureWallet(h: AppHarness): Promise<string> {
  const current = await h.call('wallet:current', {});
  if (current.address !== null && current.signer !== null) return current.address;
  return connectNewKeystoreWallet(h);
}

/** A wallet with nothing on its account yet (what the faucet's first credit is checked on): a new one if the connected one holds funds. */
export async function ensureUnfundedWallet(h: AppHarness): Promise<string> {
  const wallet = await ensureWallet(h);
  if (new Decimal((await h.call('account:balance', {})).free_balance).isZero()) return wallet;
  return connectNewKeystoreWallet(h);
}

/** The trading key this keychain holds and the service lists as active; one is created and authorized if there is none. */
export async function ensureTradingKey(h: AppHarness): Promise<string> {
  await ensureWallet(h);
  const active = (await h.call('keys:list', {})).keys.filter((k) => k.stored_locally && k.status === 'ACTIVE');
  if (active.length > 1) throw new Error(`more than one active local trading key: ${active.map((k) => k.agent).join(', ')}`);
  if (active[0]) return active[0].agent;
  const { agent } = await h.call('keys:create', { name: 'desk test' });
  const review = await h.call('keys:review', { action: 'authorize', agent, expires_in_days: 30 });
  await h.call('keys:authorize', { review_id: review.review_id });
  return agent;
}

/** No active trading key (orders are then refused for want of one): every active key is revoked. */
export async function ensureNoTradingKey(h: AppHarness): Promise<void> {
  await ensureWallet(h);
  for (const k of (await h.call('keys:list', {})).keys.filter((x) => x.status === 'ACTIVE')) {
    await h.call('keys:revoke', { review_id: (await h.call('keys:review', { action: 'revoke', agent: k.agent })).review_id });
  }
}

/** A wallet that has deposited through the faucet and has money to trade and withdraw: the faucet's credit is waited for if it had not. */
export async function ensureFunded(h: AppHarness): Promise<string> {
  const wallet = await ensureWallet(h);
  const deposited = (await h.call('history:deposits', { offset: 0, limit: 10 })).rows.some((d) => d.status === 'CONFIRMED');
  const before = new Decimal((await h.call('account:balance', {})).free_balance);
  if (deposited && before.gte('1000')) return wallet;
  await h.faucet(FAUCET_AMOUNT);
  return wallet;
}

/** No ETH position: one there is closed (its armed triggers cancelled first), and its end waited for. */
export async function ensureNoEthPosition(h: AppHarness): Promise<void> {
  await ensureWallet(h);
  if (!(await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH')) return;
  await ensureTradingKey(h);
  await h.advanceDuring('the close of the ETH position', h.call('positions:close', { market: 'ETH' }));
  await h.advanceUntil('positions:list without ETH', async () => !(await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH'), 100);
}

/**
 * An ETH long opened by a market bracket whose TP and SL have both armed: the one there, or (after
 * closing an ETH position that is not that) a new bracket placed, filled and armed.
 */
export async function ensureEthBracketPosition(h: AppHarness): Promise<void> {
  await ensureWallet(h);
  const position = (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH');
  const legs = (await h.call('orders:listTriggers', {})).triggers.filter((t) => t.market === 'ETH');
  const armed = (tpsl: string) => legs.filter((t) => t.tpsl === tpsl && t.armed && !t.pending_parent).length === 1;
  if (position?.side === 'LONG' && legs.length === 2 && armed('tp') && armed('sl')) return;
  await ensureNoEthPosition(h);
  await ensureTradingKey(h);
  await ensureFunded(h);
  const eth = await ethMarket(h);
  const mark = new Decimal(eth.mark!);
  const tp = canonical(roundToStep(mark.times('1.05'), eth.tick_size, 'down'));
  const sl = canonical(roundToStep(mark.times('0.95'), eth.tick_size, 'down'));
  const preview = await h.call('orders:preview', {
    intent: { kind: 'bracket', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: onLot(eth, BRACKET_SIZE), leverage: 5, tp: { trigger_price: tp }, sl: { trigger_price: sl } },
  });
  const placed = await h.call('orders:place', { preview_id: preview.preview_id });
  if (!placed.success) throw new Error(`the bracket was not placed: ${JSON.stringify(placed)}`);
  // The orders pump has read the entry's fill (and so dropped the history's cached copy) when it delivers it.
  await fillDelivered(h, placed.legs[0]!.order_id!);
  await h.advanceUntil('the ETH long to be listed', async () => (await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH' && p.side === 'LONG'), 100);
  await h.advanceUntil(
    'both bracket legs to arm',
    async () => {
      const { triggers } = await h.call('orders:listTriggers', {});
      const eth = triggers.filter((t) => t.market === 'ETH');
      return eth.length === 2 && eth.every((t) => t.armed && !t.pending_parent);
    },
    100,
  );
}

/** Waits for the orders pump to deliver a fill of `orderId` (a fills event). */
async function fillDelivered(h: AppHarness, orderId: string): Promise<void> {
  await h.advanceUntil(`a fill event for order ${orderId}`, () => h.eventsOf<IpcEventPayload<'fills'>>('fills').some((e) => e.payload.fills.some((f) => f.order_id === orderId)), 100);
}

/**
 * Every fill of the wallet has been delivered by the orders pump (a fills event), so the next fill it reads
 * is that order's alone ("Order filled", not "Orders filled"). The pump follows every order the app places
 * or closes, a market close included (6d9c339), so this waits for it to deliver what history already lists.
 * (The wallets here are made in the session, so no fill predates their pumps' start.)
 */
export async function ensureFillsDelivered(h: AppHarness): Promise<void> {
  await ensureWallet(h);
  const delivered = () => new Set(h.eventsOf<IpcEventPayload<'fills'>>('fills').flatMap((e) => e.payload.fills.map((f) => f.tid)));
  await h.advanceUntil('every fill in history delivered as a fills event', async () => {
    const seen = delivered();
    return (await h.call('history:fills', { offset: 0, limit: 200 })).rows.every((f) => seen.has(f.tid));
  }, 100);
}

/** The wallet has traded ETH (a market order filled, its fills in history): a bracket is placed if it has not. */
export async function ensureEthTraded(h: AppHarness): Promise<void> {
  await ensureFunded(h);
  if ((await h.call('history:fills', { offset: 0, limit: 1, market: 'ETH' })).total > 0) return;
  await ensureEthBracketPosition(h);
}

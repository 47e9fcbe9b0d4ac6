/**
 * The companion screens: a bridge from arbitrum to base compared across routes, reviewed, signed by the
 * main wallet and followed to the bridge's pending state and then done; the points it earned; a swap on
 * base through the aggregator under the partner code; the companion settings; the assistant, off until a
 * key is set; errors that stop a transfer before anything is sent; and the receiver allowlist (a receiver
 * added in Settings after main's warning, then offered on the Bridge screen).
 */
import type { Page } from '@playwright/test';
import { Wallet } from 'ethers';
import { expect, openApp, placeFromTicket, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { wipeService } from '../support/keychain.js';

const ETH = 10n ** 18n;
/** The simulator's USDC on base (a real mainnet address; the simulator lists it). */
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

let app: E2eApp | undefined;
test.afterEach(async () => {
  if (app) await wipeService(`${app.keychainService}.inference`);
  await app?.stop();
  app = undefined;
});

/** Transfers are followed every 100 ms of wall time (the default is seconds, for real services). */
const FAST = { core: { companion: { pollIntervalMs: 100, rpcPollingIntervalMs: 50 } } } as const;

const companionControl = (a: E2eApp, route: string, body: unknown): Promise<void> => a.companionControl(route, body);

/** While set, the bridge's order reads fail as a refused connection would (the simulator has no outage switch for its companions). */
let bridgeDown = false;
const bridgeSwitch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  if (bridgeDown && url.pathname.endsWith('/bridge/orders')) throw new TypeError('fetch failed');
  return fetch(input, init);
};

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

test('a bridge compared, reviewed, sent and followed to done; its points', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'bridge', { onboard: true, core: { ...FAST.core, fetch: bridgeSwitch } });
  await companionControl(app, '/rpc/fund', { chain: 'arbitrum', address: app.mainWallet.address, amount: (2n * ETH).toString() });
  // Points are estimated and credited for the app's partner code (the swap scenario sets it in the UI).
  await app.call('companion:setPartnerCode', { code: 'perpsdesk' });

  await nav(page, 'Bridge');
  await expect(page.getByRole('heading', { name: 'Bridge', exact: true })).toBeVisible();
  const form = page.getByRole('form', { name: 'Bridge transfer' });
  await form.getByLabel('From chain').selectOption('arbitrum');
  await form.getByLabel('To chain').selectOption('base');
  // Both sides default to the chain's native token; its balance is read from the chain.
  await expect(form.getByRole('radiogroup', { name: 'From token kind' }).getByRole('radio', { name: 'Native token' })).toHaveAttribute('aria-checked', 'true');
  await expect(form.getByLabel('From token details')).toContainText('18 decimals', { timeout: 10_000 });
  await expect(form.getByLabel('From token details')).toContainText('Wallet balance: 2');

  // Error path: more decimals than the token has, and a bad slippage: nothing can be quoted or sent.
  await form.getByLabel('Amount to send').fill('0.1234567890123456789');
  await expect(form.getByText('This token has 18 decimals')).toBeVisible();
  await form.getByLabel('Slippage').fill('0.005%');
  await expect(form.getByText('A percentage such as 0.5')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Get quotes' })).toBeDisabled();
  await screenshot(page, 'bridge-error');

  await form.getByLabel('Amount to send').fill('0.25');
  await form.getByLabel('Slippage').fill('0.5');
  await expect(form.getByText('50 bps')).toBeVisible();
  await form.getByLabel('Value sent (USD)').fill('750');
  await form.getByLabel('Value received (USD)').fill('745');
  await form.getByRole('button', { name: 'Get quotes' }).click();

  // Routes compared by what arrives, best first, with a live countdown to the quote's expiry.
  const routes = page.getByRole('table', { name: 'Bridge routes' });
  await expect(routes).toBeVisible({ timeout: 10_000 });
  const rows = routes.getByRole('row', { name: /^Route / });
  expect(await rows.count()).toBeGreaterThan(1);
  await expect(rows.first()).toContainText('Best');
  await expect(page.getByLabel(/Quote expires in: \d+s/)).toBeVisible();
  await expect(page.getByText('the app re-quotes automatically')).toBeVisible();
  await screenshot(page, 'bridge-routes');

  // The user picks a route other than the best: that is the one encoded and sent.
  const second = rows.nth(1);
  const protocol = (await second.getByRole('button').getAttribute('aria-label'))!.replace('Review route ', '');
  await second.getByRole('button').click();
  const review = page.getByRole('dialog', { name: 'Review bridge · arbitrum → base' });
  await expect(review).toBeVisible();
  await expect(review.getByLabel('Bridge transfer')).toContainText(protocol);
  await expect(review.getByLabel('Bridge transfer')).toContainText('Minimum received');
  await expect(review.getByLabel('Bridge transfer')).toContainText(app.mainWallet.address);
  await expect(review.getByLabel('Points estimate')).toContainText('Base points', { timeout: 10_000 });
  await expect(review.getByLabel('Points estimate')).toContainText('Partner bonus (perpsdesk)');
  await expect(review).toContainText('Environment variable PERPS_E2E_MAIN_KEY');
  await expect(review).toContainText('signed by your main wallet');
  await screenshot(page, 'bridge-review');
  await review.getByRole('button', { name: 'Sign and send' }).click();
  await expect(review).toBeHidden();

  // The timeline follows the transfer: sent and confirmed, then the bridge delivering.
  const timeline = page.getByRole('list', { name: 'Transfer timeline' });
  await expect(timeline.getByRole('listitem', { name: 'Bridge pending: in progress' })).toBeVisible({ timeout: 20_000 });
  await expect(timeline.getByRole('listitem', { name: 'Confirm: done' })).toBeVisible();
  await expect(timeline.getByRole('listitem', { name: 'Approve: done' })).toContainText('Not needed');
  await expect(timeline).toContainText('The bridge is delivering to base', { timeout: 10_000 });
  const details = page.getByLabel('Transfer details');
  await expect(details).toContainText(protocol);
  const srcTx = (await details.getByRole('button', { name: 'Copy source transaction hash' }).locator('xpath=preceding-sibling::span').textContent())!;
  expect(srcTx).toMatch(/^0x[0-9a-f]{64}$/);
  await screenshot(page, 'bridge-pending');

  // The bridge stops answering: the progress view says so and since when, and the app keeps trying.
  bridgeDown = true;
  const warning = page.getByRole('status', { name: 'Bridge tracking warning' });
  try {
    await expect(warning).toContainText(/Can.t reach the bridge since \d{2}:\d{2}:\d{2}/, { timeout: 20_000 });
    await expect(warning).toContainText('still trying');
    await expect(timeline.getByRole('listitem', { name: 'Bridge pending: in progress' })).toBeVisible();
    await screenshot(page, 'bridge-unreachable');
  } finally {
    bridgeDown = false;
  }
  await expect(warning).toBeHidden({ timeout: 20_000 });

  // The simulated bridge settles the order when its time comes.
  await companionControl(app, '/bridge/outcome', { src_tx: srcTx, state: 'done' });
  await app.advance(800_000);
  await expect(timeline.getByRole('listitem', { name: 'Done: done' })).toBeVisible({ timeout: 20_000 });
  await expect(timeline).toContainText('Delivered on base');
  await expect(page.getByRole('status').filter({ hasText: 'Bridge arbitrum → base done' })).toBeVisible();
  const recent = page.getByRole('table', { name: 'Recent transfers' });
  await expect(recent.getByRole('row', { name: 'bridge arbitrum to base done' })).toBeVisible();
  await screenshot(page, 'bridge-done');

  // The next order is refunded by the bridge: the timeline says where it stopped and what that means.
  await companionControl(app, '/bridge/outcome', { next: true, state: 'refunded' });
  await expect(form.getByLabel('Amount to send')).toHaveValue('');
  await form.getByLabel('Amount to send').fill('0.1');
  await form.getByRole('button', { name: 'Get quotes' }).click();
  await expect(rows.first()).toBeVisible({ timeout: 10_000 });
  await rows.first().getByRole('button').click();
  await page.getByRole('dialog', { name: 'Review bridge · arbitrum → base' }).getByRole('button', { name: 'Sign and send' }).click();
  await expect(timeline.getByRole('listitem', { name: 'Bridge pending: in progress' })).toBeVisible({ timeout: 20_000 });
  await app.advance(800_000);
  await expect(timeline.getByRole('listitem', { name: 'Refunded: failed' })).toBeVisible({ timeout: 20_000 });
  await expect(timeline).toContainText('returned the full value on the venue');
  await expect(recent.getByRole('row', { name: 'bridge arbitrum to base refunded' })).toBeVisible();
  await screenshot(page, 'bridge-refunded');

  // Track a transaction: a hash is checked before it is sent; a known one shows its transfer.
  const track = page.getByRole('form', { name: 'Track a transaction' });
  await track.getByLabel('Source transaction hash').fill('0x1234');
  await expect(track.getByText('A transaction hash: 0x followed by 64 hex characters')).toBeVisible();
  await expect(track.getByRole('button', { name: 'Track' })).toBeDisabled();
  await track.getByLabel('Source transaction hash').fill(srcTx);
  await track.getByRole('button', { name: 'Track' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Following the transaction' })).toBeVisible();

  // Points: the delivered bridge is credited; the range defaults to the last 30 days.
  await nav(page, 'Points');
  await expect(page.getByRole('heading', { name: 'Points', exact: true })).toBeVisible();
  const summary = page.getByLabel('Points summary');
  await expect(summary).toContainText('Base points', { timeout: 10_000 });
  await expect(summary.getByText(/^[1-9][\d,.]*$/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await page.getByLabel('From', { exact: true }).fill('2020-01-01');
  await page.getByRole('button', { name: 'Show points' }).click();
  await expect(summary).toContainText('Base points');
  await screenshot(page, 'points');

  // Ended transfers can be dismissed from the list.
  await nav(page, 'Bridge');
  const row = page.getByRole('table', { name: 'Recent transfers' }).getByRole('row', { name: 'bridge arbitrum to base done' });
  await row.getByRole('button', { name: /^Dismiss bridge/ }).click();
  await expect(row).toBeHidden();
  await expect(page.getByRole('table', { name: 'Recent transfers' }).getByRole('row', { name: 'bridge arbitrum to base refunded' })).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('companion settings and a swap under the partner code', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'swap', { onboard: true, ...FAST });
  await companionControl(app, '/rpc/fund', { chain: 'base', address: app.mainWallet.address, amount: ETH.toString() });

  // Without a partner code the aggregator refuses: the error says what to do and nothing is sent.
  await nav(page, 'Swap');
  const form = page.getByRole('form', { name: 'Swap', exact: true });
  await form.getByLabel('Chain', { exact: true }).selectOption('base');
  await form.getByLabel('Token out address').fill(BASE_USDC);
  await expect(form.getByLabel('Token out details')).toContainText('USDC', { timeout: 10_000 });
  await form.getByLabel('Amount to swap').fill('0.1');
  await form.getByRole('button', { name: 'Get quote' }).click();
  const refused = form.getByRole('alert').filter({ hasText: 'partner code' });
  await expect(refused).toBeVisible({ timeout: 10_000 });
  await expect(refused).toContainText('PARTNER_CODE_REQUIRED');
  await expect(refused).toContainText('Companion services');
  await screenshot(page, 'swap-error');

  // Settings → Companion services: the partner code, and a chain's RPC URL (checked against its chain).
  await nav(page, 'Settings');
  const partner = page.getByRole('form', { name: 'Partner code' });
  await partner.getByLabel('Partner code').fill('perpsdesk');
  await partner.getByRole('button', { name: 'Set partner code' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Partner code set' })).toBeVisible();
  const rpc = page.getByRole('table', { name: 'JSON-RPC URLs' });
  const arbitrum = rpc.getByRole('row', { name: 'RPC arbitrum' });
  await expect(arbitrum).toContainText('simulator');
  await arbitrum.getByRole('button', { name: 'Edit RPC URL for arbitrum' }).click();
  await arbitrum.getByLabel('JSON-RPC URL for arbitrum').fill(`${app.sim.urls.rpc_url}/base`);
  await arbitrum.getByRole('button', { name: 'Apply RPC URL for arbitrum' }).click();
  await expect(arbitrum.getByRole('alert')).toBeVisible({ timeout: 10_000 });
  await expect(arbitrum).toContainText('simulator');
  await arbitrum.getByLabel('JSON-RPC URL for arbitrum').fill(`${app.sim.urls.rpc_url}/arbitrum`);
  await arbitrum.getByRole('button', { name: 'Apply RPC URL for arbitrum' }).click();
  await expect(arbitrum).toContainText('stored', { timeout: 10_000 });
  await screenshot(page, 'settings-companion');
  await arbitrum.getByRole('button', { name: 'Clear RPC URL for arbitrum' }).click();
  await expect(arbitrum).toContainText('simulator');

  // The swap: quote, review with the points estimate, execute, followed to done.
  await nav(page, 'Swap');
  await form.getByLabel('Chain', { exact: true }).selectOption('base');
  await form.getByLabel('Token out address').fill(BASE_USDC);
  await form.getByLabel('Amount to swap').fill('0.1');
  await form.getByLabel('Slippage').fill('1');
  await expect(form.getByText('Sent as 0.01')).toBeVisible();
  await form.getByLabel('Value in (USD)').fill('300');
  await form.getByLabel('Value out (USD)').fill('299');
  await expect(form).toContainText('perpsdesk');
  await form.getByRole('button', { name: 'Get quote' }).click();
  const quote = page.getByLabel('Swap quote');
  await expect(quote).toContainText('USDC', { timeout: 10_000 });
  await expect(quote).toContainText('Minimum received');
  await expect(quote).toContainText('perpsdesk');
  await screenshot(page, 'swap-quote');
  await page.getByRole('button', { name: 'Review swap' }).click();
  const review = page.getByRole('dialog', { name: 'Review swap · base' });
  await expect(review.getByLabel('Points estimate')).toContainText('Partner bonus (perpsdesk)', { timeout: 10_000 });
  await screenshot(page, 'swap-review');
  await review.getByRole('button', { name: 'Sign and swap' }).click();
  await expect(review).toBeHidden();
  const timeline = page.getByRole('list', { name: 'Transfer timeline' });
  await expect(timeline.getByRole('listitem', { name: 'Done: done' })).toBeVisible({ timeout: 20_000 });
  await expect(timeline.getByRole('listitem', { name: 'Bridge pending' })).toHaveCount(0);
  await expect(timeline).toContainText('Swap confirmed on chain');
  await expect(page.getByLabel('Transfer details').getByRole('button', { name: 'Copy source transaction hash' })).toBeVisible();
  await screenshot(page, 'swap-done');
  expect(pageErrors).toEqual([]);
});

test('the assistant: off until a key is set, then answers about positions', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'assistant', { onboard: true });
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Market', size: '1' });
  await app.advance(1_000);
  await expect(page.getByRole('row', { name: 'ETH position' })).toBeVisible({ timeout: 10_000 });

  const toggle = page.getByRole('button', { name: 'Assistant', exact: true });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  const panel = page.getByRole('complementary', { name: 'Assistant' });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('The assistant is off');
  const key = panel.getByLabel('Inference API key');
  await expect(key).toHaveAttribute('type', 'password');
  await expect(panel).toContainText('keychain');
  await screenshot(page, 'assistant-off');

  // A refused key changes nothing and says why.
  await key.fill('sk-sim-unknown-9999');
  await panel.getByRole('button', { name: 'Save key and turn on' }).click();
  await expect(panel.getByRole('alert')).toBeVisible({ timeout: 10_000 });
  await key.fill('sk-sim-default-0001');
  await panel.getByRole('button', { name: 'Save key and turn on' }).click();
  const model = panel.getByLabel('Model');
  await expect(model).toBeVisible({ timeout: 10_000 });
  await expect(model.locator('option', { hasText: 'sim-chat-mini' })).toHaveCount(1, { timeout: 10_000 });
  await model.selectOption('sim-chat-mini');
  await expect(panel.locator('.assistant-model')).toHaveText('sim-chat-mini', { timeout: 10_000 });

  await panel.getByLabel('Question').fill('What are my open positions and how exposed am I?');
  await panel.getByRole('button', { name: 'Ask' }).click();
  const answer = panel.getByRole('list', { name: 'Answers' }).getByRole('listitem').first();
  await expect(answer).toBeVisible({ timeout: 20_000 });
  await expect(answer).toContainText('What are my open positions');
  await expect(answer).toContainText('sim-chat-mini');
  await expect(answer).toContainText(/\d+ prompt \+ \d+ completion tokens/);
  await expect(answer).toContainText('Context: 1 position');
  await screenshot(page, 'assistant-answer');

  // The panel closes and opens again with the session's answers; removing the key turns it off.
  await panel.getByRole('button', { name: 'Close assistant' }).click();
  await expect(panel).toBeHidden();
  await toggle.click();
  await expect(panel.getByRole('list', { name: 'Answers' }).getByRole('listitem')).toHaveCount(1);
  await panel.getByRole('button', { name: 'Remove key' }).click();
  await page.getByRole('dialog', { name: 'Remove the inference key?' }).getByRole('button', { name: 'Remove key' }).click();
  await expect(panel).toContainText('The assistant is off', { timeout: 10_000 });
  expect(pageErrors).toEqual([]);
});

/** 0x1234…abcd, as the receiver picker labels an address. */
const short = (a: string): string => `${a.slice(0, 6)}…${a.slice(-4)}`;

test('a receiver is added in Settings after main’s warning and the address typed again, then offered on the Bridge screen', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'receivers', { onboard: true, ...FAST });
  await companionControl(app, '/rpc/fund', { chain: 'arbitrum', address: app.mainWallet.address, amount: (2n * ETH).toString() });
  const added: { address: string; label: string }[] = [];

  for (const [i, size] of [
    { width: 1440, height: 900 },
    { width: 1024, height: 680 },
  ].entries()) {
    await page.setViewportSize(size);
    const name = (view: string) => `receivers-${size.width}x${size.height}-${view}`;
    const friend = { address: Wallet.createRandom().address, label: i === 0 ? 'Cold wallet' : 'Savings on base' };

    // The Bridge form offers the main wallet; another address is refused here already, with the way to add it.
    await nav(page, 'Bridge');
    const form = page.getByRole('form', { name: 'Bridge transfer' });
    const receiver = form.getByLabel('Receiver', { exact: true });
    // The form keeps its state across views: the main wallet is the choice until the user picks another.
    if (i === 0) await expect(receiver.locator('option:checked')).toHaveText(`Your main wallet · ${short(app.mainWallet.address)}`);
    await form.getByLabel('From chain').selectOption('arbitrum');
    await form.getByLabel('To chain').selectOption('base');
    await form.getByLabel('Amount to send').fill('0.1');
    await receiver.selectOption({ label: 'Another address…' });
    await form.getByLabel('Receiver address').fill(friend.address);
    const refusal = form.getByRole('status', { name: 'Receiver not allowed' });
    await expect(refusal).toContainText('not on your receiver allowlist');
    await expect(form.getByRole('button', { name: 'Get quotes' })).toBeDisabled();
    await refusal.scrollIntoViewIfNeeded();
    await screenshot(page, name('bridge-not-allowed'));
    expect.soft(await misfits(page)).toEqual([]);
    await refusal.getByRole('button', { name: 'Add it in Settings' }).click();

    // Settings: the address is carried over; main answers its warning, and the address must be typed again.
    const addForm = page.getByRole('form', { name: 'Add a receiver' });
    await expect(addForm.getByLabel('Receiver address')).toHaveValue(friend.address);
    await addForm.getByLabel('Label').fill(friend.label);
    await addForm.getByRole('button', { name: 'Add receiver…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm the receiver' });
    await expect(confirm.getByRole('alert', { name: 'Receiver warning' })).toContainText('leave your wallet: only add addresses you control or trust');
    await expect(confirm.getByLabel('Receiver to add')).toContainText(friend.address);
    await confirm.getByLabel('Type the address again').fill(Wallet.createRandom().address);
    await expect(confirm.getByText('Not the same address')).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Add receiver', exact: true })).toBeDisabled();
    await screenshot(page, name('confirm'));
    await confirm.getByLabel('Type the address again').fill(friend.address.toLowerCase());
    await confirm.getByRole('button', { name: 'Add receiver', exact: true }).click();
    await expect(confirm).toBeHidden();
    // This receiver's toast (the one for the receiver added at the other size may still be shown beside it).
    await expect(page.getByRole('status').filter({ hasText: 'Receiver added' }).filter({ hasText: friend.label })).toBeVisible();
    added.push(friend);
    const table = page.getByRole('table', { name: 'Receivers' });
    for (const r of added) await expect(table.getByRole('row', { name: `Receiver ${r.label}` })).toContainText(r.address);
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, name('settings'));
    expect.soft(await misfits(page)).toEqual([]);

    // Back on the Bridge screen every receiver added is offered; the one picked is quoted and reviewed as "another address".
    await nav(page, 'Bridge');
    for (const r of added) await expect(receiver.locator('option', { hasText: `${r.label} · ${short(r.address)}` })).toHaveCount(1);
    await form.getByLabel('From chain').selectOption('arbitrum');
    await form.getByLabel('To chain').selectOption('base');
    await form.getByLabel('Amount to send').fill('0.1');
    await receiver.selectOption({ label: `${friend.label} · ${short(friend.address)}` });
    await expect(form.getByText(friend.address)).toBeVisible();
    await form.getByRole('button', { name: 'Get quotes' }).click();
    const routes = page.getByRole('table', { name: 'Bridge routes' });
    await expect(routes).toBeVisible({ timeout: 10_000 });
    await screenshot(page, name('bridge-offered'));
    expect.soft(await misfits(page)).toEqual([]);
    await routes.getByRole('row', { name: /^Route / }).first().getByRole('button').click();
    const review = page.getByRole('dialog', { name: 'Review bridge · arbitrum → base' });
    await expect(review.getByLabel('Bridge transfer')).toContainText('To (another address)');
    await expect(review.getByLabel('Bridge transfer')).toContainText(friend.address);
    await expect(review).toContainText('not to your main wallet');
    await screenshot(page, name('bridge-review'));
    await review.getByRole('button', { name: 'Close dialog' }).click();
    await expect(review).toBeHidden();
  }

  // The Swap screen offers the same receivers.
  await nav(page, 'Swap');
  const swapReceiver = page.getByRole('form', { name: 'Swap', exact: true }).getByLabel('Receiver', { exact: true });
  for (const r of added) await expect(swapReceiver.locator('option', { hasText: `${r.label} · ${short(r.address)}` })).toHaveCount(1);

  // A receiver removed in Settings is no longer offered.
  await nav(page, 'Settings');
  await page.getByRole('button', { name: `Remove receiver ${added[0]!.label}` }).click();
  await expect(page.getByRole('table', { name: 'Receivers' }).getByRole('row', { name: `Receiver ${added[0]!.label}` })).toBeHidden();
  await nav(page, 'Bridge');
  const receiver = page.getByRole('form', { name: 'Bridge transfer' }).getByLabel('Receiver', { exact: true });
  await expect(receiver.locator('option', { hasText: added[1]!.label })).toHaveCount(1);
  await expect(receiver.locator('option', { hasText: added[0]!.label })).toHaveCount(0);
  expect((await app.call('companion:listReceivers', {})).receivers.map((r) => r.address)).toEqual([added[1]!.address]);
  expect(pageErrors).toEqual([]);
});

/** The window's smallest size (MIN_SIZE in src/main/shell/windowState.ts) and a common laptop size. */
const WINDOW_SIZES = [
  { width: 1024, height: 680 },
  { width: 1280, height: 800 },
] as const;

/** The little of the DOM the fit check reads in the page (this Node project has no DOM typings). */
interface Box {
  right: number;
  top: number;
}
interface PageNode {
  textContent: string | null;
  parentElement: PageNode | null;
  scrollWidth: number;
  clientWidth: number;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
}
interface PageDocument {
  documentElement: PageNode;
  scrollingElement: PageNode | null;
  querySelector(selector: string): PageNode | null;
  querySelectorAll(selector: string): Iterable<PageNode>;
  createTreeWalker(root: PageNode, show: number): { nextNode(): PageNode | null };
  createRange(): { selectNodeContents(node: PageNode): void; getClientRects(): Iterable<Box> };
}

/**
 * What does not fit the window: anything in the top or status bar past its right edge, text there broken
 * onto a second line, the nav scrolled out of sight, or a page or view that scrolls sideways.
 */
async function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: PageDocument }).document;
    const width = doc.documentElement.clientWidth;
    const found: string[] = [];
    const name = (el: PageNode) => `${el.getAttribute('class') ?? 'element'} "${(el.textContent ?? '').trim().slice(0, 24)}"`;
    for (const el of doc.querySelectorAll('.topbar > *, .statusbar > *')) {
      if (el.getBoundingClientRect().right > width + 0.5) found.push(`past the right edge: ${name(el)}`);
    }
    const SHOW_TEXT = 4; // NodeFilter.SHOW_TEXT
    const walker = doc.createTreeWalker(doc.querySelector('.topbar')!, SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = doc.createRange();
      range.selectNodeContents(n);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) found.push(`wraps: ${name(n.parentElement!)}`);
    }
    const scrolls = (el: PageNode | null) => el !== null && el.scrollWidth > el.clientWidth + 1;
    if (scrolls(doc.querySelector('.nav'))) found.push('the nav scrolls');
    if (scrolls(doc.scrollingElement)) found.push('the page scrolls sideways');
    for (const el of doc.querySelectorAll('.view-pad, .trade, .assistant-body')) if (scrolls(el)) found.push(`scrolls sideways: ${name(el)}`);
    return found;
  });
}

test('the top bar and the companion screens fit the smallest window', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'narrow', { onboard: true, ...FAST });
  await companionControl(app, '/rpc/fund', { chain: 'arbitrum', address: app.mainWallet.address, amount: (2n * ETH).toString() });
  await companionControl(app, '/rpc/fund', { chain: 'base', address: app.mainWallet.address, amount: ETH.toString() });
  const settings = await app.call('companion:setPartnerCode', { code: 'perpsdesk' });
  await app.call('assistant:setKey', { api_key: 'sk-sim-default-0001' });
  await app.call('assistant:setModel', { model: 'sim-chat-mini' });
  // A bridge under way, so the transfer panels have a timeline and a recent transfer to lay out.
  const bridged = await app.call('bridge:quote', {
    from_chain: 'arbitrum',
    to_chain: 'base',
    from_token: settings.native_token,
    to_token: settings.native_token,
    amount: '0.1',
    decimals: 18,
    protocols: ['rail_fast'],
    slippage_bps: 50,
  });
  await app.call('bridge:send', { quote_id: bridged.quote_id, quote_idx: bridged.routes[0]!.quote_idx });
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Market', size: '1' });
  await app.advance(1_000);
  await expect(page.getByRole('row', { name: 'ETH position' })).toBeVisible({ timeout: 10_000 });
  const toasts = page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Dismiss notification' });
  while ((await toasts.count()) > 0) await toasts.first().click();

  for (const size of WINDOW_SIZES) {
    await page.setViewportSize(size);
    const name = (view: string) => `narrow-${size.width}x${size.height}-${view}`;

    // Trade with the assistant open.
    await nav(page, 'Trade');
    await page.getByRole('button', { name: 'Assistant', exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Assistant' });
    const answers = panel.getByRole('list', { name: 'Answers' }).getByRole('listitem');
    if ((await answers.count()) === 0) {
      await panel.getByLabel('Question').fill('What are my open positions and how exposed am I?');
      await panel.getByRole('button', { name: 'Ask' }).click();
    }
    await expect(answers.first()).toBeVisible({ timeout: 20_000 });
    await screenshot(page, name('trade-assistant'));
    expect.soft(await misfits(page)).toEqual([]);
    await panel.getByRole('button', { name: 'Close assistant' }).click();
    await screenshot(page, name('trade'));
    expect.soft(await misfits(page)).toEqual([]);

    // Bridge with its routes compared, beside the transfer under way.
    await nav(page, 'Bridge');
    const bridge = page.getByRole('form', { name: 'Bridge transfer' });
    await bridge.getByLabel('From chain').selectOption('arbitrum');
    await bridge.getByLabel('To chain').selectOption('base');
    await bridge.getByLabel('Amount to send').fill('0.25');
    await bridge.getByRole('button', { name: 'Get quotes' }).click();
    await expect(page.getByRole('table', { name: 'Bridge routes' })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('table', { name: 'Recent transfers' })).toBeVisible();
    await page.getByRole('table', { name: 'Bridge routes' }).scrollIntoViewIfNeeded();
    await screenshot(page, name('bridge'));
    expect.soft(await misfits(page)).toEqual([]);
    // The same with the assistant open: beside the view in a wide enough window, over it below that.
    await page.getByRole('button', { name: 'Assistant', exact: true }).click();
    await screenshot(page, name('bridge-assistant'));
    expect.soft(await misfits(page)).toEqual([]);
    await page.getByRole('complementary', { name: 'Assistant' }).getByRole('button', { name: 'Close assistant' }).click();
    await page.getByRole('table', { name: 'Recent transfers' }).scrollIntoViewIfNeeded();
    await screenshot(page, name('bridge-transfers'));

    // Swap with its quote.
    await nav(page, 'Swap');
    const swap = page.getByRole('form', { name: 'Swap', exact: true });
    await swap.getByLabel('Chain', { exact: true }).selectOption('base');
    await swap.getByLabel('Token out address').fill(BASE_USDC);
    await swap.getByLabel('Amount to swap').fill('0.1');
    await swap.getByRole('button', { name: 'Get quote' }).click();
    await expect(page.getByLabel('Swap quote')).toContainText('USDC', { timeout: 10_000 });
    await screenshot(page, name('swap'));
    expect.soft(await misfits(page)).toEqual([]);

    await nav(page, 'Points');
    await expect(page.getByLabel('Points summary')).toContainText('Base points', { timeout: 10_000 });
    await screenshot(page, name('points'));
    expect.soft(await misfits(page)).toEqual([]);

    // Settings → Companion services, with one RPC URL open for editing.
    await nav(page, 'Settings');
    const rpc = page.getByRole('table', { name: 'JSON-RPC URLs' });
    await rpc.getByRole('button', { name: 'Edit RPC URL for arbitrum' }).click();
    await rpc.scrollIntoViewIfNeeded();
    await screenshot(page, name('settings-companion'));
    expect.soft(await misfits(page)).toEqual([]);
    await rpc.getByRole('button', { name: 'Cancel' }).click();
  }

  // The top bar narrows in steps (styles/app.css); each step fits at the narrow end of its range.
  await nav(page, 'Trade');
  for (const width of [1152, 1366]) {
    await page.setViewportSize({ width, height: 800 });
    expect.soft(await misfits(page), `at ${width} px`).toEqual([]);
  }
  expect(pageErrors).toEqual([]);
});

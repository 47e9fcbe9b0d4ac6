/**
 * The companion screens: a bridge from arbitrum to base compared across routes, reviewed, signed by the
 * main wallet and followed to the bridge's pending state and then done; the points it earned; a swap on
 * base through the aggregator under the partner code; the companion settings; the assistant, off until a
 * key is set; and errors that stop a transfer before anything is sent.
 */
import type { Page } from '@playwright/test';
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

async function companionControl(a: E2eApp, route: string, body: unknown): Promise<void> {
  const res = await fetch(`${a.sim.urls.companion_control_url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${route}: ${res.status} ${await res.text()}`);
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

test('a bridge compared, reviewed, sent and followed to done; its points', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'bridge', { onboard: true, ...FAST });
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

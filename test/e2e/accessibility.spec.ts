/**
 * The accessibility audit of every screen (issue 31): axe-core's WCAG 2.1 A and AA rules, colour contrast
 * included, on each view and each dialog after one fill on the simulator, at 1440x900 and 1024x680 in the
 * default palette, and on each view at 1440x900 in the colour-blind-safe and high-contrast palettes. A
 * screen passes with no serious or critical violation; the counts per screen are printed either way (and
 * written to test-results/a11y/audit.jsonl). Onboarding is audited step by step on a fresh app.
 */
import type { Page } from '@playwright/test';
import type { Settings } from '../../src/shared/ipc.js';
import { expect, openApp, placeFromTicket, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { auditScreen } from './harness/axeAudit.js';
import { rowAction } from './harness/riskSteps.js';

// The audits are the suite's longest file (about 8 minutes one after another); each opens an app of its
// own, so they spread over Playwright's workers instead of holding one for the whole run.
test.describe.configure({ mode: 'parallel' });

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

type Palette = Settings['palette'];

const ETH = 10n ** 18n;
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const FAST = { companion: { pollIntervalMs: 100, rpcPollingIntervalMs: 50 } } as const;

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

/** Audits the page now and records a soft failure (the run goes on, so every screen's counts print). */
async function check(page: Page, screen: string): Promise<void> {
  const audit = await auditScreen(page, screen);
  expect.soft(audit.serious, `${screen}: ${audit.examples.join('\n')}`).toEqual({});
}

/** The terminal after one fill and one resting order, in `palette`, at `width`x`height`. */
async function tradingApp(page: Page, server: Parameters<typeof openApp>[1], label: string, palette: Palette, width: number, height: number): Promise<E2eApp> {
  const a = await openApp(page, server, label, { onboard: true, core: FAST });
  if (palette !== 'default') {
    await a.call('settings:set', { palette });
    await page.reload();
  }
  await page.setViewportSize({ width, height });
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Market', size: '1' });
  await placeFromTicket(page, 'ETH', { side: 'Sell', type: 'Limit', price: '3900', size: '0.5', tif: 'GTC' });
  await a.advance(1_000);
  await page.getByRole('tab', { name: 'Positions' }).click();
  await expect(page.getByRole('row', { name: 'ETH position' })).toContainText('LONG', { timeout: 10_000 });
  await expect(page.locator('html')).toHaveAttribute('data-palette', palette);
  // Funds on two chains for the Bridge screens, before any view reads a balance: the app keeps a token's
  // balance for 30 s, so funding after the views' pass would leave the Bridge dialogs reading 0.
  await a.companionControl('/rpc/fund', { chain: 'arbitrum', address: a.mainWallet.address, amount: (2n * ETH).toString() });
  await a.companionControl('/rpc/fund', { chain: 'base', address: a.mainWallet.address, amount: ETH.toString() });
  await a.call('companion:setPartnerCode', { code: 'perpsdesk' });
  return a;
}

/** Every view of the navigation (Trade with its positions and open orders). */
async function auditViews(page: Page, a: E2eApp, tag: string): Promise<void> {
  await check(page, `Trade · positions ${tag}`);
  await page.getByRole('tab', { name: 'Open orders' }).click();
  await expect(page.getByRole('table', { name: 'Open orders' }).getByRole('row', { name: /ETH Limit sell/ })).toBeVisible({ timeout: 10_000 });
  await check(page, `Trade · open orders ${tag}`);
  await page.getByRole('tab', { name: 'Positions' }).click();

  await nav(page, 'History');
  await expect(page.getByRole('table', { name: 'Order history' }).getByRole('row').nth(1)).toBeVisible({ timeout: 10_000 });
  await check(page, `History ${tag}`);
  await nav(page, 'Portfolio');
  await expect(page.getByRole('status').filter({ hasText: 'Ledger balanced' })).toBeVisible({ timeout: 20_000 });
  await check(page, `Portfolio ${tag}`);
  await nav(page, 'Withdraw');
  await expect(page.getByRole('button', { name: 'Review withdrawal' })).toBeVisible();
  await check(page, `Withdraw ${tag}`);
  await nav(page, 'Bridge');
  await expect(page.getByRole('form', { name: 'Bridge transfer' })).toBeVisible();
  await check(page, `Bridge ${tag}`);
  await nav(page, 'Swap');
  await expect(page.getByRole('form', { name: 'Swap', exact: true })).toBeVisible();
  await check(page, `Swap ${tag}`);
  await nav(page, 'Points');
  await expect(page.getByRole('button', { name: 'Show points' })).toBeVisible();
  await check(page, `Points ${tag}`);
  await nav(page, 'Keys');
  await expect(page.getByRole('row', { name: 'Trading key e2e' })).toBeVisible();
  await check(page, `Keys ${tag}`);
  await nav(page, 'Settings');
  await expect(page.getByRole('button', { name: 'Switch profile' })).toBeVisible();
  await check(page, `Settings ${tag}`);
  void a;
}

/** Every dialog and panel of a trading day: the ticket's kinds, the reviews, the row's dialogs and menus, the other views' reviews. */
async function auditDialogs(page: Page, a: E2eApp, tag: string): Promise<void> {
  await nav(page, 'Trade');
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  const submit = ticket.getByRole('button', { name: /^(Buy \/ Long|Sell \/ Short) ETH$/ });
  // The ticket: a limit with a bracket (its tallest form), a trigger, then its review.
  await ticket.getByRole('radio', { name: 'Buy' }).click();
  await ticket.getByRole('radio', { name: 'Limit' }).click();
  await ticket.getByLabel('Limit price').fill('3350');
  await ticket.getByLabel('Size (ETH)').fill('0.5');
  await ticket.getByLabel('Attach take-profit / stop-loss').check();
  await ticket.getByLabel('Take-profit trigger').fill('3600');
  await ticket.getByLabel('Stop-loss trigger').fill('3200');
  await check(page, `Ticket · limit with bracket ${tag}`);
  await submit.click();
  const review = page.getByRole('dialog', { name: 'Review order · ETH' });
  await expect(review.getByRole('button', { name: 'Sign and place' })).toBeVisible();
  await check(page, `Order review ${tag}`);
  await review.getByRole('button', { name: 'Cancel' }).click();
  await expect(review).toBeHidden();
  await ticket.getByLabel('Attach take-profit / stop-loss').uncheck();
  await ticket.getByRole('radio', { name: 'Trigger' }).click();
  await check(page, `Ticket · trigger ${tag}`);

  // The TWAP panel and its review.
  await ticket.getByRole('radio', { name: 'TWAP' }).click();
  await ticket.getByLabel('Total size (ETH)').fill('0.04');
  await ticket.getByLabel('Duration', { exact: true }).fill('15s');
  await ticket.getByLabel('Slices').fill('3');
  await check(page, `Ticket · TWAP ${tag}`);
  await ticket.getByRole('button', { name: 'TWAP Buy / Long ETH' }).click();
  const twap = page.getByRole('dialog', { name: 'Review TWAP · ETH' });
  await expect(twap.getByRole('button', { name: 'Start TWAP' })).toBeVisible();
  await check(page, `TWAP review ${tag}`);
  await twap.getByRole('button', { name: 'Cancel' }).click();
  await expect(twap).toBeHidden();
  await ticket.getByRole('radio', { name: 'Market' }).click();

  // The position row: its menu, Close, TP/SL with its review, and the trailing stop.
  await page.getByRole('tab', { name: 'Positions' }).click();
  const row = page.getByRole('row', { name: 'ETH position' });
  await row.getByRole('button', { name: 'More actions: ETH position' }).click();
  await expect(page.getByRole('menu', { name: 'Actions: ETH position' })).toBeVisible();
  await check(page, `Position row menu ${tag}`);
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: 'Close ETH position' }).click();
  const close = page.getByRole('dialog', { name: 'Close ETH position' });
  await expect(close).toBeVisible();
  await check(page, `Close ${tag}`);
  await close.getByRole('radio', { name: 'Limit' }).click();
  await check(page, `Close · limit ${tag}`);
  await page.keyboard.press('Escape');
  await expect(close).toBeHidden();

  await rowAction(page, row, 'ETH position', 'TP/SL');
  const tpsl = page.getByRole('dialog', { name: 'TP/SL on ETH position' });
  await expect(tpsl).toBeVisible();
  await check(page, `TP/SL ${tag}`);
  await tpsl.getByLabel('Trailing stop distance').fill('1%');
  await check(page, `TP/SL · trailing ${tag}`);
  await tpsl.getByLabel('Trailing stop distance').fill('');
  const mark = Number(await a.mark('ETH'));
  await tpsl.getByLabel('Take-profit trigger').fill(String(Math.round(mark * 1.05)));
  await tpsl.getByLabel('Stop-loss trigger').fill(String(Math.round(mark * 0.95)));
  await tpsl.getByRole('button', { name: 'Review changes' }).click();
  await expect(tpsl.getByRole('region', { name: 'TP/SL changes' })).toBeVisible();
  await check(page, `TP/SL · review ${tag}`);
  await page.keyboard.press('Escape');
  await expect(tpsl).toBeHidden();

  // The shortcut sheet.
  await page.locator('body').press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await check(page, `Shortcuts ${tag}`);
  await page.keyboard.press('Escape');

  // History with a row's status changes open, and its Fills tab.
  await nav(page, 'History');
  const orders = page.getByRole('table', { name: 'Order history' });
  await orders.getByRole('button', { name: /^Show status changes of ETH Market buy/ }).click();
  await expect(orders.getByRole('list', { name: /^Status changes of/ })).toBeVisible();
  await check(page, `History · status changes ${tag}`);
  await page.getByRole('tab', { name: 'Fills' }).click();
  await expect(page.getByRole('table', { name: 'Fills' })).toContainText('Open Long', { timeout: 10_000 });
  await check(page, `History · fills ${tag}`);

  // Withdraw's review.
  await nav(page, 'Withdraw');
  await page.getByLabel('Amount').fill('1500');
  await page.getByRole('button', { name: 'Review withdrawal' }).click();
  const withdraw = page.getByRole('dialog', { name: 'Review withdrawal' });
  await expect(withdraw).toBeVisible({ timeout: 10_000 });
  await check(page, `Withdraw review ${tag}`);
  await page.keyboard.press('Escape');
  await expect(withdraw).toBeHidden();

  // Bridge: routes compared, then a route's review.
  await nav(page, 'Bridge');
  const bridge = page.getByRole('form', { name: 'Bridge transfer' });
  await bridge.getByLabel('From chain').selectOption('arbitrum');
  await bridge.getByLabel('To chain').selectOption('base');
  await expect(bridge.getByLabel('From token details')).toContainText('Wallet balance: 2', { timeout: 10_000 });
  await bridge.getByLabel('Amount to send').fill('0.25');
  await bridge.getByLabel('Slippage').fill('0.5');
  await bridge.getByLabel('Value sent (USD)').fill('750');
  await bridge.getByLabel('Value received (USD)').fill('745');
  await bridge.getByRole('button', { name: 'Get quotes' }).click();
  const routes = page.getByRole('table', { name: 'Bridge routes' });
  await expect(routes).toBeVisible({ timeout: 10_000 });
  await check(page, `Bridge · routes ${tag}`);
  await routes.getByRole('row', { name: /^Route / }).first().getByRole('button').click();
  const bridgeReview = page.getByRole('dialog', { name: 'Review bridge · arbitrum → base' });
  await expect(bridgeReview.getByLabel('Points estimate')).toContainText('Base points', { timeout: 10_000 });
  await check(page, `Bridge review ${tag}`);
  await page.keyboard.press('Escape');
  await expect(bridgeReview).toBeHidden();

  // Swap: quote, then its review.
  await nav(page, 'Swap');
  const swap = page.getByRole('form', { name: 'Swap', exact: true });
  await swap.getByLabel('Chain', { exact: true }).selectOption('base');
  await swap.getByLabel('Token out address').fill(BASE_USDC);
  await expect(swap.getByLabel('Token out details')).toContainText('USDC', { timeout: 10_000 });
  await swap.getByLabel('Amount to swap').fill('0.1');
  await swap.getByLabel('Value in (USD)').fill('300');
  await swap.getByLabel('Value out (USD)').fill('299');
  await swap.getByRole('button', { name: 'Get quote' }).click();
  await expect(page.getByLabel('Swap quote')).toContainText('Minimum received', { timeout: 10_000 });
  await check(page, `Swap · quote ${tag}`);
  await page.getByRole('button', { name: 'Review swap' }).click();
  const swapReview = page.getByRole('dialog', { name: 'Review swap · base' });
  await expect(swapReview.getByLabel('Points estimate')).toContainText('Partner bonus (perpsdesk)', { timeout: 10_000 });
  await check(page, `Swap review ${tag}`);
  await page.keyboard.press('Escape');
  await expect(swapReview).toBeHidden();

  // Keys: the renewal dialog with the typed data to sign.
  await nav(page, 'Keys');
  await page.getByRole('row', { name: 'Trading key e2e' }).getByRole('button', { name: 'Renew e2e' }).click();
  const renew = page.getByRole('dialog', { name: /Renew trading key/ });
  await check(page, `Keys · renew ${tag}`);
  await renew.getByRole('button', { name: 'Review renewal' }).click();
  await expect(renew.getByRole('table', { name: 'Typed data to sign' })).toContainText('AuthorizeAgent');
  await check(page, `Keys · renew review ${tag}`);
  await page.keyboard.press('Escape');
  await expect(renew).toBeHidden();

  // Settings with the mainnet form open (its URL fields and their errors).
  await nav(page, 'Settings');
  await page.getByRole('radio', { name: /Mainnet/ }).click();
  await page.getByLabel('Venue info API').fill('ftp://nope');
  await expect(page.getByText('Must start with http or https://')).toBeVisible();
  await check(page, `Settings · mainnet form ${tag}`);
}

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 680 },
] as const;

// The audit itself: it must see what it is there to catch, in both of its modes (one frame, as the app,
// runs axe in the page; a page with a frame runs it per frame).
test('the audit finds planted violations, in the page and inside a frame', async ({ page }) => {
  const planted = '<main><p style="color:#777;background:#888">faint text</p><button></button></main>';
  await page.setContent(`<!doctype html><html lang="en"><head><title>planted</title></head><body>${planted}</body></html>`);
  expect(page.frames()).toHaveLength(1);
  expect((await auditScreen(page, 'planted violations (one frame)')).serious).toEqual({ 'color-contrast': 1, 'button-name': 1 });
  await page.setContent(`<!doctype html><html lang="en"><head><title>planted</title></head><body><main><iframe title="inner" srcdoc='<!doctype html><html lang="en"><head><title>inner</title></head><body>${planted}</body></html>'></iframe></main></body></html>`);
  await expect.poll(() => page.frames().length).toBe(2);
  await expect.poll(() => page.frames()[1]!.locator('button').count()).toBe(1);
  expect((await auditScreen(page, 'planted violations (inside a frame)')).serious).toEqual({ 'color-contrast': 1, 'button-name': 1 });
});

for (const size of SIZES) {
  const tag = `${size.width}x${size.height} default`;
  test(`every view and dialog passes the WCAG 2.1 AA audit at ${tag}`, async ({ page, server, pageErrors }) => {
    test.setTimeout(240_000);
    app = await tradingApp(page, server, `a11y-${size.width}`, 'default', size.width, size.height);
    await auditViews(page, app, tag);
    await auditDialogs(page, app, tag);
    expect(pageErrors).toEqual([]);
  });
}

for (const palette of ['colour-blind', 'high-contrast'] as const) {
  const tag = `1440x900 ${palette}`;
  test(`every view passes the WCAG 2.1 AA audit in the ${palette} palette`, async ({ page, server, pageErrors }) => {
    test.setTimeout(180_000);
    app = await tradingApp(page, server, `a11y-${palette}`, palette, 1440, 900);
    await auditViews(page, app, tag);
    expect(pageErrors).toEqual([]);
  });
}

for (const size of SIZES) {
  const tag = `${size.width}x${size.height}`;
  test(`onboarding passes the WCAG 2.1 AA audit at ${tag}`, async ({ page, server, pageErrors }) => {
    test.setTimeout(120_000);
    app = await openApp(page, server, `a11y-onboarding-${size.width}`);
    await page.setViewportSize({ width: size.width, height: size.height });
    await expect(page.getByRole('heading', { name: 'Where do you want to trade?' })).toBeVisible();
    await check(page, `Onboarding · profile ${tag}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Connect your main wallet' })).toBeVisible();
    app.nextOpenFile = await app.writeKeystore('correct horse');
    await page.getByRole('button', { name: 'Choose keystore file…' }).click();
    await page.getByLabel('Keystore password').fill('wrong password');
    await page.getByRole('button', { name: 'Unlock and connect' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await check(page, `Onboarding · wallet with error ${tag}`);
    await page.getByLabel('Keystore password').fill('correct horse');
    await page.getByRole('button', { name: 'Unlock and connect' }).click();
    await expect(page.getByRole('heading', { name: 'Create a trading key' })).toBeVisible();
    await check(page, `Onboarding · trading key ${tag}`);
    await page.getByRole('button', { name: 'Create trading key' }).click();
    await expect(page.getByRole('table', { name: 'Typed data to sign' })).toBeVisible();
    await check(page, `Onboarding · key review ${tag}`);
    await page.getByRole('button', { name: 'Sign and authorize' }).click();
    await expect(page.getByRole('heading', { name: 'Fund your account' })).toBeVisible();
    await check(page, `Onboarding · fund ${tag}`);
    expect(pageErrors).toEqual([]);
  });
}

/**
 * The remaining views and the keyboard: history (virtualized, CSV export), trading keys (expiry
 * countdown, renew through a review), settings, the shortcut sheet, and the error state with its code,
 * message and hint.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, openApp, placeFromTicket, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('history, keys, settings and shortcuts', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'views', { onboard: true });
  // Some activity to show: a filled market order and a resting limit.
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Market', size: '1' });
  await placeFromTicket(page, 'ETH', { side: 'Sell', type: 'Limit', price: '3900', size: '0.5', tif: 'GTC' });
  await app.advance(1_000);
  await expect(page.getByRole('row', { name: 'ETH position' })).toBeVisible({ timeout: 10_000 });

  // Keyboard: ? opens the sheet, Esc closes it; S turns the ticket to sell and focuses its size; / searches.
  await page.locator('body').press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await screenshot(page, 'shortcuts');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await page.locator('body').press('s');
  await expect(page.getByRole('form', { name: 'Order ticket' }).getByRole('radio', { name: 'Sell' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByLabel('Size (ETH)')).toBeFocused();
  await page.keyboard.press('Escape');
  await page.locator('body').press('/');
  await expect(page.getByLabel('Search markets')).toBeFocused();
  await page.keyboard.type('sol');
  await expect(page.getByRole('listbox', { name: 'Markets' }).getByRole('option')).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'SOL market' })).toBeVisible();

  // History: virtualized tables over windows of the contract's history channels.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'History' }).click();
  const orders = page.getByRole('table', { name: 'Order history' });
  await expect(orders.getByRole('row').nth(1)).toBeVisible({ timeout: 10_000 });
  await expect(orders).toContainText('ETH');
  await screenshot(page, 'history');
  await page.getByRole('tab', { name: 'Fills' }).click();
  await expect(page.getByRole('table', { name: 'Fills' })).toContainText('Open Long', { timeout: 10_000 });
  await page.getByRole('tab', { name: 'Deposits' }).click();
  await expect(page.getByRole('table', { name: 'Deposits' })).toContainText('$100,000.00', { timeout: 10_000 });
  app.nextSaveFile = path.join(app.dataDir, 'deposits.csv');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'CSV exported' })).toBeVisible();
  expect(fs.readFileSync(app.nextSaveFile, 'utf8')).toContain('tx_hash');

  // Trading keys: the active key with its countdown; renewing shows the AuthorizeAgent review first.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Keys' }).click();
  const keyRow = page.getByRole('row', { name: 'Trading key e2e' });
  await expect(keyRow).toContainText('Active');
  await expect(keyRow.getByLabel(/Time left/)).toContainText(/\d+d \d+h/);
  await screenshot(page, 'keys');
  await keyRow.getByRole('button', { name: 'Renew e2e' }).click();
  const renew = page.getByRole('dialog', { name: /Renew trading key/ });
  await renew.getByLabel('New lifetime from now').selectOption('180');
  await renew.getByRole('button', { name: 'Review renewal' }).click();
  await expect(renew.getByRole('table', { name: 'Typed data to sign' })).toContainText('AuthorizeAgent');
  await renew.getByRole('button', { name: 'Sign and renew' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Trading key renewed' })).toBeVisible({ timeout: 10_000 });
  await expect(keyRow.getByLabel(/Time left/)).toContainText(/^1[67]\dd/);

  // Settings.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByText('Environment variable PERPS_E2E_MAIN_KEY')).toBeVisible();
  await page.getByLabel('Default leverage').fill('3');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
  // Toasts stack over the lower part of the window; dismiss them as a person would before reaching the
  // notification preferences beneath.
  const toasts = page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Dismiss notification' });
  while ((await toasts.count()) > 0) await toasts.first().click();
  await page.getByLabel('Withdrawals completing or failing').uncheck();
  await expect.poll(async () => (await app!.call('notifications:get', {})).withdrawals).toBe(false);
  await screenshot(page, 'settings');
  expect(pageErrors).toEqual([]);
});

test('errors show their code, message and hint', async ({ page, server }) => {
  app = await openApp(page, server, 'errors', { onboard: true });
  // Mainnet without its URLs: main refuses and says what is missing and what to do.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('radio', { name: /Mainnet/ }).click();
  await page.getByLabel('Trading API root').fill('https://example.invalid/api/v1');
  await page.getByLabel('Venue info API').fill('ftp://nope');
  await expect(page.getByText('Must start with http or https://')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Switch profile' })).toBeDisabled();
  // A withdrawal below the live minimum is refused by main with a typed error.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Withdraw' }).click();
  await page.getByLabel('Amount').fill('0.5');
  await page.getByRole('button', { name: 'Review withdrawal' }).click();
  const error = page.getByRole('alert').filter({ hasText: 'below the minimum withdrawal' });
  await expect(error).toBeVisible({ timeout: 10_000 });
  // The code, the specific rule, the message, and the hint saying what to do.
  await expect(error.getByText('VALIDATION', { exact: true })).toBeVisible();
  await expect(error.getByText('BELOW_MIN', { exact: true })).toBeVisible();
  await expect(error).toContainText(/Withdraw at least \d+ USDC/);
  await screenshot(page, 'error-state');
});

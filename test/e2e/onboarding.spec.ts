/**
 * First run on the simulator: profile, main wallet from a keystore file, a trading key authorized after
 * reviewing exactly what the wallet signs, test funds from the faucet, then the terminal.
 */
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('onboarding on the simulator', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'onboarding');
  await expect(page.getByRole('heading', { name: 'Where do you want to trade?' })).toBeVisible();
  const sim = page.getByRole('radio', { name: /Simulator/ });
  await expect(sim).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('No real funds are ever at risk')).toBeVisible();
  await screenshot(page, 'onboarding-profile');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Main wallet: a keystore file chosen in the (test double of the) native dialog, then its password.
  await expect(page.getByRole('heading', { name: 'Connect your main wallet' })).toBeVisible();
  app.nextOpenFile = await app.writeKeystore('correct horse');
  await page.getByRole('button', { name: 'Choose keystore file…' }).click();
  await expect(page.getByText('main-wallet.json')).toBeVisible();
  await page.getByLabel('Keystore password').fill('wrong password');
  await page.getByRole('button', { name: 'Unlock and connect' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Keystore password').fill('correct horse');
  await page.getByRole('button', { name: 'Unlock and connect' }).click();

  // Trading key: created in the keychain, then the review of exactly what will be signed.
  await expect(page.getByRole('heading', { name: 'Create a trading key' })).toBeVisible();
  await page.getByRole('button', { name: 'Create trading key' }).click();
  const typed = page.getByRole('table', { name: 'Typed data to sign' });
  await expect(typed).toBeVisible();
  await expect(typed).toContainText('AuthorizeAgent');
  await expect(typed).toContainText(app.mainWallet.address);
  await expect(typed).toContainText('chain id 998');
  await expect(typed).toContainText('expiresAt');
  await expect(page.getByLabel('What the device will display')).toBeVisible();
  await screenshot(page, 'onboarding-key-review');
  await page.getByRole('button', { name: 'Sign and authorize' }).click();

  // Funds from the simulator's faucet.
  await expect(page.getByRole('heading', { name: 'Fund your account' })).toBeVisible();
  await page.getByLabel('Test USDC amount').fill('25000');
  await page.getByRole('button', { name: 'Get test USDC' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'test USDC requested' })).toBeVisible();
  await app.advance(2_000);
  await expect(page.getByLabel('Free balance')).toHaveText('$25,000.00', { timeout: 10_000 });
  await screenshot(page, 'onboarding-fund');
  await page.getByRole('button', { name: 'Start trading' }).click();

  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Markets' }).getByRole('option').first()).toBeVisible();
  expect(pageErrors).toEqual([]);
});

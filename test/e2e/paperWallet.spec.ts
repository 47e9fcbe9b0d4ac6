/**
 * The simulator's one-click start: onboarding offers "Create a paper wallet" on the simulator profile; one
 * click makes the wallet (its key in the real OS keychain), authorizes a trading key and funds it, and
 * lands on the Trade view, where an order goes straight through. The offer is absent on mainnet.
 */
import { expect, openApp, placeFromTicket, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('create a paper wallet from onboarding, land on the Trade view and place an order', async ({ page, server, pageErrors }) => {
  // The simulator's clock (issue 37): the one click waits for the faucet's deposit to be credited, which
  // the test brings about by moving the clock, as time would in the app.
  app = await openApp(page, server, 'paper');
  await expect(page.getByRole('heading', { name: 'Where do you want to trade?' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { name: 'Connect your main wallet' })).toBeVisible();
  const create = page.getByRole('button', { name: 'Create a paper wallet' });
  await expect(create).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Or connect your own main wallet' })).toBeVisible();
  await screenshot(page, 'onboarding-paper-wallet');
  await page.setViewportSize({ width: 1024, height: 680 });
  await screenshot(page, 'onboarding-paper-wallet-1024');
  await page.setViewportSize({ width: 1440, height: 900 });

  await create.click();
  // Straight to the terminal, on the Trade view, funded and with a usable trading key.
  await advanceUntilVisible(app, page.getByRole('navigation', { name: 'Main' }));
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Trade' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByLabel('Free balance')).toHaveText('$10,000.00', { timeout: 10_000 });
  const wallet = await app.call('wallet:current', {});
  expect(wallet.signer).toMatchObject({ kind: 'paper' });
  const keys = await app.call('keys:list', {});
  expect(keys.keys.filter((k) => k.status === 'ACTIVE' && k.stored_locally)).toHaveLength(1);

  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Market', size: '0.5' });
  await expect(page.getByRole('dialog', { name: /Review order/ })).toBeHidden();
  await page.getByRole('tab', { name: 'Positions' }).click();
  await advanceUntilVisible(app, page.getByRole('row', { name: 'ETH position' }));
  await expect(page.getByRole('row', { name: 'ETH position' })).toContainText('LONG');
  // The account's figures catch up with the fill as the service's time moves (its reads lag a fill), so
  // the screen below is the settled one a trader sees a moment later.
  await expect
    .poll(
      async () => {
        await app!.advance(300);
        return page.getByLabel('Posted margin').textContent();
      },
      { timeout: 30_000, intervals: [200] },
    )
    .not.toBe('$0.00');
  await screenshot(page, 'paper-wallet-trade');
  await page.setViewportSize({ width: 1024, height: 680 });
  await screenshot(page, 'paper-wallet-trade-1024');
  expect(pageErrors).toEqual([]);
});

test('the paper wallet is offered on the simulator only', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'paper-mainnet');
  await page.getByRole('radio', { name: /Mainnet/ }).click();
  // Any loopback address that is not a service: the wallet step renders without one.
  await page.getByLabel('Trading API root').fill('http://127.0.0.1:9/api/v1');
  await page.getByLabel('Venue info API').fill('http://127.0.0.1:9/info');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Connect your main wallet' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Choose keystore file…' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create a paper wallet' })).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

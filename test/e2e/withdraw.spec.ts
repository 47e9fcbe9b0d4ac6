/**
 * A withdrawal watched on its live timeline to COMPLETED, after reviewing it (no new-wallet fee: the wallet
 * deposited) and the exact Withdraw typed data; then a refunded one showing where it stopped and why.
 */
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a withdrawal watched to COMPLETED', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'withdraw', { onboard: true });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Withdraw' }).click();
  await expect(page.getByRole('heading', { name: 'Withdraw', exact: true })).toBeVisible();
  await expect(page.getByText('No withdrawals yet')).toBeVisible();
  await page.getByLabel('Amount').fill('1500');
  await page.getByRole('button', { name: 'Review withdrawal' }).click();

  const review = page.getByRole('dialog', { name: 'Review withdrawal' });
  await expect(review).toBeVisible();
  // The wallet deposited (the faucet), so it has history: no new-wallet fee is previewed.
  await expect(review.getByLabel('New-wallet fee preview')).toHaveCount(0);
  const typed = review.getByRole('table', { name: 'Typed data to sign' });
  await expect(typed).toContainText('Withdraw');
  await expect(typed).toContainText('1500000000');
  await expect(typed).toContainText('= 1,500 USDC');
  await expect(typed).toContainText(app.mainWallet.address);
  await screenshot(page, 'withdraw-review');
  await review.getByRole('button', { name: 'Sign and withdraw' }).click();
  await expect(review).toBeHidden();

  const timeline = page.getByRole('list', { name: 'Withdrawal timeline' });
  await expect(timeline.getByRole('listitem', { name: 'REQUESTED done' })).toBeVisible({ timeout: 10_000 });
  await app.advance(600);
  await expect(timeline.getByRole('listitem', { name: 'ACCEPTED done' })).toBeVisible({ timeout: 10_000 });
  await app.advance(2_100);
  await expect(timeline.getByRole('listitem', { name: 'PROCESSING done' })).toBeVisible({ timeout: 10_000 });
  await app.advance(3_100);
  await expect(timeline.getByRole('listitem', { name: 'COMPLETED done' })).toBeVisible({ timeout: 10_000 });
  await screenshot(page, 'withdraw');

  // The next one is refunded by the venue: the timeline shows where it stopped and why.
  await app.control('withdrawal-outcome', { next: true, outcome: 'REFUNDED' });
  await page.getByLabel('Amount').fill('200');
  await page.getByRole('button', { name: 'Review withdrawal' }).click();
  await page.getByRole('dialog', { name: 'Review withdrawal' }).getByRole('button', { name: 'Sign and withdraw' }).click();
  await expect.poll(async () => {
    await app!.advance(1_000);
    return timeline.getByRole('listitem', { name: /REFUNDED|failed/ }).count();
  }, { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(page.getByRole('table', { name: 'Tracked withdrawals' })).toContainText('COMPLETED');
  await screenshot(page, 'withdraw-refunded');
  expect(pageErrors).toEqual([]);
});

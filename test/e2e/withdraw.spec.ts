/**
 * A withdrawal watched on its live timeline to COMPLETED, after reviewing it (no new-wallet fee: the wallet
 * deposited) and the exact Withdraw typed data; then a refunded one showing where it stopped and why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import { auditScreen } from './harness/axeAudit.js';
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

test('files in the withdrawals folder that are not records are listed apart, never sent, the others tracked as usual', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'withdraw-damaged', { onboard: true });
  // A record edited by hand (no longer JSON, a terminal escape in its name) and a folder named like one.
  const folder = path.join(app.dataDir, 'withdrawals');
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(folder, 'edited\u001b[2J.json'), '{"intent_id": "x", "body": {"signature": "0xdeadbeef"', { mode: 0o600 });
  fs.mkdirSync(path.join(folder, 'a-folder.json'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Withdraw' }).click();
  const table = page.getByRole('table', { name: 'Damaged withdrawal records' });
  await expect(table).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'cannot be read as a withdrawal record' })).toContainText('2 files');
  const edited = table.getByRole('row', { name: 'Damaged withdrawal record edited[2J.json' });
  await expect(edited).toContainText('damaged');
  await expect(edited).toContainText('not valid JSON');
  await expect(table.getByRole('row', { name: 'Damaged withdrawal record a-folder.json' })).toContainText('damaged');
  await expect(page.locator('body')).not.toContainText('deadbeef');
  // The next withdrawal is tracked as usual beside them.
  await page.getByLabel('Amount').fill('100');
  await page.getByRole('button', { name: 'Review withdrawal' }).click();
  await page.getByRole('dialog', { name: 'Review withdrawal' }).getByRole('button', { name: 'Sign and withdraw' }).click();
  await expect(page.getByRole('list', { name: 'Withdrawal timeline' }).getByRole('listitem', { name: 'REQUESTED done' })).toBeVisible({ timeout: 10_000 });
  await expect(table.getByRole('row')).toHaveCount(3);
  for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 680 }]) {
    await page.setViewportSize(size);
    await table.scrollIntoViewIfNeeded();
    const audit = await auditScreen(page, `Withdraw with damaged records ${size.width}x${size.height}`);
    expect.soft(audit.serious, audit.examples.join('\n')).toEqual({});
    await screenshot(page, `withdraw-damaged-${size.width}x${size.height}`);
  }
  expect(pageErrors).toEqual([]);
});

/**
 * Working orders: modify inline (with the in-flight modify shown), cancel, a trigger firing on a mark
 * move, and a post-only leg rejected at the venue showing its reason.
 */
import { expect, openApp, placeFromTicket, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('modify and cancel a resting limit order', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'modify', { onboard: true });
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Limit', price: '3000', size: '0.5', tif: 'GTC' });
  await expect(page.getByRole('dialog', { name: /Review order/ })).toBeHidden();
  await app.advance(300);
  await page.getByRole('tab', { name: 'Open orders' }).click();
  const open = page.getByRole('table', { name: 'Open orders' });
  const row = open.getByRole('row', { name: /ETH Limit buy/ });
  await expect(row).toContainText('3,000', { timeout: 10_000 });

  await row.getByRole('button', { name: /^Modify/ }).click();
  const edit = open.getByRole('row', { name: /^Modify ETH/ });
  await edit.getByLabel('New price').fill('3010');
  await edit.getByLabel('New size').fill('0.6');
  await screenshot(page, 'open-orders-modify');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Modify submitted' })).toBeVisible();
  // Until simulated time moves, the modify is in flight: the row says so and cannot be modified again.
  await expect(open.getByRole('row', { name: /ETH Limit buy/ })).toContainText('Modifying…', { timeout: 10_000 });
  await expect(open.getByRole('row', { name: /ETH Limit buy/ }).getByRole('button', { name: /^Modify/ })).toBeDisabled();
  await app.advance(300);
  await expect(open.getByRole('row', { name: /ETH Limit buy/ })).toContainText('3,010', { timeout: 10_000 });
  await expect(open.getByRole('row', { name: /ETH Limit buy/ })).toContainText('0.6');
  await expect(open.getByRole('row', { name: /ETH Limit buy/ })).not.toContainText('Modifying');

  await open.getByRole('row', { name: /ETH Limit buy/ }).getByRole('button', { name: /^Cancel ETH/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Cancel requested' })).toBeVisible();
  await app.advance(300);
  await expect(page.getByText('No open orders')).toBeVisible({ timeout: 10_000 });
  expect(pageErrors).toEqual([]);
});

test('a stop-loss trigger fires when the mark moves through it', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'trigger', { onboard: true });
  await placeFromTicket(page, 'SOL', { side: 'Buy', type: 'Market', size: '10' });
  await app.advance(1_000);
  await page.getByRole('tab', { name: 'Positions' }).click();
  await expect(page.getByRole('row', { name: 'SOL position' })).toContainText('LONG', { timeout: 10_000 });

  const mark = await app.mark('SOL');
  // A whole-number stop about 3% under the mark (SOL's tick is 0.01).
  const stop = (Number.parseInt(mark, 10) - 5).toString();
  await placeFromTicket(page, 'SOL', { side: 'Sell', type: 'Trigger', trigger: { kind: 'Stop loss', price: stop, wholePosition: true } });
  await app.advance(300);
  await page.getByRole('tab', { name: 'Triggers' }).click();
  await expect(page.getByRole('table', { name: 'Armed triggers' }).getByRole('row', { name: /SOL Stop loss sell/ })).toContainText('Armed', { timeout: 10_000 });

  // The mark falls through the stop: the trigger fires and closes the whole position.
  // Just through the stop, within the fire price's slippage bound.
  await app.setMark('SOL', `${Number.parseInt(stop, 10) - 1}.7`);
  await app.advance(1_000);
  await expect(page.getByRole('status').filter({ hasText: 'Trigger fired · SOL' })).toBeVisible({ timeout: 10_000 });
  await page.getByRole('tab', { name: 'Positions' }).click();
  await expect(page.getByText('No open positions')).toBeVisible({ timeout: 10_000 });
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByRole('table', { name: 'Order activity' })).toContainText('FILLED');
  await screenshot(page, 'activity');
  expect(pageErrors).toEqual([]);
});

test('a post-only leg that would take is rejected and shows its reason', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'rejected', { onboard: true });
  await page.getByRole('option', { name: /^BTC / }).click();
  const mark = await app.mark('BTC');
  const crossing = (Number.parseInt(mark, 10) + 100).toString();
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Limit' }).click();
  await ticket.getByLabel('Limit price').fill(crossing);
  await ticket.getByRole('radio', { name: 'Post-only (ALO)' }).click();
  await ticket.getByLabel('Size (BTC)').fill('0.01');
  await expect(ticket.getByText(/Post-only: this price crosses the mark/)).toBeVisible();
  await ticket.getByRole('button', { name: 'Buy / Long BTC' }).click();
  const review = page.getByRole('dialog', { name: 'Review order · BTC' });
  await expect(review.getByText('Post-only (ALO)')).toBeVisible();
  await review.getByRole('button', { name: 'Sign and place' }).click();
  await expect(review).toBeHidden();

  // Accepted at submit (the crossing check happens at the venue), then rejected with its reason.
  await app.advance(300);
  await expect(page.getByRole('alert').filter({ hasText: 'post_only_would_take' })).toBeVisible({ timeout: 10_000 });
  await page.getByRole('tab', { name: 'Activity' }).click();
  const activity = page.getByRole('table', { name: 'Order activity' });
  await expect(activity.getByRole('row', { name: /REJECTED/ })).toContainText('post_only_would_take: post-only price would have crossed the book');
  await screenshot(page, 'rejected-leg');
  expect(pageErrors).toEqual([]);
});

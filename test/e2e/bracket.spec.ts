/**
 * A bracket order: a resting LIMIT entry with take-profit and stop-loss legs. The legs wait in
 * PENDING_PARENT, drawn attached under their entry, and arm once the entry fills.
 */
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('bracket legs wait in PENDING_PARENT and arm after the entry fills', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'bracket', { onboard: true });
  await page.getByRole('option', { name: /^ETH / }).click();
  await expect(page.getByRole('region', { name: 'ETH market' })).toBeVisible();

  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Limit' }).click();
  await ticket.getByLabel('Limit price').fill('3350');
  await ticket.getByLabel('Size (ETH)').fill('0.5');
  await ticket.getByLabel('Attach take-profit / stop-loss').check();
  // A stop above the entry is on the wrong side for a long: the ticket says so before anything is signed.
  await ticket.getByLabel('Stop-loss trigger').fill('3400');
  await expect(ticket.getByText(/Wrong side: a stop-loss for a long must be below the limit price/)).toBeVisible();
  await ticket.getByLabel('Stop-loss trigger').fill('3200');
  await ticket.getByLabel('Take-profit trigger').fill('3600');
  await expect(ticket.getByText(/Wrong side/)).toHaveCount(0);
  await screenshot(page, 'trade-ticket-bracket');
  await ticket.getByRole('button', { name: 'Buy / Long ETH' }).click();

  const review = page.getByRole('dialog', { name: 'Review order · ETH' });
  await expect(review).toBeVisible();
  await expect(review.getByRole('region', { name: 'Entry leg' })).toBeVisible();
  await expect(review.getByRole('region', { name: 'Take profit leg' })).toContainText('Waits for entry');
  await expect(review.getByRole('region', { name: 'Stop loss leg' })).toContainText('Waits for entry');
  await screenshot(page, 'order-preview');
  await review.getByRole('button', { name: 'Sign and place' }).click();
  await expect(review).toBeHidden();
  // Placed: the ticket keeps market, side, type and price but clears the size and the TP/SL, so a second
  // click cannot place the same bracket again.
  await expect(ticket.getByLabel('Size (ETH)')).toHaveValue('');
  await expect(ticket.getByLabel('Attach take-profit / stop-loss')).not.toBeChecked();
  await expect(ticket.getByLabel('Take-profit trigger')).toHaveCount(0);
  await expect(ticket.getByLabel('Limit price')).toHaveValue('3350');
  await expect(ticket.getByRole('radio', { name: 'Buy' })).toHaveAttribute('aria-checked', 'true');
  await expect(ticket.getByRole('button', { name: 'Buy / Long ETH' })).toBeDisabled();

  // The entry rests; both legs wait for it, attached under it.
  await app.advance(500);
  await page.getByRole('tab', { name: 'Open orders' }).click();
  const open = page.getByRole('table', { name: 'Open orders' });
  await expect(open.getByRole('row', { name: /ETH Limit buy/ })).toBeVisible({ timeout: 10_000 });
  await expect(open.getByRole('row', { name: /ETH Take profit sell/ })).toContainText('Waiting for entry');
  await expect(open.getByRole('row', { name: /ETH Stop loss sell/ })).toContainText('Waiting for entry');
  await expect(open.getByRole('row', { name: /ETH Take profit sell/ })).toHaveClass(/row-child/);
  await expect(open.getByRole('button', { name: /^Modify ETH Take profit/ })).toBeDisabled();
  await screenshot(page, 'trade');

  // The mark falls through the limit: the entry fills, the position appears, the legs arm.
  await app.setMark('ETH', '3340');
  await app.advance(1_000);
  await page.getByRole('tab', { name: 'Triggers' }).click();
  const triggers = page.getByRole('table', { name: 'Armed triggers' });
  await expect(triggers.getByRole('row', { name: /ETH Take profit sell/ })).toContainText('Armed', { timeout: 10_000 });
  await expect(triggers.getByRole('row', { name: /ETH Stop loss sell/ })).toContainText('Armed');
  await page.getByRole('tab', { name: 'Positions' }).click();
  await expect(page.getByRole('row', { name: 'ETH position' })).toContainText('LONG');
  await screenshot(page, 'positions');
  expect(pageErrors).toEqual([]);
});

/**
 * A scale order from the ticket: the ladder listed as it is typed and drawn on the chart, a leg below the
 * market's minimum named before anything is sent, the review's ladder table, then one batch of resting
 * limit orders.
 */
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a scale ladder: previewed in the ticket and on the chart, reviewed leg by leg, placed as one batch', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'scale', { onboard: true });
  await page.getByRole('option', { name: /^ETH / }).click();
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Buy' }).click();
  await ticket.getByRole('radio', { name: 'Scale' }).click();
  const mark = Number(await app.mark('ETH'));
  const from = (Math.floor(mark * 0.99 * 10) / 10).toFixed(1);
  const to = (Math.floor(mark * 0.96 * 10) / 10).toFixed(1);
  await ticket.getByLabel('From price').fill(from);
  await ticket.getByLabel('To price').fill(to);
  await ticket.getByLabel('Legs').fill('5');
  await ticket.getByLabel('Skew').fill('2');

  // An off-tick end is shown on its field with the valid prices either side, never rounded (issue 26.15).
  await ticket.getByLabel('Total size (ETH)').fill('0.6');
  await ticket.getByLabel('To price').fill(`${to}5`);
  await expect(ticket).toContainText(`${to}5 is not a multiple of ETH's tick_size`);
  await expect(ticket.getByRole('table', { name: 'Scale ladder' })).toHaveCount(0);
  await expect(ticket.getByRole('button', { name: /^Buy \/ Long ETH/ })).toBeDisabled();
  await ticket.getByLabel('To price').fill(to);

  // Too small: the smallest leg is named, and nothing can be sent.
  await ticket.getByLabel('Total size (ETH)').fill('0.01');
  await expect(ticket).toContainText(/the smallest leg, 1 of 5 .* below ETH's min_order_value 10/);
  await expect(ticket.getByRole('button', { name: /^Buy \/ Long ETH/ })).toBeDisabled();

  await ticket.getByLabel('Total size (ETH)').fill('0.6');
  const ladder = ticket.getByRole('table', { name: 'Scale ladder' });
  await expect(ladder.getByRole('row')).toHaveCount(6);
  // First and last legs at the ends given; sizes grow to twice the first (skew 2); the total is exact.
  const cells = await ladder.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent ?? '')));
  expect(cells[0]![1]!.replace(/,/g, '')).toBe(from);
  expect(cells[4]![1]!.replace(/,/g, '')).toBe(to);
  const sizes = cells.map((c) => Number(c[2]));
  expect(sizes.reduce((a, b) => a + b, 0)).toBeCloseTo(0.6, 8);
  expect(sizes[4]! / sizes[0]!).toBeCloseTo(2, 1);
  // The ladder is drawn on the chart while the ticket shows it.
  await expect(page.getByLabel('Chart lines')).toContainText(`Scale ladder 5 legs`);
  await screenshotBothSizes(page, 'scale-ticket');

  await ticket.getByRole('button', { name: 'Buy / Long ETH · 5 legs' }).click();
  const review = page.getByRole('dialog', { name: 'Review order · ETH' });
  const signed = review.getByRole('table', { name: 'Ladder as signed' });
  await expect(signed.locator('tbody tr')).toHaveCount(5);
  await expect(review).toContainText('Scale ladder · 5 legs');
  await screenshotBothSizes(page, 'scale-review');
  await review.getByRole('button', { name: 'Sign and place' }).click();
  await expect(review).toBeHidden();
  await page.getByRole('tab', { name: /Open orders/ }).click();
  await expect.poll(async () => {
    await app!.advance(300);
    return page.getByRole('tab', { name: /Open orders/ }).getAttribute('aria-label'); // the visible text may be the short label too
  }, { timeout: 15_000 }).toBe('Open orders 5');
  const open = await app.call('orders:listOpen', {});
  // By value: the ticket shows prices at the tick's places ("3,289.0"), the service answers canonical decimals ("3289").
  const byValue = (xs: string[]) => xs.map(Number).sort((a, b) => a - b);
  expect(byValue(open.orders.filter((o) => o.market === 'ETH' && o.order_type === 'LIMIT').map((o) => o.limit_price))).toEqual(byValue(cells.map((c) => c[1]!.replace(/,/g, ''))));
  expect(pageErrors).toEqual([]);
});

/**
 * The trades tape beside the order book: the venue's trades of the selected market (the simulator's walk
 * and its fills), newest on top, coloured by the taker's side; our own market order shows on it; at the
 * smallest window it is a tab next to the chart and the book.
 */
import { expect, openApp, placeFromTicket, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('the trades tape: live trades under the book, our fill on it, a tab at the smallest window', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'tape', { onboard: true });
  await page.getByRole('option', { name: /^ETH / }).click();
  const tape = page.getByRole('region', { name: 'ETH trades' });
  const rows = tape.getByRole('list', { name: 'Latest trades' }).getByRole('listitem');
  // Simulated time moves the walk; each tick's volume is a trade.
  await expect.poll(async () => {
    await app!.advance(1_000);
    return rows.count();
  }, { timeout: 20_000 }).toBeGreaterThanOrEqual(5);
  const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  for (const l of labels) expect(l).toMatch(/^(Buy|Sell) [\d.,]+ at [\d.,]+, \d\d:\d\d:\d\d$/);
  // Newest on top: times never go up down the list.
  const times = labels.map((l) => l.slice(-8));
  expect([...times].sort().reverse()).toEqual(times);
  await expect(tape.locator('.tape-buy, .tape-sell').first()).toBeVisible();

  // Our market sell of an unusual size is on the tape once it fills.
  await placeFromTicket(page, 'ETH', { side: 'Sell', type: 'Market', size: '0.0173' });
  await expect.poll(async () => {
    await app!.advance(300);
    return (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).some((l) => /^Sell 0\.0173 at /.test(l));
  }, { timeout: 20_000 }).toBe(true);
  await screenshotBothSizes(page, 'trades-tape');

  // The smallest window: chart, book and trades share the space as tabs.
  await page.setViewportSize({ width: 1024, height: 680 });
  const tabs = page.getByRole('tablist', { name: 'Chart and order book' });
  await tabs.getByRole('tab', { name: 'Trades' }).click();
  await expect(page.getByRole('region', { name: 'ETH trades' }).getByRole('listitem').first()).toBeVisible({ timeout: 10_000 });
  expect(pageErrors).toEqual([]);
});

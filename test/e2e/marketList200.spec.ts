/**
 * The market list at the real venue's scale (issue 29): 200 markets (`perps sim --markets venue-scale`)
 * in a virtualized list. Only a screenful of rows exists in the page, search finds a market by its symbol
 * and by the venue's name for it, the arrow keys walk the list (scrolling rows into being), Enter picks
 * one, and the ticket follows. Screenshots at 1440x900 and at the window's minimum 1024x680.
 */
import { venueScaleMarkets } from '../../src/sim/config/venueScale.js';
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('200 markets: virtualized list, search by symbol and venue name, keyboard', async ({ page, server, pageErrors }) => {
  test.setTimeout(240_000);
  app = await openApp(page, server, 'market-list-200', { onboard: true, simConfig: { markets: venueScaleMarkets() } });
  const list = page.getByRole('listbox', { name: 'Markets' });
  await expect(list.getByRole('option').first()).toBeVisible({ timeout: 60_000 });
  // Virtualized: a screenful of rows plus the overscan, not 200.
  const rendered = await list.getByRole('option').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(60);
  await screenshot(page, 'market-list-200-1440x900');

  // The last market is reachable: End from a row jumps there and it is rendered and focused.
  await list.getByRole('option').first().focus();
  await page.keyboard.press('End');
  await expect(list.getByRole('option', { name: /^VS179 / })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(list.getByRole('option', { name: /^VS178 / })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(list.getByRole('option', { name: /^BTC / })).toBeFocused();

  // Search by symbol, then by the venue's name (kPEPE is PEPE here); ArrowDown leaves the search for the rows.
  const search = page.getByLabel('Search markets');
  await search.fill('vs17');
  await expect(list.getByRole('option')).toHaveCount(10);
  await search.fill('kpepe');
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option').first()).toHaveAccessibleName(/^PEPE /);
  await search.fill('vs0');
  await search.press('ArrowDown');
  await expect(list.getByRole('option', { name: /^VS000 / })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'VS001 market' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Order ticket' })).toContainText('VS001');

  await page.setViewportSize({ width: 1024, height: 680 });
  await search.fill('');
  await expect(list.getByRole('option').first()).toBeVisible();
  await screenshot(page, 'market-list-200-1024x680');
  expect(pageErrors).toEqual([]);
});

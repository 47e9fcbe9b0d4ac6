/**
 * What a screen reader can follow (#31 item 3): fills, an order's result, an order rejected at the venue
 * and a liquidation warning are spoken through the app's one live region (polite; assertive for the
 * warning); the chart has a text alternative (the position, its liquidation estimate, the open orders)
 * as its description; the tables announce their column headers; icon-only buttons have names; a ticket
 * field's error is its description and marks it invalid.
 */
import { Decimal } from '../../src/shared/decimal/index.js';
import { expect, openApp, placeFromTicket, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { liqShown, openPosition } from './harness/riskSteps.js';
import { liquidationDistance } from '../../src/shared/protocol/riskMath.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('fills, results, rejections and liquidation warnings are spoken; the chart, tables and buttons are described', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await openApp(page, server, 'screen-reader', { onboard: true });
  await app.control('/freeze-marks', {});
  await app.setMark('ETH', '3400');
  // The live regions: present from the start, visually hidden, polite and assertive.
  const polite = page.getByTestId('live-polite');
  const assertive = page.getByTestId('live-assertive');
  await expect(polite).toHaveAttribute('aria-live', 'polite');
  await expect(assertive).toHaveAttribute('aria-live', 'assertive');

  // A 5x market buy: the order's result, then its fill, are spoken politely.
  const row = await openPosition(page, app, 'ETH', 'Buy', '1', 5);
  await expect(polite).toContainText(/Filled Open Long · ETH\. 1 ETH @ 3,400/);
  // The toast of a spoken event is silent itself (nothing is read twice).
  await expect(page.getByRole('status').filter({ hasText: 'Filled Open Long · ETH' }).first()).toHaveAttribute('aria-live', 'off');

  // The chart's text alternative: the position, its liquidation estimate, the open orders.
  const position = await app.waitFor('the ETH position with its estimate', async () => (await app!.call('positions:list', {})).positions.find((p) => p.market === 'ETH' && p.liquidation_price !== null));
  const liq = liqShown(position.size, position.liquidation_price!, 1);
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Limit', price: '3000', size: '0.5', tif: 'GTC' });
  await expect(polite).toContainText('Order submitted · ETH. Buy 0.5 ETH at 3,000 limit');
  const chart = page.getByRole('figure', { name: 'ETH price chart' });
  await expect.poll(async () => {
    await app!.advance(300);
    return (await app!.call('orders:listOpen', {})).orders.length;
  }, { timeout: 15_000 }).toBe(1);
  await expect(chart).toHaveAccessibleDescription(new RegExp(`Position: long 1 ETH at entry [\\d,.]+, mark 3,400\\.0, unrealized PnL .*Liquidation estimate: ${liq.replace(/[.,]/g, '\\$&')}, [\\d.]+% from the mark\\..*Buy 0\\.5 at 3,000\\.0\\.`));
  await expect(chart.getByRole('listitem')).toHaveCount(3);

  // The tables announce their headers.
  const positions = page.getByRole('table', { name: 'Positions' });
  for (const name of ['Market', 'Size', 'PnL (ROE)', 'Entry', 'Mark', 'Liq. (est.)', 'TP / SL', 'Actions']) await expect(positions.getByRole('columnheader', { name, exact: true })).toBeAttached();
  await expect(positions.getByRole('columnheader', { name: 'Liq. (est.)' })).toHaveAttribute('scope', 'col');
  await page.getByRole('tab', { name: /^Open orders/ }).click();
  const orders = page.getByRole('table', { name: 'Open orders' });
  await expect(orders.getByRole('columnheader').first()).toBeVisible();
  expect(await orders.getByRole('columnheader').count()).toBeGreaterThan(4);
  await page.getByRole('tab', { name: /^Positions/ }).click();

  // Icon-only buttons have names.
  await expect(row.getByRole('button', { name: 'More actions: ETH position' })).toHaveText('⋯');
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toHaveText('?');
  await expect(page.getByRole('button', { name: 'Dismiss notification' }).first()).toHaveText('×');

  // A ticket field's error is tied to it: described by the error, marked invalid.
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  const size = ticket.getByLabel('Size (ETH)');
  await size.fill('0.000001');
  const error = ticket.locator('.field-error .field-msg-error');
  await expect(error).toBeVisible();
  await expect(size).toHaveAttribute('aria-invalid', 'true');
  await expect(size).toHaveAccessibleDescription((await error.textContent())!);
  await size.fill('0.1');
  await expect(size).not.toHaveAttribute('aria-invalid', 'true');
  await expect(size).toHaveAccessibleDescription(/≈ \$/);

  // A post-only order that would take: accepted, then rejected at the venue; the rejection is spoken.
  await ticket.getByRole('radio', { name: 'Limit' }).click();
  await ticket.getByLabel('Limit price').fill('3500');
  await ticket.getByRole('radio', { name: 'Post-only (ALO)' }).click();
  await ticket.getByRole('button', { name: 'Buy / Long ETH' }).click();
  await page.getByRole('dialog', { name: 'Review order · ETH' }).getByRole('button', { name: 'Sign and place' }).click();
  await expect.poll(async () => {
    await app!.advance(300);
    return polite.textContent();
  }, { timeout: 15_000 }).toContain('Order rejected · ETH. post_only_would_take: post-only price would have crossed the book');

  // The mark falls near the liquidation estimate: the warning is spoken assertively.
  await expect(assertive).toHaveText('');
  const near = new Decimal(position.liquidation_price!).div('0.92').toDecimalPlaces(1, Decimal.ROUND_UP).toFixed(1);
  await app.setMark('ETH', near);
  await app.advance(100);
  await expect(assertive).toContainText('Liquidation risk · ETH. ETH long: mark', { timeout: 10_000 });
  await expect(assertive).toContainText(`from the estimated liquidation price ${liq}. Add margin or reduce the position.`);
  // The chart's description follows the mark: the new mark itself, and the liquidation distance from it
  // (mark - liquidation) / mark, two places, as the app's own rule computes it. Before the move the text
  // read mark 3,400.0 and a wider distance, so neither part can match a description that stood still.
  const nearShown = new Decimal(near).toFixed(1, Decimal.ROUND_HALF_UP).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const distanceShown = `${liquidationDistance(position.size, near, position.liquidation_price)!.mul(100).toFixed(2, Decimal.ROUND_HALF_UP)}%`;
  await expect(chart).toHaveAccessibleDescription(new RegExp(`mark ${nearShown.replace(/[.,]/g, '\\$&')}, unrealized PnL .*Liquidation estimate: ${liq.replace(/[.,]/g, '\\$&')}, ${distanceShown.replace('.', '\\.')} from the mark\\.`));
  expect(pageErrors).toEqual([]);
});

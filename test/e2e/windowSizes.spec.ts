/**
 * The smallest window works, and so does a common one. At 1024x680 (the window's minimum) and at
 * 1440x900, the main buttons of every view are inside the window, not cut off, not covered (by a toast
 * or anything else) and reachable without scrolling sideways: the ticket's submit button (even with a
 * bracket open), a position's Close, an order's Cancel, the review's Sign and place, History's export and
 * row toggle, Portfolio's range and exports, Withdraw, Bridge, Swap, Points, Keys, Settings. Toasts keep to the bottom strip. Screenshots
 * of each view at both sizes go to test-results/screenshots/ (`<view>-<width>x<height>.png`).
 */
import type { Page } from '@playwright/test';
import { expect, openApp, placeFromTicket, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { expectReachable } from './harness/viewport.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** `narrow`: the centre column is too narrow for every row action (ui/RowActions.tsx folds the secondary ones). */
const SIZES = [
  { width: 1024, height: 680, narrow: true },
  { width: 1440, height: 900, narrow: false },
] as const;

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

for (const size of SIZES) {
  const tag = `${size.width}x${size.height}`;
  test(`every view's main buttons are reachable at ${tag}`, async ({ page, server, pageErrors }) => {
    app = await openApp(page, server, `window-${size.width}`, { onboard: true });
    await page.setViewportSize({ width: size.width, height: size.height });
    const narrow = size.narrow;
    // Something in every table: an ETH position (a filled market order) and a resting limit order.
    await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Market', size: '1' });
    await placeFromTicket(page, 'ETH', { side: 'Sell', type: 'Limit', price: '3900', size: '0.5', tif: 'GTC' });
    await app.advance(1_000);

    // Trade: the navigation, the ticket's submit button, a position's actions, an order's Cancel.
    for (const item of ['Trade', 'History', 'Portfolio', 'Withdraw', 'Bridge', 'Swap', 'Points', 'Keys', 'Settings']) await expectReachable(nav(page, item));
    await expectReachable(page.getByRole('button', { name: 'Assistant' }));
    const ticket = page.getByRole('form', { name: 'Order ticket' });
    const submit = ticket.getByRole('button', { name: /^(Buy \/ Long|Sell \/ Short) ETH$/ });
    await expectReachable(submit);
    await page.getByRole('tab', { name: 'Positions' }).click();
    const position = page.getByRole('row', { name: 'ETH position' });
    await expect(position).toContainText('LONG', { timeout: 10_000 });
    await expectReachable(position.getByRole('button', { name: 'Close ETH position' }));
    // The other actions sit in the row's ⋯ menu at both sizes: beside Close they would cover the table's
    // eleven columns (the TP/SL levels are a button in their own cell).
    {
      await expect(position.getByRole('button', { name: 'Reverse ETH position' })).toBeHidden();
      await expectReachable(position.getByRole('button', { name: 'More actions: ETH position' }));
      await position.getByRole('button', { name: 'More actions: ETH position' }).click();
      const menu = page.getByRole('menu', { name: 'Actions: ETH position' });
      for (const action of ['Reverse ETH position', 'Adjust ETH margin']) await expectReachable(menu.getByRole('menuitem', { name: action }));
      await screenshot(page, `trade-menu-${tag}`);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
    }
    // The armed levels are a button in their own cell where the table is wide enough; narrow, TP/SL is in the menu.
    if (!narrow) await expectReachable(position.getByRole('button', { name: /^ETH TP\/SL: / }));
    await screenshot(page, `trade-${tag}`);
    await page.getByRole('tab', { name: 'Open orders' }).click();
    const order = page.getByRole('table', { name: 'Open orders' }).getByRole('row', { name: /ETH Limit sell/ });
    await expect(order).toBeVisible({ timeout: 10_000 });
    await expectReachable(order.getByRole('button', { name: /^Cancel ETH Limit sell/ }));
    if (narrow) {
      await order.getByRole('button', { name: /^More actions: ETH Limit sell/ }).click();
      await expectReachable(page.getByRole('menuitem', { name: /^Modify ETH Limit sell/ }));
      await page.keyboard.press('Escape');
    } else {
      await expectReachable(order.getByRole('button', { name: /^Modify ETH Limit sell/ }));
    }
    await expectReachable(page.getByRole('button', { name: 'Cancel all' }));
    await screenshot(page, `trade-orders-${tag}`);

    // The tallest ticket (a limit with a bracket) still shows its submit button; so does its review.
    await ticket.getByRole('radio', { name: 'Buy' }).click();
    await ticket.getByRole('radio', { name: 'Limit' }).click();
    await ticket.getByLabel('Limit price').fill('3350');
    await ticket.getByLabel('Size (ETH)').fill('0.5');
    await ticket.getByLabel('Attach take-profit / stop-loss').check();
    await ticket.getByLabel('Take-profit trigger').fill('3600');
    await ticket.getByLabel('Stop-loss trigger').fill('3200');
    await expectReachable(submit);
    await screenshot(page, `trade-ticket-${tag}`);
    await submit.click();
    const review = page.getByRole('dialog', { name: 'Review order · ETH' });
    await expect(review.getByText('Buy 0.5 ETH at 3,350 limit, GTC, 1x')).toBeVisible();
    await expectReachable(review.getByRole('button', { name: 'Sign and place' }));
    await expectReachable(review.getByRole('button', { name: 'Cancel' }));
    await screenshot(page, `review-${tag}`);
    await review.getByRole('button', { name: 'Cancel' }).click();
    await expect(review).toBeHidden();

    // The market header folds its secondary figures instead of scrolling sideways.
    await expectReachable(page.getByRole('region', { name: 'ETH market' }).getByLabel('Mark price'));

    // History: export, the market filter, and a row's toggle for its status changes.
    await nav(page, 'History').click();
    const orders = page.getByRole('table', { name: 'Order history' });
    await expect(orders.getByRole('row').nth(1)).toBeVisible({ timeout: 10_000 });
    await expectReachable(page.getByRole('button', { name: 'Export CSV' }));
    await expectReachable(page.getByLabel('Filter by market'));
    const toggle = orders.getByRole('button', { name: /^Show status changes of ETH Market buy/ });
    await expectReachable(toggle);
    await toggle.click();
    await expect(orders.getByRole('list', { name: /^Status changes of/ })).toContainText('filled');
    await screenshot(page, `history-${tag}`);

    // Portfolio: the range switch and the CSV exports.
    await nav(page, 'Portfolio').click();
    await expect(page.getByRole('status').filter({ hasText: 'Ledger balanced' })).toBeVisible({ timeout: 20_000 });
    await expectReachable(page.getByRole('radiogroup', { name: 'Range' }).getByRole('radio', { name: 'All' }));
    for (const name of ['Curve CSV', 'Days CSV', 'Markets CSV']) await expectReachable(page.getByRole('button', { name }));

    await nav(page, 'Withdraw').click();
    await expectReachable(page.getByRole('button', { name: 'Review withdrawal' }));
    await screenshot(page, `withdraw-${tag}`);

    await nav(page, 'Bridge').click();
    await expectReachable(page.getByRole('button', { name: 'Get quotes' }));
    await screenshot(page, `bridge-${tag}`);

    await nav(page, 'Swap').click();
    await expectReachable(page.getByRole('button', { name: 'Get quote' }));
    await screenshot(page, `swap-${tag}`);

    await nav(page, 'Points').click();
    await expectReachable(page.getByRole('button', { name: 'Show points' }));
    await screenshot(page, `points-${tag}`);

    await nav(page, 'Keys').click();
    await expectReachable(page.getByRole('button', { name: 'New trading key' }));
    await expectReachable(page.getByRole('button', { name: 'Renew e2e' }));
    await expectReachable(page.getByRole('button', { name: 'Revoke e2e' }));
    await screenshot(page, `keys-${tag}`);

    // Settings is one long page: it may scroll down (never sideways) to each section's button.
    await nav(page, 'Settings').click();
    await expectReachable(page.getByRole('button', { name: 'Switch profile' }), { scroll: 'vertical' });
    await screenshot(page, `settings-${tag}`);
    await expectReachable(page.getByRole('button', { name: 'Save', exact: true }).last(), { scroll: 'vertical' });
    await expectReachable(page.getByRole('checkbox', { name: 'Sound on fills' }), { scroll: 'vertical' });
    await screenshot(page, `settings-sounds-${tag}`);

    // Toasts keep to the bottom strip, at most three, never over a panel.
    const toaster = page.getByRole('region', { name: 'Notifications', exact: true });
    const strip = await toaster.boundingBox();
    expect(strip!.y).toBeGreaterThanOrEqual(size.height - 24);
    expect(await toaster.locator('.toast').count()).toBeLessThanOrEqual(3);
    expect(pageErrors).toEqual([]);
  });
}

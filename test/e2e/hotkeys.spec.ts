/**
 * Trade hotkeys: off until turned on in Settings, keys recorded by pressing them, a key the app already
 * uses or one bound twice refused; then, in the Trade view, buy at market with the ticket's size, flip,
 * cancel all on the market and close, each through its review or dialog; with the review setting off a
 * sell goes out at once; the shortcut sheet lists them.
 */
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible, screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

/** Presses `key` with focus on nothing editable, as a trader with the mouse elsewhere would. */
async function press(page: Page, key: string): Promise<void> {
  // A string, not a function: the test code is compiled without the DOM library.
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await page.keyboard.press(key);
}

test('trade hotkeys: configured in Settings with conflicts refused, then trading from the keyboard', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await openApp(page, server, 'hotkeys', { onboard: true });
  await expect(page.getByRole('option', { name: /^ETH / })).toBeVisible();

  // Off by default: the sheet lists them as off, and the keys do nothing.
  await press(page, 'Shift+Slash');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toContainText('Trade hotkeys (off: turn them on in Settings)');
  await sheet.getByRole('button', { name: 'Close dialog' }).click();

  await nav(page, 'Settings');
  const form = page.getByRole('form', { name: 'Trade hotkeys' });
  await form.getByLabel('Enable trade hotkeys').check();
  // "B" is the app's Buy shortcut: refused where it is typed, and Save is off.
  await form.getByRole('button', { name: 'Key for Buy at market with the ticket’s size', exact: true }).click();
  await page.keyboard.press('b');
  await expect(form).toContainText('B is already an app shortcut');
  await expect(form.getByRole('button', { name: 'Save trade hotkeys' })).toBeDisabled();
  await form.getByRole('button', { name: 'Key for Buy at market with the ticket’s size', exact: true }).click();
  await page.keyboard.press('Alt+KeyB');
  // One key for two actions is refused too.
  await form.getByRole('button', { name: 'Key for Flip (reverse) the selected market’s position', exact: true }).click();
  await page.keyboard.press('Alt+KeyS');
  await expect(form).toContainText('Alt+S is already used for “Sell at market with the ticket’s size”');
  await screenshotBothSizes(page, 'hotkeys-settings-conflict');
  await form.getByRole('button', { name: 'Key for Flip (reverse) the selected market’s position', exact: true }).click();
  await page.keyboard.press('Alt+KeyR');
  await expect(form.getByRole('button', { name: 'Key for Flip (reverse) the selected market’s position', exact: true })).toHaveText('Alt+R');
  await form.getByRole('button', { name: 'Save trade hotkeys' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Trade hotkeys saved' })).toBeVisible();
  expect(await app.call('settings:getHotkeys', {})).toMatchObject({ enabled: true, bindings: { market_buy: 'Alt+B', flip_selected: 'Alt+R' } });

  await nav(page, 'Trade');
  await page.getByRole('option', { name: /^ETH / }).click();
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Market' }).click();
  await ticket.getByLabel('Size (ETH)').fill('0.05');

  // Alt+B: a market buy of the ticket's size, through the review.
  await press(page, 'Alt+KeyB');
  const review = page.getByRole('dialog', { name: 'Review order · ETH' });
  await expect(review).toContainText(/Buy 0\.05 ETH at market/);
  await review.getByRole('button', { name: 'Sign and place' }).click();
  await expect(review).toBeHidden();
  await page.getByRole('tab', { name: /^Positions/ }).click();
  const row = page.getByRole('row', { name: 'ETH position' });
  await advanceUntilVisible(app, row);
  await expect(row).toContainText('LONG');

  // Alt+R flips it, through the reverse dialog.
  await press(page, 'Alt+KeyR');
  const flip = page.getByRole('dialog', { name: 'Reverse ETH position' });
  await flip.getByRole('button', { name: 'Reverse to short' }).click();
  await expect.poll(async () => {
    await app!.advance(500);
    return (await row.allTextContents()).join(' ');
  }, { timeout: 30_000 }).toContain('SHORT');

  // A resting limit, then Alt+X cancels every order on ETH after its confirmation.
  const mark = Number(await app.mark('ETH'));
  await ticket.getByRole('radio', { name: 'Limit' }).click();
  await ticket.getByLabel('Limit price').fill((Math.floor(mark * 0.9 * 10) / 10).toFixed(1));
  await ticket.getByLabel('Size (ETH)').fill('0.02');
  await ticket.getByRole('button', { name: 'Buy / Long ETH' }).click();
  await page.getByRole('dialog', { name: 'Review order · ETH' }).getByRole('button', { name: 'Sign and place' }).click();
  await expect.poll(async () => {
    await app!.advance(300);
    return page.getByRole('tab', { name: /^Open orders/ }).getAttribute('aria-label'); // the visible text may be the short label too
  }, { timeout: 15_000 }).toBe('Open orders 1');
  await press(page, 'Alt+KeyX');
  const cancel = page.getByRole('dialog', { name: 'Cancel all orders on ETH' });
  await screenshotBothSizes(page, 'hotkeys-cancel-all');
  await cancel.getByRole('button', { name: 'Cancel 1 order' }).click();
  await expect.poll(async () => {
    await app!.advance(300);
    return page.getByRole('tab', { name: /^Open orders/ }).getAttribute('aria-label');
  }, { timeout: 15_000 }).toBe('Open orders');

  // Alt+C closes the selected market's position through its close dialog.
  await press(page, 'Alt+KeyC');
  const close = page.getByRole('dialog', { name: 'Close ETH position' });
  await close.getByRole('button', { name: 'Close position' }).click();
  await expect.poll(async () => {
    await app!.advance(500);
    return page.getByText('No open positions').isVisible();
  }, { timeout: 20_000 }).toBe(true);
  await close.getByRole('button', { name: 'Done' }).click();

  // With the review setting off, Alt+S sells at once: no dialog.
  await nav(page, 'Settings');
  await page.getByLabel('Review the exact signing preview before every order').uncheck();
  await page.getByRole('region', { name: 'Orders and keys' }).getByRole('button', { name: 'Save', exact: true }).click();
  await nav(page, 'Trade');
  await ticket.getByRole('radio', { name: 'Market' }).click();
  await ticket.getByLabel('Size (ETH)').fill('0.03');
  await press(page, 'Alt+KeyS');
  await expect(page.getByRole('status').filter({ hasText: 'Order submitted · ETH' })).toBeVisible();
  expect(await page.getByRole('dialog').count()).toBe(0);
  await advanceUntilVisible(app, row);
  await expect(row).toContainText('SHORT');
  await expect(row).toContainText('-0.03');

  // The sheet lists the keys in force.
  await press(page, 'Shift+Slash');
  await expect(sheet.getByRole('definition').filter({ hasText: 'Flip (reverse) the selected market’s position' })).toBeVisible();
  await expect(sheet.getByRole('term').filter({ hasText: 'Alt + R' })).toBeVisible();
  await screenshotBothSizes(page, 'hotkeys-sheet');
  expect(pageErrors).toEqual([]);
});

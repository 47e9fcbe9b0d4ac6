/**
 * Risk limits and panic in the app (issue 39), with screenshots at 1440x900 and 1024x680:
 *  - Settings › Limits sets a daily loss and a drawdown limit; the header shows the room left
 *    ("Daily loss: … of 100 USD left") and turns to a warning, in words, under 25%;
 *  - raising the daily loss limit is listed as pending with its time, the limit in force unchanged;
 *  - the mark falls past the limit: the lockout banner names the limit and when it ends, and an opening
 *    order's preview is refused (RISK_LOCKOUT) in main;
 *  - Ctrl+Alt+P held a second opens the panic confirmation; confirming closes the position and reports it.
 * Each screen passes the accessibility audit (serious and critical rules).
 */
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { auditScreen } from './harness/axeAudit.js';
import { openPosition, screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

async function audit(page: Page, screen: string): Promise<void> {
  const a = await auditScreen(page, screen);
  expect.soft(a.serious, `${screen}: ${a.examples.join('\n')}`).toEqual({});
}

test('limits: room left in the header, a pending loosening, the lockout banner, and panic held a second', async ({ page, server, pageErrors }) => {
  test.setTimeout(150_000);
  app = await openApp(page, server, 'limits', { onboard: true });
  await app.control('freeze-marks', {});
  await app.setMark('ETH', '3400');

  // Settings › Limits: a daily loss of 100 USD and a drawdown of 5%, applied at once (tightening).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Limits' });
  await section.getByRole('textbox', { name: 'Daily loss' }).fill('100');
  await section.getByRole('textbox', { name: 'Drawdown from the day’s peak' }).fill('5');
  await section.getByRole('button', { name: 'Save limits' }).click();
  // In the top bar from 1280 px; below it, in the status bar (the top bar keeps the nine views).
  const room = page.locator('.room-left-top');
  await expect(room).toContainText('Daily loss: 100 of 100 USD left');
  await expect(room).toContainText('Drawdown: 5 of 5% left');

  // Loosening waits: 200 is pending with its time, 100 stays in force.
  await section.getByRole('textbox', { name: 'Daily loss' }).fill('200');
  await section.getByRole('button', { name: 'Save limits' }).click();
  const pending = page.getByRole('list', { name: 'Pending loosenings' });
  await expect(pending).toContainText(/daily_loss → 200 USD, takes effect \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(section.getByRole('textbox', { name: 'Daily loss' })).toHaveValue('100');
  await pending.scrollIntoViewIfNeeded();
  await screenshotBothSizes(page, 'limits-settings-pending');
  await audit(page, 'Settings › Limits');

  // A 1 ETH long, then the mark falls 62: about 38 of 100 USD left (fees included), a warning under 25 is not yet shown.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Trade' }).click();
  await openPosition(page, app, 'ETH', 'Buy', '1', 2);
  await app.setMark('ETH', '3338');
  await expect.poll(async () => { await app!.advance(500); return room.textContent(); }, { timeout: 30_000, intervals: [1000] }).toMatch(/Daily loss: 3\d(\.\d+)? of 100 USD left/);
  await screenshotBothSizes(page, 'limits-header-room-left');
  await page.setViewportSize({ width: 1024, height: 680 });
  await expect(room).toBeHidden();
  await expect(page.locator('.room-left-status')).toBeVisible();
  await expect(page.locator('.room-left-status')).toContainText(/Daily loss: 3\d(\.\d+)? of 100 USD left/);
  // Nothing scrolls sideways, and every view stays in the top bar, whole, beside the account's figures.
  expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  await expect(page.getByRole('button', { name: 'Assistant' })).toBeInViewport({ ratio: 1 });
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Trade', 'History', 'Portfolio', 'Withdraw', 'Bridge', 'Swap', 'Points', 'Keys', 'Settings']) {
    const box = await nav.getByRole('button', { name, exact: true }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(1024);
    const navBox = (await nav.boundingBox())!;
    expect(box!.x + box!.width, `${name} inside the navigation`).toBeLessThanOrEqual(navBox.x + navBox.width + 0.5);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Past the limit: the lockout banner, and an opening order is refused in main.
  await app.setMark('ETH', '3280');
  const banner = page.getByRole('alert', { name: 'Opening orders locked' });
  await expect.poll(async () => { await app!.advance(500); return banner.isVisible(); }, { timeout: 30_000, intervals: [1000] }).toBe(true);
  await expect(banner).toContainText('daily_loss: PnL since the reset is -');
  await expect(banner).toContainText('Reduce-only orders and closes still pass');
  await expect(room).toContainText('Locked');
  await expect(app.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.1' } })).rejects.toThrow(/VALIDATION: opening orders are locked until/);
  await screenshotBothSizes(page, 'limits-lockout-banner');
  await audit(page, 'Trade with the lockout banner');

  // Panic: Ctrl+Alt+P held a full second opens the confirmation; an early release does not.
  await page.keyboard.down('Control');
  await page.keyboard.down('Alt');
  await page.keyboard.down('KeyP');
  await page.keyboard.up('KeyP');
  await page.keyboard.up('Alt');
  await page.keyboard.up('Control');
  await page.waitForTimeout(1_200);
  const dialog = page.getByRole('dialog', { name: 'Panic' });
  await expect(dialog).toHaveCount(0);
  await page.keyboard.down('Control');
  await page.keyboard.down('Alt');
  await page.keyboard.down('KeyP');
  await expect(page.getByRole('status').filter({ hasText: 'Hold to panic' })).toBeVisible();
  await expect(dialog).toBeVisible({ timeout: 3_000 });
  await page.keyboard.up('KeyP');
  await page.keyboard.up('Alt');
  await page.keyboard.up('Control');
  await expect(dialog).toContainText('close every position at market');
  await screenshotBothSizes(page, 'panic-confirmation');
  await audit(page, 'Panic confirmation');
  await dialog.getByRole('button', { name: 'Panic now' }).click();
  const report = page.getByRole('dialog', { name: 'Panic: report' });
  // The closes are followed to their fills on the simulator's manual clock: time moves while it runs.
  await expect.poll(async () => { await app!.advance(500); return report.isVisible(); }, { timeout: 60_000, intervals: [300] }).toBe(true);
  await expect(report).toContainText('Positions closed: ETH (closed)');
  await expect(report).toContainText('Still open: 0 order(s); positions: none');
  await screenshotBothSizes(page, 'panic-report');
  expect(pageErrors).toEqual([]);
});

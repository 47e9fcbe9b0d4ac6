/**
 * Alerts with the mouse and keyboard (issue 27, item 2): the Alerts tab refuses what `perps alert add`
 * refuses (a level of 0, an exponent) and stores nothing; an added price alert is listed and drawn on the
 * chart as a line with a grip; dragging the grip moves the level in main's store (no review: nothing goes
 * to the venue); the mark crossing the dragged level fires it once: a toast in the polite live region,
 * the native notification through the notification port, the alert marked fired.
 */
import type { Locator, Page } from '@playwright/test';
import { Decimal } from '../../src/shared/decimal/index.js';
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible, screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

async function dragBy(page: Page, grip: Locator, dy: number): Promise<void> {
  await expect(grip).toBeVisible();
  const read = { box: null as Awaited<ReturnType<Locator['boundingBox']>> };
  await expect.poll(async () => (read.box = await grip.boundingBox()), { message: 'the grip has no box' }).not.toBeNull();
  const box = read.box!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + dy, { steps: 8 });
  await page.mouse.up();
}

test('alerts: add from the tab (bad input refused), drawn on the chart, dragged to a new level in main, fired once by main', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await openApp(page, server, 'alerts', { onboard: true });
  await app.control('freeze-marks', {});
  await app.setMark('ETH', '3400');
  await page.getByRole('option', { name: /^ETH / }).click();
  await page.getByRole('tab', { name: /^Alerts/ }).click();
  const form = page.getByRole('form', { name: 'Add an alert' });
  await expect(form.getByLabel('Market')).toHaveValue('ETH');

  // Refused in the form, as the command line refuses it; nothing reaches main's store.
  await form.getByLabel('Level').fill('0');
  await form.getByRole('button', { name: 'Add alert' }).click();
  await expect(form.getByRole('alert')).toHaveText('a price level must be above 0');
  await form.getByLabel('Level').fill('1e400');
  await form.getByRole('button', { name: 'Add alert' }).click();
  await expect(form.getByRole('alert')).toContainText("'1e400' is not a decimal");
  expect((await app.call('alerts:list', {})).alerts).toEqual([]);

  await form.getByLabel('Level').fill('3500');
  await form.getByLabel('Note').fill('breakout');
  await form.getByRole('button', { name: 'Add alert' }).click();
  const row = page.getByRole('row', { name: 'Alert ETH mark above 3500' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('armed');
  await expect(row).toContainText('breakout');

  const chart = page.getByRole('figure', { name: 'ETH price chart' });
  const grip = chart.getByRole('button', { name: 'Drag to move the ETH alert at 3,500.0' });
  await advanceUntilVisible(app, grip);
  await expect(chart.getByLabel('Chart lines')).toContainText('Alert ▲ breakout 3,500.0');
  await screenshotBothSizes(page, 'alerts-tab-and-chart-line');

  // Down by 30 px: a lower level, on the tick, stored by main (no review dialog).
  await dragBy(page, grip, 30);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const moved = await expect
    .poll(async () => (await app!.call('alerts:list', {})).alerts[0]!.rule, { timeout: 10_000 })
    .not.toEqual({ kind: 'price_above', level: '3500' })
    .then(async () => (await app!.call('alerts:list', {})).alerts[0]!);
  expect(moved.rule.kind).toBe('price_above');
  const level = (moved.rule as { level: string }).level;
  expect(Number(level)).toBeLessThan(3500);
  expect(Number(level)).toBeGreaterThan(3400);
  expect(Math.round(Number(level) * 10) / 10).toBe(Number(level));
  await expect(page.getByRole('row', { name: `Alert ETH mark above ${level}` })).toBeVisible();

  // The mark crosses the dragged level: main fires it, once.
  const crossing = new Decimal(level).plus(1).toFixed();
  await app.setMark('ETH', crossing);
  const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: `Alert: ETH mark above ${level}` });
  await advanceUntilVisible(app, toast);
  await expect(toast).toContainText('breakout');
  await expect(page.getByRole('row', { name: `Alert ETH mark above ${level}` })).toContainText('fired');
  await expect(chart.getByRole('button', { name: /alert at/ })).toHaveCount(0);
  expect(app.notifications.filter((n) => n.title.startsWith('Alert: '))).toEqual([{ title: `Alert: ETH mark above ${level}`, body: `ETH mark ${crossing} is at or above ${level}\nbreakout` }]);
  await screenshotBothSizes(page, 'alerts-fired');
  expect(pageErrors).toEqual([]);
});

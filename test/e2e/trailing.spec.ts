/**
 * A trailing stop as a trader sets it: from the TP/SL dialog's trailing option on the position row; the
 * row then says it in words ("Trailing 1% · SL 3,366 · high 3,400"), and as the mark makes a new high the
 * stop follows (SL 3,415.5 · high 3,450); the chart labels the trailing SL line and draws the high-water
 * mark. Screenshots at 1440x900 and 1024x680.
 */
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible, openPosition, screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a trailing stop from the TP/SL dialog: on the position row in words, following a new high, on the chart', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await openApp(page, server, 'trailing', { onboard: true });
  await app.control('/freeze-marks', {});
  await app.setMark('ETH', '3400');
  const row = await openPosition(page, app, 'ETH', 'Buy', '1');
  await row.getByRole('button', { name: 'ETH TP/SL: none armed' }).click();
  const dialog = page.getByRole('dialog', { name: 'TP/SL on ETH position' });
  // Hostile input is refused by main with its reason, and nothing is armed.
  await dialog.getByLabel('Trailing stop distance').fill('150%');
  await dialog.getByRole('button', { name: 'Trail the stop' }).click();
  await expect(dialog).toContainText('below 100%');
  await dialog.getByLabel('Trailing stop distance').fill('1%');
  await screenshotBothSizes(page, 'trailing-dialog');
  await dialog.getByRole('button', { name: 'Trail the stop' }).click();
  await advanceUntilVisible(app, dialog.getByRole('button', { name: 'Stop trailing' }));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await advanceUntilVisible(app, row.getByRole('button', { name: 'ETH TP/SL: Trailing 1% · SL 3,366 · high 3,400' }));

  await app.setMark('ETH', '3450');
  const moved = row.getByRole('button', { name: 'ETH TP/SL: Trailing 1% · SL 3,415.5 · high 3,450' });
  await advanceUntilVisible(app, moved);
  await expect(moved).toContainText('Trailing 1% · SL 3,415.5');
  await expect(moved).toContainText('high 3,450');
  // The chart: the trailing SL line and the high-water mark, named in the chart's legend of lines.
  await expect(page.getByLabel('Chart lines')).toContainText('SL trailing 1% 3,415.5 · Trail high 3,450.0');
  await screenshotBothSizes(page, 'trailing-row');
  expect(pageErrors).toEqual([]);
});

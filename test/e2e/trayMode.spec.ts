/**
 * Settings → Running in the background (issue 27, item 5): "Keep running in the tray while work is
 * active" is on by default; turning it off is stored in main (settings:getTray) and the explanation says
 * closing then quits after asking. What closing the window does is
 * tested through the built main bundle (test/boot/trayMode.test.ts).
 */
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('the tray-mode switch in Settings: on by default, turned off and kept', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'tray-mode', { onboard: true });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Running in the background' });
  const box = page.getByRole('checkbox', { name: 'Keep running in the tray while work is active' });
  await expect(box).toBeChecked();
  await expect(panel).toContainText('keeps the app running in the system tray, still watching them');
  await box.scrollIntoViewIfNeeded();
  await screenshotBothSizes(page, 'tray-mode-settings-on');

  await box.uncheck();
  await expect.poll(async () => app!.call('settings:getTray', {})).toEqual({ keep_running_in_tray: false });
  await expect(panel).toContainText('quits the app, after asking: that work then stops, and what rests at the service (a trailing stop’s level, both legs of an OCO pair, a chase’s order unless it is set to cancel at its limit) stays there, unwatched');
  await box.scrollIntoViewIfNeeded();
  await screenshotBothSizes(page, 'tray-mode-settings-off');

  // Another view and back: the switch shows main's stored value.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Trade', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('checkbox', { name: 'Keep running in the tray while work is active' })).not.toBeChecked();
  expect(pageErrors).toEqual([]);
});

/**
 * Alerts with the mouse and keyboard (issue 27, item 2): the Alerts tab refuses what `perps alert add`
 * refuses (a level of 0, an exponent) and stores nothing; an added price alert is listed and drawn on the
 * chart as a line with a grip; dragging the grip moves the level in main's store (no review: nothing goes
 * to the venue); the mark crossing the dragged level fires it once: a toast in the polite live region,
 * the native notification through the notification port, the alert marked fired.
 */
import type { Locator, Page } from '@playwright/test';
import { Decimal } from '../../src/shared/decimal/index.js';
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible, screenshotBothSizes } from './harness/riskSteps.js';
import { auditScreen } from './harness/axeAudit.js';
import { AlertStore, type StoredAlert } from '../../src/main/services/alerts/alertStore.js';

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

test('alerts: damaged stored alerts are rows of their own (damaged, why, not evaluated), removable from the keyboard, and the tab passes the audit', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await openApp(page, server, 'alerts-damaged', { onboard: true });
  await app.control('freeze-marks', {});
  await app.setMark('ETH', '3400');
  await page.getByRole('option', { name: /^ETH / }).click();
  await page.getByRole('tab', { name: /^Alerts/ }).click();
  await page.getByRole('form', { name: 'Add an alert' }).getByLabel('Level').fill('3500');
  await page.getByRole('button', { name: 'Add alert' }).click();
  await expect(page.getByRole('row', { name: 'Alert ETH mark above 3500' })).toBeVisible();

  // Another process (an older version, a hand edit) leaves alerts a new one could never be: a repeating
  // move of 0 %, a note with an OSC 52 clipboard write, a market the service does not list.
  const base = { profile: 'sim', created_at: 1, status: 'active' as const, armed: true, fired_count: 0, last_fired_at: null, last_fired_value: null, wallet: null, repeat: false, note: '' };
  const planted: StoredAlert[] = [
    { ...base, id: 'dddddddddd01', market: 'ETH', rule: { kind: 'move', pct: '0', window_ms: 60_000 }, armed: null, repeat: true },
    { ...base, id: 'dddddddddd02', market: 'ETH', rule: { kind: 'price_below', level: '3000' }, note: 'pay \u001b]52;c;ZXZpbA==\u0007\u202e' },
    { ...base, id: 'dddddddddd03', market: 'DOGE', rule: { kind: 'price_below', level: '1' } },
  ];
  new AlertStore(app.dataDir).transact((file) => ({ next: { ...file, alerts: [...file.alerts, ...planted] }, result: null }));

  // Main re-reads the file at its next look and pushes the list, damaged ones apart.
  const move = page.getByRole('row', { name: 'Damaged alert ETH mark move (dddddddddd01)' });
  let tick = 0;
  await expect
    .poll(
      async () => {
        await app!.setMark('ETH', tick++ % 2 === 0 ? '3401' : '3400');
        return move.isVisible();
      },
      { timeout: 30_000, intervals: [300] },
    )
    .toBe(true);
  const note = page.getByRole('row', { name: 'Damaged alert ETH mark below (dddddddddd02)' });
  const doge = page.getByRole('row', { name: 'Damaged alert DOGE mark below (dddddddddd03)' });
  for (const row of [move, note, doge]) {
    await expect(row).toContainText('damaged');
    await expect(row).toContainText('not evaluated: it never fires');
  }
  await expect(move.getByRole('list', { name: 'What is wrong' })).toContainText('above 0');
  await expect(note.getByRole('list', { name: 'What is wrong' })).toHaveText('note: no control characters or line breaks');
  await expect(doge.getByRole('list', { name: 'What is wrong' })).toHaveText("market: 'DOGE' is not a market this service lists");
  // The healthy alert is listed as before, and the tab's count includes the damaged ones (they need attention).
  await expect(page.getByRole('row', { name: 'Alert ETH mark above 3500' })).toContainText('armed');
  await expect(page.getByRole('tab', { name: /^Alerts/ })).toContainText('4');

  const audit = await auditScreen(page, 'Alerts tab with damaged alerts 1440x900');
  expect.soft(audit.serious, audit.examples.join('\n')).toEqual({});
  await screenshot(page, 'alerts-damaged-1440x900');
  await page.setViewportSize({ width: 1024, height: 680 });
  // The bottom panel is short at this size: the damaged rows are scrolled to, as a person would.
  await move.scrollIntoViewIfNeeded();
  await screenshot(page, 'alerts-damaged-1024x680');
  const small = await auditScreen(page, 'Alerts tab with damaged alerts 1024x680');
  expect.soft(small.serious, small.examples.join('\n')).toEqual({});
  await page.setViewportSize({ width: 1440, height: 900 });

  // From the keyboard: Tab from the form's button reaches the first damaged row's Remove; Enter removes it.
  await page.getByRole('button', { name: 'Add alert' }).focus();
  const removeMove = page.getByRole('button', { name: 'Remove damaged alert ETH mark move (dddddddddd01)' });
  for (let i = 0; i < 12 && !(await removeMove.evaluate((el) => el === (el.ownerDocument.activeElement as unknown)).catch(() => false)); i++) await page.keyboard.press('Tab');
  await expect(removeMove).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(move).toHaveCount(0);
  expect((await app.call('alerts:list', {})).damaged.map((d) => d.id)).toEqual(['dddddddddd02', 'dddddddddd03']);
  // With the mouse too; the healthy alert stays.
  await note.getByRole('button', { name: /^Remove damaged alert/ }).click();
  await doge.getByRole('button', { name: /^Remove damaged alert/ }).click();
  await expect(page.getByRole('row', { name: /^Damaged alert/ })).toHaveCount(0);
  await expect(page.getByRole('row', { name: 'Alert ETH mark above 3500' })).toBeVisible();
  expect(pageErrors).toEqual([]);
});


/**
 * Trading from the chart with the mouse: drag a resting limit's line to a new price (a modify, through
 * its review; the price on the tick), a drag to the wrong side of the mark refused with the reason and
 * the line back where it was, a drag from the position's line to set a take-profit (the TP/SL review),
 * the new trigger's line dragged past the mark refused, “×” on a line cancels, and “+” beside the price
 * axis opens a limit ticket at that price.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, openApp, placeFromTicket, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible, openPosition, screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Drags `grip` vertically by `dy` px (to `toY` when given) with the mouse, in steps as a hand would. */
async function dragBy(page: Page, grip: Locator, dy: number, toY?: number): Promise<void> {
  // The grips follow their lines frame by frame, and are rebuilt when the window size changes the layout:
  // a grip seen visible can be replaced before its box is read, so the box is read until one is there.
  await expect(grip).toBeVisible();
  const read = { box: null as Awaited<ReturnType<Locator['boundingBox']>> };
  await expect.poll(async () => (read.box = await grip.boundingBox()), { message: 'the grip has no box' }).not.toBeNull();
  const box = read.box;
  if (!box) throw new Error('the grip has no box');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, toY ?? y + dy, { steps: 8 });
  await page.mouse.up();
}

const num = (text: string) => Number(text.replace(/,/g, ''));

test('trading from the chart: drag to modify, wrong side refused, drag a TP from the position, × cancels, + opens a limit ticket', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await openApp(page, server, 'chart-trading', { onboard: true });
  await openPosition(page, app, 'ETH', 'Buy', '0.1', 2);
  const mark = Number(await app.mark('ETH'));
  const limit = (Math.floor(mark * 0.99 * 10) / 10).toFixed(1);
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Limit', price: limit, size: '0.02' });
  const chart = page.getByRole('figure', { name: 'ETH price chart' });
  const grip = chart.getByRole('button', { name: /^Drag to move Buy 0\.02 limit at / });
  await advanceUntilVisible(app, grip);
  await expect(grip).toHaveAccessibleName(`Drag to move Buy 0.02 limit at ${Number(limit).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`);

  // Down by 40 px: a lower buy price, on the tick, through the review.
  await dragBy(page, grip, 40);
  const review = page.getByRole('dialog', { name: 'Review modify · ETH' });
  await expect(review).toBeVisible();
  const change = (await review.getByRole('definition').first().textContent())!;
  const [, to] = change.split('→').map((s) => s.trim());
  expect(num(to!)).toBeLessThan(Number(limit));
  expect(Math.round(num(to!) * 10) / 10).toBe(num(to!));
  await screenshotBothSizes(page, 'chart-modify-review');
  await review.getByRole('button', { name: 'Sign and modify' }).click();
  await expect(review).toBeHidden();
  await expect.poll(async () => {
    await app!.advance(300);
    return (await app!.call('orders:listOpen', { market: 'ETH' })).orders.map((o) => o.limit_price);
  }, { timeout: 15_000 }).toEqual([String(num(to!))]);

  // Up past the mark: a buy there would execute at once; refused, and the line goes back.
  const moved = chart.getByRole('button', { name: /^Drag to move Buy 0\.02 limit at / });
  await expect(moved).toHaveAccessibleName(new RegExp(`at ${to!.replace('.', '\\.')}$`));
  const before = (await moved.boundingBox())!;
  const top = (await chart.locator('.chart-canvas').boundingBox())!.y;
  await dragBy(page, moved, 0, top + 12);
  await expect(chart.getByRole('alert')).toContainText(/A buy limit at [\d.]+ is at or above the mark [\d.]+: it would execute at once\. Drag it below the mark\./);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect.poll(async () => Math.abs((await moved.boundingBox())!.y - before.y)).toBeLessThan(3);
  await screenshotBothSizes(page, 'chart-wrong-side');

  // From the position's line up above the mark: a take-profit, through the TP/SL review.
  const entry = chart.getByRole('button', { name: 'Drag from the ETH position line to set a take-profit or stop-loss' });
  await dragBy(page, entry, -60);
  const tpsl = page.getByRole('dialog', { name: 'TP/SL on ETH position' });
  const tpField = tpsl.getByLabel('Take-profit trigger');
  const tp = await tpField.inputValue();
  expect(Number(tp)).toBeGreaterThan(Number(await app.mark('ETH')));
  await tpsl.getByRole('button', { name: 'Review changes' }).click();
  await tpsl.getByRole('button', { name: 'Sign and apply' }).click();
  await tpsl.getByRole('button', { name: 'Done' }).click();
  const tpGrip = chart.getByRole('button', { name: /^Drag to move Take profit sell / });
  await advanceUntilVisible(app, tpGrip);

  // The take-profit dragged below the mark would fire at once: refused.
  const canvas = (await chart.locator('.chart-canvas').boundingBox())!;
  await dragBy(page, tpGrip, 0, canvas.y + canvas.height - 60);
  await expect(chart.getByRole('alert')).toContainText(/A take-profit sell trigger must be above the mark/);

  // × on the limit's line cancels it, after its confirmation.
  await chart.getByRole('button', { name: /^Cancel Buy 0\.02 limit at / }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel order · ETH' });
  await cancel.getByRole('button', { name: 'Cancel order' }).click();
  await expect.poll(async () => {
    await app!.advance(300);
    return (await app!.call('orders:listOpen', { market: 'ETH' })).orders.filter((o) => o.order_type === 'LIMIT').length;
  }, { timeout: 15_000 }).toBe(0);

  // “+” beside the price axis: a limit ticket at that price.
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 3);
  const plus = chart.getByRole('button', { name: /^Limit order at / });
  await expect(plus).toBeVisible();
  const at = (await plus.getAttribute('aria-label'))!.replace('Limit order at ', '');
  await plus.click();
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await expect(ticket.getByRole('radio', { name: 'Limit' })).toHaveAttribute('aria-checked', 'true');
  await expect(ticket.getByLabel('Limit price')).toHaveValue(String(num(at)));
  expect(pageErrors).toEqual([]);
});

/** Closing a position: its armed triggers are cancelled first, then one reduce-only market order. */
import { expect, openApp, placeFromTicket, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { rowAction } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('closing a position', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'close', { onboard: true });
  await placeFromTicket(page, 'BTC', { side: 'Sell', type: 'Market', size: '0.05' });
  await app.advance(1_000);
  await page.getByRole('tab', { name: 'Positions' }).click();
  const row = page.getByRole('row', { name: 'BTC position' });
  await expect(row).toContainText('SHORT', { timeout: 10_000 });
  await expect(row).toContainText('-0.05');

  // Unrealized PnL follows the mark: a short gains when the mark falls.
  const mark = await app.mark('BTC');
  await app.setMark('BTC', (Number.parseInt(mark, 10) - 500).toString());
  await app.advance(100);
  await expect(row.getByLabel('Unrealized PnL')).toContainText('+$', { timeout: 10_000 });
  await screenshot(page, 'trade-position');

  await row.getByRole('button', { name: 'Close BTC position' }).click();
  const dialog = page.getByRole('dialog', { name: 'Close BTC position' });
  await expect(dialog).toContainText('reduce-only market order buys the whole position');
  await dialog.getByRole('button', { name: 'Close position' }).click();
  // The close waits on the position to change, which needs simulated time to pass.
  await expect.poll(async () => {
    await app!.advance(500);
    return page.getByText('No open positions').isVisible();
  }, { timeout: 20_000 }).toBe(true);
  // The dialog stays open with the outcome: what was sent, which triggers went first, what is left.
  await expect(dialog).toContainText('Closed 0.05 BTC at market: the position is flat.');
  await expect(dialog).toContainText('none (no TP/SL was armed)');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: /BTC (position closed|close submitted)/ })).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('adding margin and reversing a position', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'reverse', { onboard: true });
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Market', size: '1' });
  await app.advance(1_000);
  await page.getByRole('tab', { name: 'Positions' }).click();
  const row = page.getByRole('row', { name: 'ETH position' });
  await expect(row).toContainText('LONG', { timeout: 10_000 });

  await rowAction(page, row, 'ETH position', 'Adjust ETH margin');
  const margin = page.getByRole('dialog', { name: 'Adjust margin · ETH' });
  await margin.getByLabel('Amount').fill('250');
  await margin.getByRole('button', { name: 'Add margin' }).click();
  await expect.poll(async () => {
    await app!.advance(300);
    return margin.isHidden();
  }, { timeout: 20_000 }).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: 'Margin added · ETH' })).toBeVisible();

  // No atomic flip: the reverse exits, then enters the other side.
  await rowAction(page, row, 'ETH position', 'Reverse ETH position');
  const reverse = page.getByRole('dialog', { name: 'Reverse ETH position' });
  await reverse.getByRole('button', { name: 'Reverse to short' }).click();
  // Simulated time has to move for the exit and the entry to fill; the row is briefly absent in between.
  await expect.poll(async () => {
    await app!.advance(500);
    return (await row.allTextContents()).join(' ');
  }, { timeout: 30_000 }).toContain('SHORT');
  // The positions stream can show the short before main answers the reverse: its dialog (modal) closes
  // on that answer, and a click on the chart before then lands on the dialog's backdrop.
  await expect(reverse).toBeHidden({ timeout: 15_000 });
  await expect(page.getByRole('status').filter({ hasText: 'ETH reversed' })).toBeVisible();

  // A click on the chart offers that price to the ticket as a limit price.
  // (The chart stacks several canvases; click the point on screen, as a person would.)
  const box = await page.getByRole('figure', { name: 'ETH price chart' }).locator('.chart-canvas').boundingBox();
  if (!box) throw new Error('the chart has no box');
  await page.mouse.click(box.x + box.width / 3, box.y + box.height / 3);
  await expect(page.getByRole('form', { name: 'Order ticket' }).getByRole('radio', { name: 'Limit' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByLabel('Limit price')).not.toHaveValue('');
  expect(pageErrors).toEqual([]);
});

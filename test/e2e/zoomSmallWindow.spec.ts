/**
 * Zoom and the small window (#31 item 5). At 125 % and 150 % zoom of a 1440x900 window and at 100 % of
 * the 1024x680 minimum, the Trade view's ticket (its leverage and submit), the positions table and a
 * position's Close are reachable without the page scrolling sideways; the position row shows market,
 * size, entry, mark, PnL, the liquidation estimate and TP/SL (with a trailing stop's summary), and the
 * table itself never scrolls sideways. Screenshots: `zoom-<label>.png` under test-results/screenshots/.
 *
 * Zoom is emulated, not pressed: Ctrl and + in Electron scales CSS pixels by the zoom factor, so a window
 * of 1440x900 device pixels at 125 % lays out as a 1152x720 CSS viewport whose pixels are 1.25 device
 * pixels each. A Playwright context with that viewport and deviceScaleFactor 1.25 is the same layout and
 * the same rendering (Chromium's page zoom and device scale both end in the CSS viewport and the pixel
 * ratio); a headless page cannot receive the app menu's zoom command itself.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, openApp, placeFromTicket, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { expectReachable } from './harness/viewport.js';
import { advanceUntilVisible, openPosition } from './harness/riskSteps.js';
import type { StaticServer } from './harness/staticServer.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const CASES = [
  { label: '1440x900-125pct', width: 1440 / 1.25, height: 900 / 1.25, scale: 1.25 },
  { label: '1440x900-150pct', width: 1440 / 1.5, height: 900 / 1.5, scale: 1.5 },
  { label: '1024x680', width: 1024, height: 680, scale: 1 },
  { label: '1440x900', width: 1440, height: 900, scale: 1 },
] as const;

/** A page of its own at `viewport` CSS pixels and `scale` device pixels per CSS pixel (the zoom). */
async function zoomedPage(browser: Browser, width: number, height: number, scale: number): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { page, errors, close: () => context.close() };
}

/** The page itself does not scroll sideways: nothing is wider than the window. */
async function expectNoPageSideways(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = (await page.evaluate('({ scrollWidth: document.scrollingElement.scrollWidth, clientWidth: document.scrollingElement.clientWidth })')) as { scrollWidth: number; clientWidth: number };
  expect(scrollWidth, `the page is ${scrollWidth}px wide in a ${clientWidth}px window`).toBeLessThanOrEqual(clientWidth);
}

/** Neither the table nor any box around it is wider than it shows: no sideways scroll to reach a column. */
async function expectNoSidewaysScroll(table: Locator): Promise<void> {
  const wider = await table.evaluate((node) => {
    const out: string[] = [];
    type El = { scrollWidth: number; clientWidth: number; tagName: string; className: unknown; parentElement: El | null };
    for (let n = node as unknown as El | null; n; n = n.parentElement) {
      if (n.scrollWidth > n.clientWidth + 1) out.push(`${n.tagName.toLowerCase()}.${String(n.className)} ${n.scrollWidth}px in ${n.clientWidth}px`);
    }
    return out;
  });
  expect(wider, 'boxes wider than they show (a sideways scroll)').toEqual([]);
}

async function open(browser: Browser, server: StaticServer, c: (typeof CASES)[number]) {
  const z = await zoomedPage(browser, c.width, c.height, c.scale);
  app = await openApp(z.page, server, `zoom-${c.label}`, { onboard: true });
  // openApp sets the usual 1440x900: back to this case's CSS viewport.
  await z.page.setViewportSize({ width: c.width, height: c.height });
  return z;
}

for (const c of CASES) {
  test(`the Trade view at ${c.label}: ticket, leverage, positions and Close reachable, the row whole`, async ({ browser, server }) => {
    test.setTimeout(90_000);
    const { page, errors, close } = await open(browser, server, c);
    try {
      // A 5x long (so it has a liquidation estimate) with a trailing stop (the longest TP/SL text), and a resting order.
      await app!.control('/freeze-marks', {});
      await app!.setMark('ETH', '3400');
      const row = await openPosition(page, app!, 'ETH', 'Buy', '1', 5);
      await row.getByRole('button', { name: 'ETH TP/SL: none armed' }).click();
      const tpsl = page.getByRole('dialog', { name: 'TP/SL on ETH position' });
      await tpsl.getByLabel('Trailing stop distance').fill('1%');
      await tpsl.getByRole('button', { name: 'Trail the stop' }).click();
      await advanceUntilVisible(app!, tpsl.getByRole('button', { name: 'Stop trailing' }));
      await tpsl.getByRole('button', { name: 'Cancel' }).click();
      await advanceUntilVisible(app!, row.getByRole('button', { name: 'ETH TP/SL: Trailing 1% · SL 3,366 · high 3,400' }));
      await placeFromTicket(page, 'ETH', { side: 'Sell', type: 'Limit', price: '3900', size: '0.5', tif: 'GTC' });
      await expectNoPageSideways(page);
      // The market header keeps its mark and its More button in view.
      const header = page.getByRole('region', { name: 'ETH market' });
      await expectReachable(header.getByLabel('Mark price'));
      await expectReachable(header.getByRole('button', { name: 'More' }));

      // The ticket: its leverage is in view without scrolling the ticket, and one Tab after the size.
      const ticket = page.getByRole('form', { name: 'Order ticket' });
      await ticket.getByRole('radio', { name: 'Market' }).click();
      const size = ticket.getByLabel('Size (ETH)');
      const leverage = ticket.getByLabel('Leverage');
      // Unzoomed (1024x680 and up) it is in view as the window opens; zoomed, the column scrolls to it.
      if (c.scale === 1) await expectReachable(leverage);
      await size.focus();
      await page.keyboard.press('Tab');
      await expect(leverage).toBeFocused();
      // Focused from the keyboard, it scrolls into view above the ticket's sticky submit bar, not under it.
      await expectReachable(leverage);
      await expectReachable(ticket.getByRole('button', { name: /^(Buy \/ Long|Sell \/ Short) ETH$/ }), { scroll: 'vertical' });

      // The position row: every figure a trader watches is in it, inside the table's box, no sideways scroll.
      await page.getByRole('tab', { name: /^Positions/ }).click();
      const table = page.getByRole('table', { name: 'Positions' });
      await expect(row).toContainText('LONG', { timeout: 10_000 });
      for (const header of ['Market', 'Size', 'Entry', 'Mark', 'PnL (ROE)', 'Liq. (est.)', 'TP / SL']) await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
      await expectNoSidewaysScroll(table);
      for (const cell of [row.getByRole('button', { name: 'ETH', exact: true }), row.locator('td.pos-size'), row.locator('td.pos-entry'), row.locator('td.pos-mark'), row.getByLabel('Unrealized PnL'), row.getByLabel('Liquidation price (estimate)'), row.getByRole('button', { name: /^ETH TP\/SL: / }), row.getByTestId('trailing-stop')]) {
        await expectReachable(cell, { scroll: 'vertical' });
      }
      await expectReachable(row.getByRole('button', { name: 'Close ETH position' }), { scroll: 'vertical' });
      await expect(row.getByLabel('Liquidation price (estimate)')).toContainText(/\d/);
      await expect(row.getByTestId('trailing-stop')).toContainText('Trailing 1% · SL 3,366');
      await expectNoPageSideways(page);
      await screenshot(page, `zoom-${c.label}`);

      // A focused dialog at this size: the close dialog opened from the keyboard, its first field focused.
      await row.getByRole('button', { name: 'Close ETH position' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Close ETH position' });
      await expect(dialog).toBeVisible();
      await expectReachable(dialog.getByRole('button', { name: 'Close position' }), { scroll: 'vertical' });
      await screenshot(page, `zoom-${c.label}-dialog`);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(row.getByRole('button', { name: 'Close ETH position' })).toBeFocused();
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
}

/**
 * Steps shared by the risk and position-management scenarios: a market order from the ticket at a given
 * leverage, waiting for something while simulated time moves (orders fill, triggers arm and positions
 * change only as the simulator's clock advances), the row of a position, and screenshots of a screen at
 * both window sizes the app is checked at (1440x900 and 1024x680).
 */
import type { Locator, Page } from '@playwright/test';
import { groupDigits } from '../../../src/main/services/positions/positionTpsl.js';
import { liquidationForDisplay } from '../../../src/shared/protocol/riskMath.js';
import type { E2eApp } from './appHarness.js';
import { expect, screenshot } from './fixtures.js';

/** Selects `market`, fills a market order at `leverage` and opens its review (not yet placed). */
export async function reviewMarketOrder(page: Page, market: string, side: 'Buy' | 'Sell', size: string, leverage: number): Promise<Locator> {
  await page.getByRole('option', { name: new RegExp(`^${market} `) }).click();
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: side }).click();
  await ticket.getByRole('radio', { name: 'Market' }).click();
  await ticket.getByLabel(`Size (${market})`).fill(size);
  await ticket.getByLabel('Leverage').fill(String(leverage));
  await ticket.getByRole('button', { name: new RegExp(`^(Buy / Long|Sell / Short) ${market}$`) }).click();
  const review = page.getByRole('dialog', { name: `Review order · ${market}` });
  await expect(review).toBeVisible();
  return review;
}

/** Places a market order from the ticket at `leverage` and waits until the position row shows it. */
export async function openPosition(page: Page, app: E2eApp, market: string, side: 'Buy' | 'Sell', size: string, leverage = 1): Promise<Locator> {
  const review = await reviewMarketOrder(page, market, side, size, leverage);
  await review.getByRole('button', { name: 'Sign and place' }).click();
  await expect(review).toBeHidden();
  await app.advance(1_000);
  await page.getByRole('tab', { name: 'Positions' }).click();
  const row = page.getByRole('row', { name: `${market} position` });
  await expect(row).toContainText(side === 'Buy' ? 'LONG' : 'SHORT', { timeout: 10_000 });
  return row;
}

/** Moves simulated time in small steps until `locator` is visible (an action waiting on fills, arming, positions). */
export async function advanceUntilVisible(app: E2eApp, locator: Locator, timeoutMs = 30_000): Promise<void> {
  await expect
    .poll(
      async () => {
        await app.advance(300);
        return locator.isVisible();
      },
      { timeout: timeoutMs, intervals: [200] },
    )
    .toBe(true);
}

/** The same screen at 1440x900 and at 1024x680 (`<name>-1440x900.png`, `<name>-1024x680.png`); the window is 1440x900 again after. */
export async function screenshotBothSizes(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, `${name}-1440x900`);
  await page.setViewportSize({ width: 1024, height: 680 });
  // One frame for the layout's container queries to settle at the new width.
  await page.evaluate(() => new Promise((r) => (globalThis as unknown as { requestAnimationFrame: (cb: () => void) => void }).requestAnimationFrame(() => r(null))));
  await screenshot(page, `${name}-1024x680`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** A price as the screens group it ("3,016.4"). */
export function grouped(value: string): string {
  return groupDigits(value);
}

/** The liquidation estimate as the screens show it: rounded toward the mark to `places`, grouped. */
export function liqShown(size: string, liquidation: string, places: number): string {
  return groupDigits(liquidationForDisplay(size, liquidation, places).toFixed(places));
}

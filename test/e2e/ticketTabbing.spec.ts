/**
 * Tabbing down the order ticket keeps its head in view (issue 35): at 1024x680 the trading column scrolls as
 * the focus moves down a limit ticket (with a bracket, so it is longer than the column), and the side
 * toggle and the order-type row stick to the top of the column instead of scrolling away. After every Tab
 * the focused control is in the window and not covered (by the sticky head above it or the sticky submit
 * bar below it), and every Buy/Sell and order-type radio is in the window, uncut and uncovered.
 * Screenshots: ticket-tabbing-1440x900.png, ticket-tabbing-1024x680.png (the last field focused).
 */
import type { Page } from '@playwright/test';
import type { E2eApp } from './harness/appHarness.js';
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import { expectReachable } from './harness/viewport.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 680 },
] as const;
const SIDES = ['Buy', 'Sell'];
const TYPES = ['Market', 'Limit', 'Trigger', 'Scale', 'TWAP'];

async function setSize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((r) => (globalThis as unknown as { requestAnimationFrame: (cb: () => void) => void }).requestAnimationFrame(() => r(null))));
}

interface Focused {
  inTicket: boolean;
  label: string;
}

test('tabbing down a limit ticket keeps the side and type rows in view at 1440x900 and 1024x680', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'ticket-tabbing', { onboard: true });
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  const column = page.getByRole('complementary', { name: 'Trading' });
  for (const size of SIZES) {
    const tag = `${size.width}x${size.height}`;
    await setSize(page, size);
    await column.evaluate((el) => {
      el.scrollTop = 0;
    });
    await ticket.getByRole('radio', { name: 'Limit', exact: true }).click();
    const bracket = ticket.getByLabel('Attach take-profit / stop-loss');
    if (!(await bracket.isChecked())) await bracket.check();
    // From the side toggle down, one Tab at a time, until the focus leaves the ticket.
    await ticket.getByRole('radio', { name: 'Buy', exact: true }).focus();
    let maxScroll = 0;
    const seen: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate((): Focused => {
        const d = (globalThis as unknown as { document: { activeElement: { closest(s: string): unknown; getAttribute(n: string): string | null; tagName: string; textContent: string | null; id: string } | null } }).document;
        const el = d.activeElement;
        if (!el) return { inTicket: false, label: '' };
        return { inTicket: el.closest('form[aria-label="Order ticket"]') !== null, label: el.getAttribute('aria-label') ?? el.id ?? `${el.tagName} ${el.textContent ?? ''}` };
      });
      if (!focused.inTicket) break;
      seen.push(focused.label);
      await expectReachable(page.locator(':focus'));
      for (const side of SIDES) await expectReachable(ticket.getByRole('radio', { name: side, exact: true }));
      for (const type of TYPES) await expectReachable(ticket.getByRole('radio', { name: type, exact: true }));
      maxScroll = Math.max(maxScroll, await column.evaluate((el) => el.scrollTop));
    }
    // The walk went through the ticket's fields down to its submit button.
    expect(seen.length, `fields tabbed through at ${tag}: ${seen.join(', ')}`).toBeGreaterThan(6);
    await expect(ticket.getByRole('button', { name: /^Buy \/ Long / })).toBeVisible();
    if (size.height < 700) expect(maxScroll, `the trading column scrolled while tabbing at ${tag}`).toBeGreaterThan(0);
    // The last field of the ticket focused, as the trader sees it.
    await ticket.getByRole('button', { name: /^Buy \/ Long / }).focus();
    await screenshot(page, `ticket-tabbing-${tag}`);
  }
  expect(pageErrors).toEqual([]);
});

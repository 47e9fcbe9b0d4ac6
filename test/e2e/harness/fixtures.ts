/**
 * Shared set-up of the scenario specs: the built renderer served on loopback, one E2eApp per test, page
 * errors collected (a scenario fails on any uncaught error in the page), and screenshots of main views
 * saved under test-results/screenshots/.
 */
import path from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import { REPO_ROOT } from '../../support/paths.js';
import { E2eApp, type StartOptions } from './appHarness.js';
import { serveRenderer, type StaticServer } from './staticServer.js';

export const SCREENSHOTS = path.join(REPO_ROOT, 'test-results/screenshots');

interface Fixtures {
  pageErrors: string[];
}
interface WorkerFixtures {
  server: StaticServer;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  // One server per worker, closed after the worker's pages are gone (an open page keeps its connection
  // alive, and closing the server under it would wait for that connection).
  server: [
    // Playwright reads a fixture's dependencies from its destructuring pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await serveRenderer(path.join(REPO_ROOT, 'out/renderer'));
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  pageErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    await use(errors);
  },
});

export { expect };

/** Starts the app core for a test, attaches it to the page and opens the renderer. */
export async function openApp(page: Page, server: StaticServer, label: string, options: StartOptions & { onboard?: boolean } = {}): Promise<E2eApp> {
  const app = await E2eApp.start(label, options);
  await app.attach(page, server.origin);
  if (options.onboard) {
    await app.onboard();
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(server.origin + '/index.html');
  return app;
}

/**
 * Goes to a view by its shortcut (Ctrl+2 is History) as a trader would, and waits until the top bar says
 * it is the current page. The shortcuts are installed once the terminal is shown: a key pressed while the
 * page still loads is lost (CI lost a Ctrl+2 pressed under a second after page.goto), so the main
 * navigation is waited for first.
 */
export async function goToViewByKey(page: Page, key: string, view: string): Promise<void> {
  const current = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: view, exact: true });
  await expect(current).toBeVisible({ timeout: 20_000 });
  // The listener is installed by an effect just after the terminal's first paint, so a press in that
  // frame may still be lost: pressed again until the view changes (going to a view twice is harmless).
  await expect(async () => {
    await page.keyboard.press(key);
    await expect(current).toHaveAttribute('aria-current', 'page', { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}

export async function screenshot(page: Page, view: string): Promise<void> {
  // Animations are finished first, so a dialog is captured as the user sees it once it has opened.
  await page.screenshot({ path: path.join(SCREENSHOTS, `${view}.png`), animations: 'disabled' });
}

export interface TicketOrder {
  side: 'Buy' | 'Sell';
  type: 'Market' | 'Limit' | 'Trigger';
  size?: string;
  price?: string;
  tif?: 'GTC' | 'IOC' | 'Post-only (ALO)';
  trigger?: { kind: 'Take profit' | 'Stop loss'; price: string; wholePosition?: boolean };
}

/** Fills the order ticket for the selected market, previews, signs and places; returns the review dialog. */
export async function placeFromTicket(page: Page, market: string, order: TicketOrder): Promise<void> {
  await page.getByRole('option', { name: new RegExp(`^${market} `) }).click();
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: order.side }).click();
  await ticket.getByRole('radio', { name: order.type }).click();
  if (order.trigger) {
    await ticket.getByRole('radio', { name: order.trigger.kind }).click();
    await ticket.getByLabel('Trigger price').fill(order.trigger.price);
    if (order.trigger.wholePosition) await ticket.getByLabel('Close the whole position when it fires (size 0)').check();
  }
  if (order.price !== undefined) await ticket.getByLabel('Limit price').fill(order.price);
  if (order.tif) await ticket.getByRole('radio', { name: order.tif }).click();
  if (order.size !== undefined) await ticket.getByLabel(`Size (${market})`).fill(order.size);
  await ticket.getByRole('button', { name: new RegExp(`^(Buy / Long|Sell / Short) ${market}$`) }).click();
  const review = page.getByRole('dialog', { name: `Review order · ${market}` });
  await expect(review).toBeVisible();
  await review.getByRole('button', { name: 'Sign and place' }).click();
}

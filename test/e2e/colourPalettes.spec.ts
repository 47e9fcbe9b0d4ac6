/**
 * Colour is never the only signal (issue 31, item 4): buy/sell and profit/loss carry a word, a sign or a
 * shape wherever they are shown (positions, open orders, the book's sides, the trades tape, fills,
 * portfolio PnL); Settings → Colours switches to the colour-blind-safe palette (blue/orange) or the
 * high-contrast one, stored in the settings file, applied to the whole window and to the chart's candles;
 * reduced motion (the system setting) stops every transition and animation. Screenshots of both palettes
 * at 1440x900 and 1024x680 go to test-results/screenshots/ (`palette-<name>-<size>.png`).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, openApp, placeFromTicket, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

/** The terminal with an ETH long (one fill) and a resting ETH sell limit. */
async function tradingDay(page: Page, server: Parameters<typeof openApp>[1], label: string): Promise<E2eApp> {
  const a = await openApp(page, server, label, { onboard: true });
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Market', size: '1' });
  await placeFromTicket(page, 'ETH', { side: 'Sell', type: 'Limit', price: '3900', size: '0.5', tif: 'GTC' });
  await a.advance(1_000);
  await page.getByRole('tab', { name: 'Positions' }).click();
  await expect(page.getByRole('row', { name: 'ETH position' })).toContainText('LONG', { timeout: 10_000 });
  return a;
}

/** Pixels of the chart's canvases painted exactly in each colour (#rrggbb): the candles' bodies and the order lines. */
async function chartPixels(chart: Locator, colours: string[]): Promise<Record<string, number>> {
  return chart.evaluate((el, wanted) => {
    const counts: Record<string, number> = Object.fromEntries(wanted.map((c) => [c, 0]));
    const rgb = wanted.map((c) => [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)] as const);
    type Canvas = { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null };
    for (const canvas of Array.from((el as unknown as { querySelectorAll(q: string): ArrayLike<Canvas> }).querySelectorAll('canvas'))) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (!data) continue;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] !== 255) continue;
        rgb.forEach(([r, g, b], k) => {
          if (data[i] === r && data[i + 1] === g && data[i + 2] === b) counts[wanted[k]!]!++;
        });
      }
    }
    return counts;
  }, colours);
}

/** The chart's canvas shows the `shown` colours (its candles, its order lines) and none of the `gone` ones. */
async function expectChartIn(chart: Locator, shown: string[], gone: string[]): Promise<void> {
  await expect
    .poll(async () => {
      const px = await chartPixels(chart, [...shown, ...gone]);
      return shown.some((c) => px[c]! > 0) && gone.every((c) => px[c] === 0);
    }, { timeout: 10_000 })
    .toBe(true);
}

/** Saves the form that holds the Colours choice (Settings has a Save button per section). */
async function saveColours(page: Page): Promise<void> {
  await page.locator('form').filter({ has: page.getByLabel('Colours') }).getByRole('button', { name: 'Save', exact: true }).click();
}

/** The computed value of a custom property on the root (the palette in force). */
const rootVar = (page: Page, name: string) => page.evaluate((n) => (globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(p: string): string }; document: { documentElement: unknown } }).getComputedStyle((globalThis as unknown as { document: { documentElement: unknown } }).document.documentElement).getPropertyValue(n).trim(), name);

test('buy/sell and profit/loss carry a word, a sign or a shape everywhere, not colour alone', async ({ page, server, pageErrors }) => {
  app = await tradingDay(page, server, 'colour-signals');
  // Positions: the side in words, the PnL with its sign.
  const position = page.getByRole('row', { name: 'ETH position' });
  await expect(position).toContainText('LONG');
  await expect(position.getByLabel('Unrealized PnL')).toHaveText(/^([+-]\$[\d,.]+|\$0\.00) \([+-]?[\d.]+%\)$/);
  // Open orders: the side in words.
  await page.getByRole('tab', { name: 'Open orders' }).click();
  await expect(page.getByRole('table', { name: 'Open orders' }).getByRole('row', { name: /ETH Limit sell/ }).getByRole('cell', { name: 'Sell', exact: true })).toBeVisible({ timeout: 10_000 });
  // The book's sides are named on screen, with a shape: asks above the spread, bids below.
  const book = page.getByRole('region', { name: 'ETH order book' });
  await expect(book.locator('.book-side-ask')).toHaveText('▲ Asks');
  await expect(book.locator('.book-side-bid')).toHaveText('▼ Bids');
  // The tape: every trade's row shows ▲ for a buy and ▼ for a sell beside its colour.
  const tape = page.getByRole('region', { name: 'ETH trades' }).getByRole('list', { name: 'Latest trades' }).getByRole('listitem');
  await expect
    .poll(async () => {
      await app!.advance(1_000);
      return tape.count();
    }, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(3);
  const rows = await tape.evaluateAll((els) => els.map((e) => ({ name: e.getAttribute('aria-label') ?? '', shown: (e as unknown as { innerText: string }).innerText.trim() })));
  for (const r of rows) expect(r.shown.startsWith(r.name.startsWith('Buy') ? '▲' : '▼'), `${r.name} shows ${r.shown}`).toBe(true);
  // Fills: the direction in words, the closed PnL signed.
  await page.getByRole('tab', { name: 'Fills' }).click();
  await expect(page.getByRole('table').filter({ hasText: 'Open Long' }).first()).toBeVisible({ timeout: 10_000 });
  // Portfolio: PnL cards carry their sign.
  await nav(page, 'Portfolio');
  await expect(page.getByRole('status').filter({ hasText: 'Ledger balanced' })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.portfolio-card').filter({ hasText: 'Realized PnL' }).first()).toContainText(/[+-]\$|\$0\.00/);
  expect(pageErrors).toEqual([]);
});

test('Settings → Colours: the colour-blind-safe and high-contrast palettes, stored, on the whole window and the chart', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await tradingDay(page, server, 'palettes');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-palette', 'default');
  // The selected market's chart (ETH now; the first market after the reload below).
  const chart = page.getByRole('figure', { name: / price chart$/ });
  const defaultUp = await rootVar(page, '--buy');
  const defaultDown = await rootVar(page, '--sell');
  await expect.poll(async () => Object.values(await chartPixels(chart, [defaultUp, defaultDown])).reduce((a, b) => a + b, 0), { timeout: 10_000 }).toBeGreaterThan(0);

  // The colour-blind-safe palette, chosen and saved in Settings.
  await nav(page, 'Settings');
  await page.getByLabel('Colours').selectOption('colour-blind');
  await saveColours(page);
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
  await expect(html).toHaveAttribute('data-palette', 'colour-blind');
  expect((await app.call('settings:get', {})).palette).toBe('colour-blind');
  // Buy is blue and sell orange, in the tables' text and the ticket's buttons alike.
  const up = await rootVar(page, '--buy');
  const down = await rootVar(page, '--sell');
  expect([up, down]).toEqual(['#56b4e9', '#f0a020']);
  await nav(page, 'Trade');
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Buy' }).click();
  await expect(ticket.getByRole('button', { name: /^Buy \/ Long ETH$/ })).toHaveCSS('background-color', 'rgb(86, 180, 233)');
  await ticket.getByRole('radio', { name: 'Sell' }).click();
  await expect(ticket.getByRole('button', { name: /^Sell \/ Short ETH$/ })).toHaveCSS('background-color', 'rgb(240, 160, 32)');
  // The chart's candles follow: blue and orange, and no green or red left.
  await expectChartIn(chart, [up, down], [defaultUp, defaultDown]);
  await screenshotBothSizes(page, 'palette-colour-blind');
  // Kept for the next start (read from the settings file, as the command line reads it too).
  await page.reload();
  await expect(html).toHaveAttribute('data-palette', 'colour-blind');
  // The chart drawn as the window opens (before the stored palette is read) takes it up once it is.
  await expectChartIn(chart, [up, down], [defaultUp, defaultDown]);

  // High contrast: near-white text on black, and a stronger focus ring.
  await nav(page, 'Settings');
  await page.getByLabel('Colours').selectOption('high-contrast');
  await saveColours(page);
  await expect(html).toHaveAttribute('data-palette', 'high-contrast');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(0, 0, 0)');
  await expect(page.locator('body')).toHaveCSS('color', 'rgb(244, 246, 249)');
  await nav(page, 'Trade');
  const [hcUp, hcDown] = [await rootVar(page, '--buy'), await rootVar(page, '--sell')];
  await expectChartIn(chart, [hcUp, hcDown], [up, down]);
  await screenshotBothSizes(page, 'palette-high-contrast');
  expect(pageErrors).toEqual([]);
});

test('reduced motion: no transition or animation anywhere once the system asks for it', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'reduced-motion', { onboard: true });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  const button = page.getByRole('button', { name: 'Assistant' });
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const motion = async () => ({
    button: await button.evaluate((e) => (globalThis as unknown as { getComputedStyle(e: unknown): { transitionDuration: string } }).getComputedStyle(e).transitionDuration),
    dialog: await sheet.evaluate((e) => {
      const s = (globalThis as unknown as { getComputedStyle(e: unknown): { animationName: string; animationDuration: string } }).getComputedStyle(e);
      return `${s.animationName} ${s.animationDuration}`;
    }),
  });
  // As it is by default: buttons ease their colours, a dialog pops in.
  await page.locator('body').press('?');
  await expect(sheet).toBeVisible();
  expect(await motion()).toEqual({ button: '0.12s, 0.12s, 0.12s', dialog: 'pop 0.14s' });
  await page.keyboard.press('Escape');

  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.locator('body').press('?');
  await expect(sheet).toBeVisible();
  expect(await motion()).toEqual({ button: '0s', dialog: 'none 0s' });
  // Loading placeholders stand still too.
  const still = await page.evaluate(() => {
    const g = globalThis as unknown as { document: { createElement(t: string): { className: string; remove(): void }; body: { append(e: unknown): void } }; getComputedStyle(e: unknown): { animationName: string } };
    return ['spinner', 'skeleton'].map((c) => {
      const el = g.document.createElement('span');
      el.className = c;
      g.document.body.append(el);
      const name = g.getComputedStyle(el).animationName;
      el.remove();
      return name;
    });
  });
  expect(still).toEqual(['none', 'none']);
  expect(pageErrors).toEqual([]);
});

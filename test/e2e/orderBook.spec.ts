/**
 * The order book beside the chart: the selected market's asks above its bids, live from the venue's
 * feed; the venue's grouping; a level clicked into the ticket as a Limit price; another market's book
 * once that market is chosen; the book as a tab in the smallest window. And the offline (QR) signer's
 * identity in Settings: a bad fingerprint refused next to its field, a good one kept.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { emit } from './harness/preloadBridge.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

/** A level's price as its name says it ("Ask 3,012.50 0.5 12.1": side, price, size, total → 3012.50), without grouping separators. */
function priceOf(label: string | null): string {
  const m = /^(?:Ask|Bid) ([\d,.]+) /.exec(label ?? '');
  if (!m?.[1]) throw new Error(`not a book level: ${label}`);
  return m[1].replace(/,/g, '');
}

async function levelPrice(level: Locator): Promise<string> {
  return priceOf(await level.getAttribute('aria-label'));
}

/** Decimal text compared by value: "3012.50" and "3012.5" are the same price. */
function sameDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** Every level's price, read in one go (the book may redraw between two reads). */
async function prices(levels: Locator): Promise<string[]> {
  return (await levels.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).map(priceOf);
}

function sides(page: Page, market: string): { book: Locator; asks: Locator; bids: Locator } {
  const book = page.getByRole('region', { name: `${market} order book` });
  return { book, asks: book.getByRole('list', { name: 'Asks' }).getByRole('button'), bids: book.getByRole('list', { name: 'Bids' }).getByRole('button') };
}

test('the order book: asks over bids, grouping, a level into the ticket, another market', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'book', { onboard: true });
  await page.getByRole('option', { name: /^ETH / }).click();
  const { book, asks, bids } = sides(page, 'ETH');
  await expect(asks.first()).toBeVisible({ timeout: 10_000 });
  await expect(bids.first()).toBeVisible();
  expect(await asks.count()).toBeGreaterThanOrEqual(5);
  expect(await bids.count()).toBeGreaterThanOrEqual(5);
  // Asks above the spread, the best one lowest; bids below it, the best one highest.
  const bestAsk = (await asks.first().boundingBox())!;
  const nextAsk = (await asks.nth(1).boundingBox())!;
  const bestBid = (await bids.first().boundingBox())!;
  const nextBid = (await bids.nth(1).boundingBox())!;
  expect(nextAsk.y).toBeLessThan(bestAsk.y);
  expect(bestAsk.y + bestAsk.height).toBeLessThanOrEqual(bestBid.y);
  expect(nextBid.y).toBeGreaterThan(bestBid.y);
  const askPrices = (await prices(asks)).map(Number);
  const bidPrices = (await prices(bids)).map(Number);
  expect(askPrices[0]!).toBeGreaterThan(bidPrices[0]!);
  expect([...askPrices].sort((a, b) => a - b)).toEqual(askPrices);
  expect([...bidPrices].sort((a, b) => b - a)).toEqual(bidPrices);
  // The spread row sits between them.
  await expect(book.getByLabel('Spread', { exact: true })).toHaveText(/^\d[\d,.]*$/);
  await expect(book.getByLabel('Spread, % of mid')).toHaveText(/^\d+\.\d{3}%$/);
  // The feed is the venue's live one.
  await expect(book.getByRole('img', { name: /^Live/ })).toBeVisible();
  await screenshot(page, 'order-book');

  // Live: the book follows the venue when the mark moves.
  const mark = Number(await app.mark('ETH'));
  const moved = Math.round(mark + 40);
  await app.setMark('ETH', String(moved));
  await expect.poll(async () => Math.abs(Number(await levelPrice(asks.first())) - moved), { timeout: 10_000 }).toBeLessThan(5);

  // Grouping: 3 significant figures of a four-digit price are buckets of 10.
  const full = await prices(asks);
  await book.getByLabel('Grouping').selectOption('3');
  await expect.poll(async () => (await prices(asks)).join(' '), { timeout: 10_000 }).not.toBe(full.join(' '));
  const grouped = (await prices(bids)).concat(await prices(asks)).map(Number);
  for (const p of grouped) expect(p % 10).toBe(0);
  await screenshot(page, 'order-book-grouped');
  await book.getByLabel('Grouping').selectOption('full');
  await expect.poll(async () => (await prices(asks)).every((p) => Number(p) % 10 === 0), { timeout: 10_000 }).toBe(false);

  // A level clicked: its price becomes the ticket's Limit price, even from a trigger ticket.
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Trigger' }).click();
  await expect(ticket.getByLabel('Limit price')).toBeHidden();
  const level = asks.nth(2);
  const price = await levelPrice(level);
  await level.click();
  await expect(ticket.getByRole('radio', { name: 'Limit' })).toHaveAttribute('aria-checked', 'true');
  await expect.poll(async () => sameDecimal(await ticket.getByLabel('Limit price').inputValue())).toBe(sameDecimal(price));
  await expect(ticket.getByText('Not a multiple of the tick size')).toBeHidden();

  // Another market: its own book, at its own prices.
  await page.getByRole('option', { name: /^BTC / }).click();
  const btc = sides(page, 'BTC');
  await expect(btc.asks.first()).toBeVisible({ timeout: 10_000 });
  await expect(book).toBeHidden();
  const btcMark = Number(await app.mark('BTC'));
  const btcAsk = Number(await levelPrice(btc.asks.first()));
  const btcBid = Number(await levelPrice(btc.bids.first()));
  expect(Math.abs(btcAsk - btcMark) / btcMark).toBeLessThan(0.01);
  expect(btcBid).toBeLessThan(btcAsk);
  // A late book of the previous market (one still on its way when the market changed) is not drawn.
  // Every level label the BTC book ever shows is recorded from here on; the late ETH book is delivered,
  // then the simulator's clock moves the BTC book on and the check waits for two more redraws of it
  // (deliveries after the late one, so the page has acted on it and drawn since) and asks whether ETH's
  // prices ever showed.
  await btc.book.evaluate((el) => {
    // In the page: DOM types are not in this file's (Node) lib, so the page's globals are named here.
    interface PageGlobals {
      __bookLabels: string[];
      __bookRedraws: number;
      MutationObserver: new (cb: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };
    }
    const w = globalThis as unknown as PageGlobals;
    const root = el as unknown as { querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }> };
    w.__bookLabels = [];
    w.__bookRedraws = 0;
    new w.MutationObserver(() => {
      w.__bookRedraws += 1;
      for (const b of root.querySelectorAll('[aria-label]')) w.__bookLabels.push(b.getAttribute('aria-label') ?? '');
    }).observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const redraws = () => page.evaluate(() => (globalThis as unknown as { __bookRedraws: number }).__bookRedraws);
  await emit(page, 'event:book', { market: 'ETH', n_sig_figs: null, bids: [{ price: '1', size: '1', orders: 1 }], asks: [{ price: '2', size: '1', orders: 1 }], at: Date.now() + 60_000 });
  const redrawsAt = await redraws();
  await expect
    .poll(async () => {
      await app!.advance(1_000);
      return redraws();
    }, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(redrawsAt + 2);
  const shown = await page.evaluate(() => (globalThis as unknown as { __bookLabels: string[] }).__bookLabels);
  expect(shown.filter((l) => /^(Ask|Bid) [12] /.test(l))).toEqual([]);
  expect((await prices(btc.asks)).every((p) => Math.abs(Number(p) - btcMark) / btcMark < 0.01)).toBe(true);
  await screenshot(page, 'order-book-btc');

  // The smallest window: the chart and the book share the space as tabs.
  await page.setViewportSize({ width: 1024, height: 680 });
  const tabs = page.getByRole('tablist', { name: 'Chart and order book' });
  await expect(tabs).toBeVisible();
  await expect(page.getByRole('figure', { name: 'BTC price chart' })).toBeVisible();
  await tabs.getByRole('tab', { name: 'Order book' }).click();
  await expect(btc.asks.first()).toBeVisible({ timeout: 10_000 });
  await expect(btc.bids.first()).toBeVisible();
  const small = (await btc.book.boundingBox())!;
  const lastBid = (await btc.bids.last().boundingBox())!;
  expect(lastBid.y + lastBid.height).toBeLessThanOrEqual(small.y + small.height + 0.5);
  await screenshot(page, 'order-book-narrow');
  await tabs.getByRole('tab', { name: 'Chart' }).click();
  await expect(page.getByRole('figure', { name: 'BTC price chart' })).toBeVisible();
  await expect(btc.book).toBeHidden();
  expect(pageErrors).toEqual([]);
});

test('the offline signer identity: a bad fingerprint is refused at its field, a good one is kept', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'airgap', { onboard: true });
  await nav(page, 'Settings');
  const form = page.getByRole('form', { name: 'Offline signer' });
  await expect(form.getByLabel('Derivation path')).toHaveValue("m/44'/60'/0'/0/0");
  await expect(form.getByLabel('Master fingerprint')).toHaveValue('');
  await expect(form.getByRole('button', { name: 'Clear fingerprint' })).toBeDisabled();

  // Not 8 hex characters: main refuses, the message stands under the field, nothing is stored.
  const fingerprint = form.getByLabel('Master fingerprint');
  await fingerprint.fill('12zz');
  await form.getByRole('button', { name: 'Set offline signer' }).click();
  await expect(fingerprint).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('alert')).toHaveText('expected the master fingerprint: 8 hex characters');
  expect((await app.call('settings:getAirgap', {})).fingerprint).toBeNull();
  // A path that is not an Ethereum account's is refused under its own field.
  await fingerprint.fill('');
  await form.getByLabel('Derivation path').fill("m/44'/0'/0'/0/0");
  await form.getByRole('button', { name: 'Set offline signer' }).click();
  await expect(form.getByLabel('Derivation path')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('alert')).toContainText('not an Ethereum derivation path');
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-offline-signer-error');

  // A good fingerprint and path: saved, and still there when the view is opened again and after a reload.
  await fingerprint.fill('1A2B3C4D');
  await expect(fingerprint).not.toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Derivation path').fill("m/44'/60'/1'/0/0");
  await form.getByRole('button', { name: 'Set offline signer' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Offline signer saved' })).toBeVisible();
  expect(await app.call('settings:getAirgap', {})).toEqual({ fingerprint: '1a2b3c4d', path: "m/44'/60'/1'/0/0" });
  await nav(page, 'Trade');
  await nav(page, 'Settings');
  await expect(form.getByLabel('Master fingerprint')).toHaveValue('1a2b3c4d');
  await expect(form.getByLabel('Derivation path')).toHaveValue("m/44'/60'/1'/0/0");
  await page.reload();
  await nav(page, 'Settings');
  await expect(form.getByLabel('Master fingerprint')).toHaveValue('1a2b3c4d', { timeout: 10_000 });
  await expect(form.getByLabel('Derivation path')).toHaveValue("m/44'/60'/1'/0/0");
  await expect(form.getByRole('button', { name: 'Clear fingerprint' })).toBeEnabled();
  await form.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-offline-signer');

  // Cleared: no QR code any more.
  await form.getByRole('button', { name: 'Clear fingerprint' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Master fingerprint cleared' })).toBeVisible();
  await expect(form.getByLabel('Master fingerprint')).toHaveValue('');
  expect(await app.call('settings:getAirgap', {})).toEqual({ fingerprint: null, path: "m/44'/60'/1'/0/0" });
  expect(pageErrors).toEqual([]);
});

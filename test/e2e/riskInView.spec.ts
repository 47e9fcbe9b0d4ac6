/**
 * Risk in view (issue 35, item 4), as a trader sees the Trade view with a position open and the Portfolio:
 *  - the top bar shows equity, unrealized PnL and free margin, each with a visible label, at 1440x900 and
 *    at 1024x680, with the trading key's remaining life labelled, and all nine views still in the bar;
 *  - the Account card's top rows (equity, unrealized PnL) are in view at 1440x900, also once the trading
 *    column has scrolled down the ticket;
 *  - at 1024x680 the ticket's side, type and leverage are in view, and no account-table tab is cut off
 *    (shorter visible labels keep their full accessible names);
 *  - the position row shows its liquidation distance in %;
 *  - a whole-position trigger reads "whole position" and an armed one "Armed"/"armed" in the open orders,
 *    triggers, activity and history tables, never "0" or "SUBMITTED";
 *  - a bracket added to a position reviews its whole-position leg on the position after the entry;
 *  - Ctrl+digit follows the top bar's order;
 *  - Portfolio: no value tag on the charts' price scales (they covered its labels), and a balanced ledger
 *    is a small status in the title row, not a banner.
 * Screenshots: trade-position-{1440x900,1024x680}.png, portfolio-risk-{1440x900,1024x680}.png.
 */
import type { Locator, Page } from '@playwright/test';
import { Decimal } from '../../src/shared/decimal/index.js';
import type { E2eApp } from './harness/appHarness.js';
import { expect, openApp, placeFromTicket, screenshot, test } from './harness/fixtures.js';
import { grouped, openPosition } from './harness/riskSteps.js';
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
const VIEWS = ['Trade', 'History', 'Portfolio', 'Withdraw', 'Bridge', 'Swap', 'Points', 'Keys', 'Settings'];

/** USD as the screens show it ("$1,234.57", "+$52.80" when signed). */
function usd(value: string | null, signed = false): string {
  if (value === null) return '—';
  const d = new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return `${d.isNeg() ? '-' : signed && d.gt(0) ? '+' : ''}$${grouped(d.abs().toFixed(2))}`;
}

async function setSize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  // One frame for the layout's container queries to settle at the new width.
  await page.evaluate(() => new Promise((r) => (globalThis as unknown as { requestAnimationFrame: (cb: () => void) => void }).requestAnimationFrame(() => r(null))));
}

/** A figure's term as shown (its visible text), and the figure itself. */
function headerFigure(page: Page, name: string): { term: Locator; value: Locator } {
  const group = page.getByRole('group', { name: 'Account at a glance' });
  const value = group.getByLabel(name, { exact: true });
  return { value, term: group.locator('.topbar-stat', { has: page.getByLabel(name, { exact: true }) }).locator('dt') };
}

/** Moves the ETH mark by `factor` and lets main re-price (positions, account health). */
async function nudgeEth(a: E2eApp, factor: string): Promise<void> {
  await a.setMark('ETH', new Decimal(await a.mark('ETH')).mul(factor).toDecimalPlaces(1).toFixed(1));
  await a.advance(1_000);
}

test('the trade view with a position: equity, PnL, free margin, the ticket and the tables in view at both sizes', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'risk-view', { onboard: true });
  const row = await openPosition(page, app, 'ETH', 'Buy', '1.5', 5);
  await nudgeEth(app, '1.01');

  // The header's figures are main's account health (the same read as the Account card), PnL up in green.
  await expect
    .poll(async () => {
      const h = await app!.call('account:health', {});
      const shown = await Promise.all(['Equity', 'Unrealized PnL', 'Free margin'].map((n) => headerFigure(page, n).value.textContent()));
      return shown.join(' | ') === [usd(h.equity), usd(h.unrealized_pnl, true), usd(h.withdrawable)].join(' | ') && new Decimal(h.unrealized_pnl ?? '0').gt(0);
    })
    .toBe(true);
  await expect(headerFigure(page, 'Unrealized PnL').value).toHaveClass(/buy/);

  const ticket = page.getByRole('form', { name: 'Order ticket' });
  const account = page.getByRole('region', { name: 'Account', exact: true });
  const tabs = page.getByRole('tablist', { name: 'Account tables' });
  for (const size of SIZES) {
    const tag = `${size.width}x${size.height}`;
    await setSize(page, size);
    await page.getByRole('tab', { name: /^Positions/ }).click();
    // Every figure of the header with its label, inside the window, not cut off or covered; the nine views too.
    const narrow = size.width < 1600;
    for (const [name, label] of [
      ['Equity', 'Equity'],
      ['Unrealized PnL', narrow ? 'uPnL' : 'Unrealized PnL'],
      ['Free margin', narrow ? 'Free' : 'Free margin'],
    ] as const) {
      const f = headerFigure(page, name);
      await expectReachable(f.value);
      await expectReachable(f.term);
      await expect(f.term).toHaveText(new RegExp(`^${label}$`, 'i'), { useInnerText: true });
    }
    const key = page.getByRole('button', { name: /^Key expires in \d+d \d+h$/ });
    await expectReachable(key);
    // Its label on screen: "Key" above the time when narrow, "Key expires in" when wide.
    await expectReachable(key.locator(narrow ? '.label-short' : '.label-long'));
    await expect(key.locator(narrow ? '.label-long' : '.label-short')).toBeHidden();
    for (const view of VIEWS) await expectReachable(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: view, exact: true }));

    // The Account card's top rows, and the ticket's side, type and leverage, without scrolling anything.
    await expectReachable(account.getByLabel('Equity (computed)'));
    await expectReachable(account.getByLabel('Unrealized PnL'));
    for (const side of ['Buy', 'Sell']) await expectReachable(ticket.getByRole('radio', { name: side, exact: true }));
    for (const type of ['Market', 'Limit', 'Trigger', 'Scale', 'TWAP']) await expectReachable(ticket.getByRole('radio', { name: type, exact: true }));
    await expectReachable(ticket.getByLabel('Leverage', { exact: true }));
    await expectReachable(ticket.getByRole('button', { name: 'Buy / Long ETH' }));
    // A short window folds the Account card's other figures behind More; a tall one shows them all.
    const more = account.getByRole('button', { name: 'More account figures' });
    if (size.height < 700) {
      await expect(account.getByLabel('Posted margin')).toBeHidden();
      await more.click();
      await expect(account.getByRole('button', { name: 'Less account figures' })).toHaveAttribute('aria-expanded', 'true');
      for (const name of ['Posted margin', 'Maintenance margin', 'Account leverage', 'Open notional']) await expect(account.getByLabel(name)).toBeVisible();
      await account.getByRole('button', { name: 'Less account figures' }).click();
      await expect(account.getByLabel('Posted margin')).toBeHidden();
    } else {
      await expect(more).toBeHidden();
      for (const name of ['Posted margin', 'Maintenance margin', 'Account leverage', 'Open notional']) await expectReachable(account.getByLabel(name));
    }

    // Every tab of the account tables whole (its text not cut, the list not scrolled), beside Close all.
    await expectReachable(page.getByRole('button', { name: 'Close all positions' }));
    const fits = await tabs.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits, `the account tables' tabs fit their bar at ${tag}`).toBe(true);
    for (const name of [/^Positions 1$/, /^Open orders$/, /^Triggers$/, /^TWAP$/, /^OCO$/, /^Chase$/, /^Alerts$/, /^Activity \d+$/, /^Fills$/]) await expectReachable(tabs.getByRole('tab', { name }));
    // On the narrow centre column of 1024x680, the longer labels are short on screen; their names stay whole.
    const narrowTables = size.width < 1100;
    await expect(tabs.getByRole('tab', { name: /^Activity \d+$/ })).toHaveText(narrowTables ? 'Activity' : /^Activity \d+$/, { useInnerText: true });
    await expect(tabs.getByRole('tab', { name: 'Open orders', exact: true })).toHaveText(narrowTables ? 'Orders' : 'Open orders', { useInnerText: true });

    // The position's liquidation distance, in %, in view on its row.
    const liq = row.getByLabel(/^Liquidation price \(estimate\)/);
    await expectReachable(liq);
    await expect(liq).toContainText(/\d[\d,]*\.\d \d+\.\d{2}% away$/);
    await expect(liq).toHaveAttribute('aria-label', /^Liquidation price \(estimate\) [\d,.]+, \d+\.\d{2}% away from the mark$/);
    await screenshot(page, `trade-position-${tag}`);
  }

  // At 1440x900 the Account card stays on top while the column scrolls to a bracket's last field.
  await setSize(page, SIZES[0]);
  await ticket.getByRole('radio', { name: 'Limit', exact: true }).click();
  await ticket.getByLabel('Attach take-profit / stop-loss').check();
  await ticket.getByLabel('Stop-loss trigger').fill('3200');
  await page.getByRole('complementary', { name: 'Trading' }).evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expectReachable(account.getByLabel('Equity (computed)'));
  await expectReachable(account.getByLabel('Unrealized PnL'));
  // A field above, reached from the keyboard, scrolls into view below the card, not under it.
  await ticket.getByLabel('Limit price').focus();
  await expectReachable(ticket.getByLabel('Limit price'));
  await ticket.getByLabel('Attach take-profit / stop-loss').uncheck();
  await page.getByRole('complementary', { name: 'Trading' }).evaluate((el) => (el.scrollTop = 0));
  expect(pageErrors).toEqual([]);
});

test('triggers read "whole position" and "armed"; a bracket reviews its leg on the position after the entry; Ctrl+digit follows the bar', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'risk-triggers', { onboard: true });
  await openPosition(page, app, 'ETH', 'Buy', '1', 5);
  const mark = new Decimal(await app.mark('ETH'));

  // A whole-position stop from the ticket: armed on the venue.
  const stop = mark.mul('0.9').toDecimalPlaces(1).toFixed(1);
  await placeFromTicket(page, 'ETH', { side: 'Sell', type: 'Trigger', trigger: { kind: 'Stop loss', price: stop, wholePosition: true } });
  await app.advance(1_000);
  await page.getByRole('tab', { name: /^Triggers/ }).click();
  const trigger = page.getByRole('table', { name: 'Armed triggers' }).getByRole('row', { name: /^ETH Stop loss sell/ });
  await expect(trigger).toBeVisible({ timeout: 10_000 });
  await expect(trigger).toContainText('Armed');
  await expect(trigger).toContainText('0 / whole position');
  await page.getByRole('tab', { name: /^Open orders/ }).click();
  const listed = page.getByRole('table', { name: 'Open orders' }).getByRole('row', { name: /^ETH Stop loss sell/ });
  await expect(listed).toContainText('Armed');
  await expect(listed).toContainText('whole position');
  await page.getByRole('tab', { name: /^Activity/ }).click();
  const activity = page.getByRole('table', { name: 'Order activity' });
  const armed = activity.getByRole('row', { name: /^Order \S+ armed$/ });
  await expect(armed).toHaveCount(1, { timeout: 10_000 });
  await expect(armed).toContainText('Armed');
  await expect(armed).not.toContainText('SUBMITTED');

  // History: the stop's size is "whole position" and its status "armed".
  await page.keyboard.press('Control+2');
  const history = page.getByRole('table', { name: 'Order history' });
  const stopRow = history.getByRole('row', { name: /Stop loss/ });
  await expect(stopRow).toBeVisible({ timeout: 10_000 });
  await expect(stopRow).toContainText('whole position');
  await expect(stopRow).toContainText('armed');
  await expect(stopRow).not.toContainText(/\bopen\b/);

  // Ctrl+digit in the top bar's order (Ctrl+3 is Portfolio, the third); Settings is Ctrl+,.
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [i, view] of VIEWS.slice(0, 8).entries()) {
    await page.keyboard.press(`Control+${i + 1}`);
    await expect(nav.getByRole('button', { name: view, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('button', { name: view, exact: true })).toHaveAttribute('aria-keyshortcuts', `Control+${i + 1} Meta+${i + 1}`);
  }
  await page.keyboard.press('Control+Comma');
  await expect(nav.getByRole('button', { name: 'Settings', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Control+1');
  await expect(page.getByRole('main', { name: 'Trade' })).toBeVisible();

  // A bracket adding 0.5 to the 1.0 long: its stop closes the 1.5 the entry leaves, and is costed on it.
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Buy', exact: true }).click();
  await ticket.getByRole('radio', { name: 'Limit', exact: true }).click();
  await ticket.getByLabel('Limit price').fill(mark.mul('0.99').toDecimalPlaces(1).toFixed(1));
  await ticket.getByLabel('Size (ETH)').fill('0.5');
  await ticket.getByLabel('Attach take-profit / stop-loss').check();
  await ticket.getByLabel('Stop-loss trigger').fill(mark.mul('0.95').toDecimalPlaces(1).toFixed(1));
  await ticket.getByRole('button', { name: 'Buy / Long ETH' }).click();
  const review = page.getByRole('dialog', { name: 'Review order · ETH' });
  const slLeg = review.getByRole('region', { name: /^Stop.loss leg$/i });
  await expect(slLeg).toContainText('Sell the whole position');
  await expect(slLeg).toContainText('Closes 1.5 ETH (the position after the entry)');
  const worst = /worst price ([\d,.]+)/.exec((await slLeg.textContent()) ?? '')![1]!.replace(/,/g, '');
  await expect(slLeg).toContainText(`Notional ${usd(new Decimal(worst).mul('1.5').toFixed())}`);
  await screenshot(page, 'review-bracket-whole-position-1440x900');
  await review.getByRole('button', { name: 'Cancel' }).click();
  expect(pageErrors).toEqual([]);
});

/** Saturated pixels (a coloured value tag; the scale's own labels are grey) on each chart's price scale. */
async function tagPixelsOnPriceScales(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    interface Box { left: number; top: number; width: number; height: number }
    interface Canvas { width: number; height: number; getBoundingClientRect(): Box; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null }
    interface Figure { getAttribute(n: string): string | null; getBoundingClientRect(): Box; querySelectorAll(s: string): Iterable<Canvas> }
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<Figure> } }).document;
    const out: Record<string, number> = {};
    for (const fig of doc.querySelectorAll('.portfolio-chart[role="figure"]')) {
      const f = fig.getBoundingClientRect();
      let n = 0;
      for (const c of fig.querySelectorAll('canvas')) {
        const r = c.getBoundingClientRect();
        // The right price scale: a narrow canvas at the figure's right edge, above the time scale.
        if (r.width === 0 || r.width > 140 || r.left + r.width < f.left + f.width - 2 || r.height < f.height / 2) continue;
        const ctx = c.getContext('2d');
        if (!ctx) continue;
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4) {
          const [red, green, blue, alpha] = [d[i]!, d[i + 1]!, d[i + 2]!, d[i + 3]!];
          if (alpha > 200 && Math.max(red, green, blue) - Math.min(red, green, blue) > 80) n++;
        }
      }
      out[fig.getAttribute('aria-label') ?? '?'] = n;
    }
    return out;
  });
}

test('portfolio: no value tag over the price scale, and a balanced ledger is a small status', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'risk-portfolio', { onboard: true });
  await openPosition(page, app, 'ETH', 'Buy', '1.5', 5);
  for (const f of ['1.01', '0.995', '1.02']) {
    await nudgeEth(app, f);
    await app.advance(3_600_000);
  }
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('main', { name: 'Portfolio' })).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Range' }).getByRole('radio', { name: '1D' }).click();
  const ledger = page.getByRole('status').filter({ hasText: 'Ledger balanced' });
  await expect(ledger).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.portfolio')).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'Ledger mismatch' })).toHaveCount(0);
  // Small: one line of small text in the title row, its sums named for screen readers.
  const title = page.locator('.portfolio .view-title');
  await expect(title.getByRole('status').filter({ hasText: 'Ledger balanced' })).toBeVisible();
  expect((await ledger.boundingBox())!.height).toBeLessThanOrEqual(20);
  await expect(ledger).toHaveAttribute('title', /^Ledger balanced: rebuilt cash \$[\d,.]+ = free balance \+ posted margin/);
  await expect(ledger).toContainText(/rebuilt cash \$[\d,.]+ = free balance \+ posted margin \$[\d,.]+; rebuilt equity \$[\d,.]+ = live equity \$[\d,.]+/);
  for (const size of SIZES) {
    await setSize(page, size);
    await expect(page.getByRole('figure', { name: 'Equity curve' })).toBeVisible();
    await expect(page.getByRole('figure', { name: 'PnL per day' })).toBeVisible();
    await expectReachable(ledger);
    // The charts have drawn their scales (grey labels) but no coloured tag over them.
    await expect.poll(() => tagPixelsOnPriceScales(page)).toEqual({ 'Equity curve': 0, 'PnL per day': 0 });
    await screenshot(page, `portfolio-risk-${size.width}x${size.height}`);
  }
  expect(pageErrors).toEqual([]);
});

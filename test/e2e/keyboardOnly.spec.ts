/**
 * The whole trading day from the keyboard (#31 item 2): only page.keyboard (Tab, Shift+Tab, arrows, Home,
 * End, Enter, Space, Escape, typing and the app's shortcuts), never a click, a fill or a focus() of a
 * locator. Pick a market from the list, fill the ticket, review and sign; Escape on a review closes it
 * and nothing reaches the simulator; set a take-profit on the position, close half of it, cancel a
 * resting order, open History and export it, switch views. Along the way: every Tab stop shows a focus
 * ring, dialogs keep focus inside (Tab wraps) and give it back to the control that opened them, the tab
 * lists and the row menu move with the arrow keys, Home and End.
 *
 * Locators and page.evaluate only READ here: which element is focused, its ring, the page's text.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible, grouped } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** What is focused now, and whether it shows a ring (an outline or a box-shadow, on it or its field's frame). */
const FOCUS_STATE = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { what: 'nothing', ring: false };
  const shows = (n) => { const s = getComputedStyle(n); return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || (s.boxShadow !== '' && s.boxShadow !== 'none'); };
  const frame = el.closest('.input-wrap');
  const what = el.tagName.toLowerCase() + ' ' + (el.getAttribute('aria-label') || (el.textContent || '').trim().slice(0, 40));
  return { what, ring: shows(el) || (frame !== null && shows(frame)) };
})()`;

/** Every element the keyboard landed on, with whether its ring showed. */
const visited: { what: string; ring: boolean }[] = [];

async function isFocused(target: Locator): Promise<boolean> {
  return target.evaluateAll((els) => els.some((e) => e === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement));
}

/** Presses Tab (or Shift+Tab) until `target` has focus; each stop on the way must show its focus ring. */
async function tabTo(page: Page, target: Locator, { back = false, max = 150 } = {}): Promise<number> {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return i;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const state = (await page.evaluate(FOCUS_STATE)) as { what: string; ring: boolean };
    visited.push(state);
    expect(state.ring, `a focus ring on ${state.what} (after ${visited.slice(-4, -1).map((v) => v.what).join(" > ")})`).toBe(true);
  }
  throw new Error(`${target.toString()} not reached in ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

/** Tab to `sign`, Enter; once the dialog shows its result region, Tab to Done, Enter: the dialog closes. */
async function signThenDone(page: Page, e2e: E2eApp, dialog: Locator, sign: Locator, result: string): Promise<void> {
  await tabTo(page, sign);
  await page.keyboard.press('Enter');
  await advanceUntilVisible(e2e, dialog.getByRole('region', { name: result }));
  await tabTo(page, dialog.getByRole('button', { name: 'Done' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

/** Counts orders:place calls reaching main (and so the simulator). */
function countPlacements(e2e: E2eApp): { count: () => number } {
  const listener = e2e.ipc.listeners.get('orders:place')!;
  let n = 0;
  e2e.ipc.listeners.set('orders:place', async (event, payload) => {
    n++;
    return listener(event, payload);
  });
  return { count: () => n };
}

test('a whole trading day without the mouse', async ({ page, server, pageErrors }) => {
  test.setTimeout(180_000);
  app = await openApp(page, server, 'keyboard', { onboard: true });
  const placements = countPlacements(app);
  await app.control('/freeze-marks', {});
  await app.setMark('ETH', '3400');
  const listbox = page.getByRole('listbox', { name: 'Markets' });
  await expect(listbox.getByRole('option', { name: /^ETH / })).toBeVisible();

  // Pick a market: "/" to the search, ArrowDown into the list, ArrowDown to ETH, Enter.
  await page.keyboard.press('/');
  await expect(page.getByLabel('Search markets')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(listbox.getByRole('option', { name: /^BTC / })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(listbox.getByRole('option', { name: /^ETH / })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(listbox.getByRole('option', { name: /^ETH / })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'ETH market' })).toBeVisible();

  // The ticket: B focuses its size on the buy side; the order type is one Tab stop whose arrows (and Home) choose.
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await page.keyboard.press('b');
  const size = ticket.getByLabel('Size (ETH)');
  await expect(size).toBeFocused();
  const type = ticket.getByRole('radiogroup', { name: 'Order type' });
  await tabTo(page, type.getByRole('radio', { checked: true }), { back: true });
  await page.keyboard.press('Home');
  await expect(type.getByRole('radio', { name: 'Market' })).toBeFocused();
  await expect(type.getByRole('radio', { name: 'Market' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('End');
  await expect(type.getByRole('radio', { name: /^Chase/ })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Home');
  await tabTo(page, size);
  await page.keyboard.type('0.5');
  // The leverage is the next Tab stop: arrows set it.
  await page.keyboard.press('Tab');
  const leverage = ticket.getByLabel('Leverage');
  await expect(leverage).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(leverage).toHaveValue('3');
  const submit = ticket.getByRole('button', { name: 'Buy / Long ETH' });
  await tabTo(page, submit);
  await page.keyboard.press('Enter');

  // Review: focus is inside; Tab wraps inside the dialog; Escape closes it, signs nothing, and focus is back on submit.
  const review = page.getByRole('dialog', { name: 'Review order · ETH' });
  await expect(review).toContainText('Buy 0.5 ETH at market');
  const reviewFocusables = await review.locator('button:not([disabled]), input:not([disabled]), [tabindex="0"]').count();
  for (let i = 0; i < reviewFocusables + 2; i++) {
    await page.keyboard.press('Tab');
    expect(await review.evaluate((d) => d.contains((globalThis as unknown as { document: { activeElement: never } }).document.activeElement)), 'focus stays in the review').toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await review.evaluate((d) => d.contains((globalThis as unknown as { document: { activeElement: never } }).document.activeElement)), 'Shift+Tab stays in the review').toBe(true);
  await screenshot(page, 'keyboard-review-focused-1440x900');
  await page.keyboard.press('Escape');
  await expect(review).toBeHidden();
  await expect(submit).toBeFocused();
  expect(placements.count(), 'Escape on a review places nothing').toBe(0);
  await app.advance(1_000);
  expect((await app.call('positions:list', {})).positions, 'and nothing filled').toHaveLength(0);
  expect((await app.call('orders:listOpen', {})).orders).toHaveLength(0);

  // Enter again, then Sign and place from the keyboard.
  await page.keyboard.press('Enter');
  await expect(review).toBeVisible();
  await tabTo(page, review.getByRole('button', { name: 'Sign and place' }));
  await page.keyboard.press('Enter');
  await expect(review).toBeHidden();
  expect(placements.count()).toBe(1);
  const row = page.getByRole('row', { name: 'ETH position' });
  await advanceUntilVisible(app, row);
  await expect(row).toContainText('LONG');

  // A resting limit buy far under the mark, to cancel later: Shift+Tab back to the type, ArrowRight to Limit.
  await tabTo(page, type.getByRole('radio', { checked: true }), { back: true });
  await page.keyboard.press('ArrowRight');
  await expect(type.getByRole('radio', { name: 'Limit' })).toHaveAttribute('aria-checked', 'true');
  await tabTo(page, ticket.getByLabel('Limit price'));
  await page.keyboard.type('3000');
  await tabTo(page, size);
  await page.keyboard.type('0.2');
  await tabTo(page, submit);
  await page.keyboard.press('Enter');
  await expect(review).toContainText('Buy 0.2 ETH at 3,000 limit');
  await tabTo(page, review.getByRole('button', { name: 'Sign and place' }));
  await page.keyboard.press('Enter');
  await expect(review).toBeHidden();
  await expect.poll(async () => {
    await app!.advance(300);
    return (await app!.call('orders:listOpen', {})).orders.length;
  }, { timeout: 15_000 }).toBe(1);

  // The account tables: one Tab stop, arrows move between tabs, Home and End go to the ends.
  const positionsTab = page.getByRole('tab', { name: 'Positions' });
  await tabTo(page, positionsTab, { back: true });
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Fills' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(positionsTab).toHaveAttribute('aria-selected', 'true');
  await expect(positionsTab).toBeFocused();

  // The row menu: ArrowDown on ⋯ opens it on its first item, arrows wrap, End and Home, Escape back to ⋯.
  const more = row.getByRole('button', { name: 'More actions: ETH position' });
  await tabTo(page, more);
  await page.keyboard.press('ArrowDown');
  const menu = page.getByRole('menu', { name: 'Actions: ETH position' });
  await expect(menu.getByRole('menuitem', { name: 'Set TP/SL on ETH position' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Adjust ETH margin' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: 'Reverse ETH position' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Set TP/SL on ETH position' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Reverse ETH position' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(menu.getByRole('menuitem', { name: 'Set TP/SL on ETH position' })).toBeFocused();
  expect(((await page.evaluate(FOCUS_STATE)) as { ring: boolean }).ring, 'the focused menu item shows a ring').toBe(true);
  await screenshot(page, 'keyboard-row-menu-1440x900');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();

  // TP/SL from the menu (Enter on its item); the dialog returns focus to ⋯ when it closes.
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitem', { name: 'Set TP/SL on ETH position' })).toBeFocused();
  await page.keyboard.press('Enter');
  const tpsl = page.getByRole('dialog', { name: 'TP/SL on ETH position' });
  await expect(tpsl).toBeVisible();
  const tp = '3570';
  await tabTo(page, tpsl.getByLabel('Take-profit trigger'));
  await page.keyboard.type(tp);
  await tabTo(page, tpsl.getByRole('button', { name: 'Review changes' }));
  await page.keyboard.press('Enter');
  await expect(tpsl.getByRole('region', { name: 'TP/SL changes' })).toBeVisible();
  // Escape on the TP/SL review closes it and arms nothing.
  await page.keyboard.press('Escape');
  await expect(tpsl).toBeHidden();
  await expect(more).toBeFocused();
  await app.advance(1_000);
  expect((await app.call('orders:listTriggers', {})).triggers, 'Escape on the TP/SL review arms nothing').toHaveLength(0);
  // Again, signed this time.
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Set TP/SL on ETH position' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(tpsl).toBeVisible();
  await tabTo(page, tpsl.getByLabel('Take-profit trigger'));
  await page.keyboard.type(tp);
  await tabTo(page, tpsl.getByRole('button', { name: 'Review changes' }));
  await page.keyboard.press('Enter');
  await expect(tpsl.getByRole('region', { name: 'TP/SL changes' })).toBeVisible();
  await signThenDone(page, app, tpsl, tpsl.getByRole('button', { name: 'Sign and apply' }), 'TP/SL result');
  await expect(more).toBeFocused();
  await advanceUntilVisible(app, row.getByRole('button', { name: `ETH TP/SL: TP ${grouped(tp)}` }));

  // Close half: Tab to Close, Enter; the 50% preset; the dialog's close button; Done; focus back on Close.
  const closeButton = row.getByRole('button', { name: 'Close ETH position' });
  await tabTo(page, closeButton);
  await page.keyboard.press('Enter');
  const close = page.getByRole('dialog', { name: 'Close ETH position' });
  await expect(close).toBeVisible();
  await tabTo(page, close.getByRole('button', { name: '50%', exact: true }));
  await page.keyboard.press('Enter');
  await expect(close.getByRole('button', { name: '50%', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(close).toContainText('0.25 ETH');
  await screenshot(page, 'keyboard-close-dialog-1440x900');
  await signThenDone(page, app, close, close.locator('.dialog-footer button').last(), 'Close result');
  await expect(closeButton).toBeFocused();
  await expect.poll(async () => (await app!.call('positions:list', {})).positions.find((p) => p.market === 'ETH')?.size, { timeout: 15_000 }).toBe('0.25');

  // Cancel the resting order: to the tab list, ArrowRight to Open orders, Tab to its Cancel, Enter.
  await tabTo(page, positionsTab, { back: true });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Open orders' })).toHaveAttribute('aria-selected', 'true');
  const orders = page.getByRole('table', { name: 'Open orders' });
  const cancel = orders.getByRole('button', { name: /^Cancel ETH Limit buy/ });
  await tabTo(page, cancel);
  await page.keyboard.press('Enter');
  // The limit buy is gone; the take-profit the half close lifted was re-armed on the rest and stays.
  await expect.poll(async () => {
    await app!.advance(300);
    return (await app!.call('orders:listOpen', {})).orders.map((o) => o.order_type);
  }, { timeout: 15_000 }).toEqual(['TRIGGER']);

  // History from the top bar: Shift+Tab up to the navigation, Enter on History; then Export CSV.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await tabTo(page, nav.getByRole('button', { name: 'History', exact: true }), { back: true, max: 250 });
  await page.keyboard.press('Enter');
  await expect(nav.getByRole('button', { name: 'History', exact: true })).toHaveAttribute('aria-current', 'page');
  const historyTabs = page.getByRole('tablist', { name: 'History' });
  // The view loads on first use: Tab before it is there would pass over it to the toasts and out of the page.
  await expect(historyTabs).toBeVisible({ timeout: 10_000 });
  await tabTo(page, historyTabs.getByRole('tab', { selected: true }));
  await page.keyboard.press('ArrowRight');
  await expect(historyTabs.getByRole('tab', { selected: true })).not.toHaveText('Orders');
  await page.keyboard.press('Home');
  app.nextSaveFile = path.join(app.dataDir, 'orders.csv');
  await tabTo(page, page.getByRole('button', { name: 'Export CSV' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'CSV exported' })).toBeVisible();
  expect(fs.readFileSync(app.nextSaveFile, 'utf8')).toContain('ETH');

  // Switch views with the shortcuts and the navigation: Settings (Ctrl+,), Portfolio by Tab, back to Trade (Ctrl+1).
  await page.keyboard.press('Control+Comma');
  await expect(nav.getByRole('button', { name: 'Settings', exact: true })).toHaveAttribute('aria-current', 'page');
  await tabTo(page, nav.getByRole('button', { name: 'Portfolio', exact: true }), { back: true, max: 250 });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main', { name: 'Portfolio' })).toBeVisible();
  await page.keyboard.press('Control+1');
  await expect(page.getByRole('main', { name: 'Trade' })).toBeVisible();
  await expect(page.getByRole('row', { name: 'ETH position' })).toContainText('0.25');

  // Every stop on the way showed its ring; none was lost to the page.
  expect(visited.filter((v) => !v.ring)).toEqual([]);
  expect(visited.filter((v) => v.what === 'nothing')).toEqual([]);
  expect(pageErrors).toEqual([]);
});

/**
 * The command palette (#31 item 6), from the keyboard only: Ctrl+K opens it and Escape gives the focus
 * back; a market buy typed in words opens the ticket's review, and Escape there places nothing; a limit
 * sell on the tick goes through the review and rests; "close eth 50%" opens the close dialog set to half;
 * "history" goes to History; a phrase missing its market, or with a bad number, says so and offers no
 * trade. Screenshots of the palette at 1440x900 and 1024x680.
 */
import type { Page } from '@playwright/test';
import { Decimal } from '../../src/shared/decimal/index.js';
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible, screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Opens the palette with Ctrl+K and types `text` into its field. */
async function palette(page: Page, text: string) {
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  await expect(dialog).toBeVisible();
  const field = dialog.getByRole('combobox', { name: 'Command, view, market or setting' });
  await expect(field).toBeFocused();
  await page.keyboard.type(text);
  return { dialog, field };
}

test('command palette: views, markets and trades in plain words, each trade through its usual review', async ({ page, server, pageErrors }) => {
  test.setTimeout(150_000);
  app = await openApp(page, server, 'palette', { onboard: true });
  await expect(page.getByRole('option', { name: /^ETH / })).toBeVisible();

  // Ctrl+K from the market search; Escape closes it and the focus is back in the search.
  const search = page.getByLabel('Search markets');
  await search.focus();
  let { dialog, field } = await palette(page, '');
  await expect(field).toHaveAttribute('aria-expanded', 'true');
  const list = dialog.getByRole('listbox', { name: 'Matches' });
  await expect(field).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);
  // Arrow keys move the active option (the field keeps the focus; aria-activedescendant follows).
  await page.keyboard.press('ArrowDown');
  const second = list.getByRole('option').nth(1);
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(field).toHaveAttribute('aria-activedescendant', (await second.getAttribute('id'))!);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(search).toBeFocused();

  // A market buy: the review the ticket opens; Escape there places nothing.
  ({ dialog, field } = await palette(page, 'buy 0.01 btc'));
  const trade = dialog.getByRole('option', { name: /^Review: Buy 0\.01 BTC at market/ });
  await expect(trade).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('status')).toContainText('Nothing is signed from here');
  await screenshotBothSizes(page, 'command-palette-trade');
  await page.keyboard.press('Enter');
  const btcReview = page.getByRole('dialog', { name: 'Review order · BTC' });
  await expect(btcReview).toContainText(/Buy 0\.01 BTC at market/);
  await expect(dialog).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(btcReview).toBeHidden();
  await app.advance(1_000);
  expect((await app.call('positions:list', {})).positions).toEqual([]);
  expect((await app.call('orders:listOpen', {})).orders).toEqual([]);

  // A limit sell on ETH's tick, above the mark: review, sign, and it rests.
  const eth = (await app.call('markets:list', {})).markets.find((m) => m.symbol === 'ETH')!;
  const tick = new Decimal(eth.tick_size);
  const price = new Decimal(await app.mark('ETH')).mul('1.05').div(tick).ceil().mul(tick).toFixed();
  ({ dialog } = await palette(page, `sell 0.02 eth at ${price}`));
  await expect(dialog.getByRole('option', { name: new RegExp(`^Review: Sell 0\\.02 ETH, limit ${price.replace('.', '\\.')}`) })).toBeVisible();
  await page.keyboard.press('Enter');
  const ethReview = page.getByRole('dialog', { name: 'Review order · ETH' });
  await expect(ethReview).toContainText('LIMIT');
  await ethReview.getByRole('button', { name: 'Sign and place' }).click();
  await expect(ethReview).toBeHidden();
  await expect
    .poll(async () => {
      await app!.advance(300);
      return (await app!.call('orders:listOpen', {})).orders.map((o) => [o.market, o.side, new Decimal(o.limit_price ?? '0').toFixed()]);
    }, { timeout: 15_000 })
    .toEqual([['ETH', 'sell', price]]);

  // A position, then "close eth 50%": the close dialog, set to half; Escape closes nothing.
  ({ dialog } = await palette(page, 'buy 0.04 eth'));
  await page.keyboard.press('Enter');
  const buyReview = page.getByRole('dialog', { name: 'Review order · ETH' });
  await buyReview.getByRole('button', { name: 'Sign and place' }).click();
  await expect(buyReview).toBeHidden();
  await page.getByRole('tab', { name: /^Positions/ }).click();
  await advanceUntilVisible(app, page.getByRole('row', { name: 'ETH position' }));
  ({ dialog } = await palette(page, 'close eth 50%'));
  await expect(dialog.getByRole('option', { name: /^Review: Close 50% of the ETH position at market/ })).toBeVisible();
  await page.keyboard.press('Enter');
  const close = page.getByRole('dialog', { name: 'Close ETH position' });
  await expect(close.getByRole('button', { name: 'Close 50% at market' })).toBeVisible();
  await expect(close).toContainText('0.02 ETH');
  await page.keyboard.press('Escape');
  await expect(close).toBeHidden();
  expect(new Decimal((await app.call('positions:list', {})).positions[0]!.size).eq('0.04')).toBe(true);

  // Navigation in a word.
  await palette(page, 'history');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main', { name: 'History' })).toBeVisible();

  // What is missing, or wrong, is said; there is no trade to run.
  ({ dialog } = await palette(page, 'buy 0.01'));
  await expect(dialog.getByRole('status')).toContainText('Understood “buy 0.01”; missing a market');
  await expect(dialog.getByRole('option', { name: /^Review:/ })).toHaveCount(0);
  await screenshotBothSizes(page, 'command-palette-missing');
  await field.fill('buy 1e3 btc');
  await expect(dialog.getByRole('status')).toContainText('the size “1e3” is not a decimal');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: /^Review order/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  expect(pageErrors).toEqual([]);
});

/**
 * Managing a position from its row, as a trader does: TP/SL set, moved and removed on the row (wrong-side
 * levels refused before anything is signed), a partial close by percentage at market, a reduce-only limit
 * close that rests, close all with one confirmation (saying which triggers went first), and the fat-finger
 * guard in the order review (a limit far through the mark, an order above the user's size cap) that keeps
 * "Sign and place" disabled until each confirmation is ticked.
 */
import { Decimal } from '../../src/shared/decimal/index.js';
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible, grouped, openPosition, screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** `mark × factor` on the market's tick (ETH and BTC ticks are read from /markets through the app). */
async function priceAt(a: E2eApp, market: string, factor: string): Promise<string> {
  const m = (await a.call('markets:list', {})).markets.find((x) => x.symbol === market)!;
  const tick = new Decimal(m.tick_size);
  return new Decimal(await a.mark(market)).mul(factor).div(tick).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).mul(tick).toFixed(Math.max(0, tick.decimalPlaces()));
}

test('TP/SL on the position row: set, wrong side refused, moved, removed', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'tpsl-row', { onboard: true });
  const row = await openPosition(page, app, 'ETH', 'Buy', '1');
  await expect(row.getByRole('button', { name: 'ETH TP/SL: none armed' })).toBeVisible();

  await row.getByRole('button', { name: 'ETH TP/SL: none armed' }).click();
  const dialog = page.getByRole('dialog', { name: 'TP/SL on ETH position' });
  await expect(dialog).toBeVisible();
  // A stop-loss above the mark of a long would fire at once: the dialog says so and main refuses it.
  const wrongSl = await priceAt(app, 'ETH', '1.05');
  await dialog.getByLabel('Stop-loss trigger').fill(wrongSl);
  await expect(dialog).toContainText('A long’s stop-loss must be below the mark');
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  await expect(dialog.getByRole('alert')).toContainText(/below the mark|wrong side|would fire/i);
  expect((await app.call('orders:listTriggers', {})).triggers).toHaveLength(0);

  const tp = await priceAt(app, 'ETH', '1.05');
  const sl = await priceAt(app, 'ETH', '0.95');
  await dialog.getByLabel('Take-profit trigger').fill(tp);
  await dialog.getByLabel('Stop-loss trigger').fill(sl);
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  await expect(dialog.getByRole('region', { name: 'TP/SL changes' })).toBeVisible();
  await screenshotBothSizes(page, 'position-tpsl-review');
  await dialog.getByRole('button', { name: 'Sign and apply' }).click();
  // A move or a removal waits for the service to confirm it, which takes simulated time.
  await advanceUntilVisible(app, dialog.getByRole('region', { name: 'TP/SL result' }));
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // The row shows both levels once the triggers are armed, and explains why nothing is closeable now.
  const levels = row.getByRole('button', { name: `ETH TP/SL: TP ${grouped(tp)} · SL ${grouped(sl)}` });
  await advanceUntilVisible(app, levels);
  await expect(row.getByLabel('Closeable')).toContainText('0 · Close cancels the armed TP/SL first');
  await screenshotBothSizes(page, 'position-tpsl-row');

  // Move the TP: a modify of the armed trigger, not a second one.
  const tp2 = await priceAt(app, 'ETH', '1.08');
  await levels.click();
  await dialog.getByLabel('Take-profit trigger').fill(tp2);
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  await dialog.getByRole('button', { name: 'Sign and apply' }).click();
  // A move or a removal waits for the service to confirm it, which takes simulated time.
  await advanceUntilVisible(app, dialog.getByRole('region', { name: 'TP/SL result' }));
  await dialog.getByRole('button', { name: 'Done' }).click();
  await advanceUntilVisible(app, row.getByRole('button', { name: `ETH TP/SL: TP ${grouped(tp2)} · SL ${grouped(sl)}` }));
  expect((await app.call('orders:listTriggers', { market: 'ETH' })).triggers.filter((t) => t.armed)).toHaveLength(2);

  // Remove the SL: the field's Remove empties it and the review cancels the trigger.
  await row.getByRole('button', { name: /^ETH TP\/SL: TP / }).click();
  await dialog.getByRole('button', { name: 'Remove the stop-loss' }).click();
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  await dialog.getByRole('button', { name: 'Sign and apply' }).click();
  // A move or a removal waits for the service to confirm it, which takes simulated time.
  await advanceUntilVisible(app, dialog.getByRole('region', { name: 'TP/SL result' }));
  await dialog.getByRole('button', { name: 'Done' }).click();
  await advanceUntilVisible(app, row.getByRole('button', { name: `ETH TP/SL: TP ${grouped(tp2)}` }));
  expect(pageErrors).toEqual([]);
});

test('partial close by percentage, a resting limit close, then close all', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'close-depth', { onboard: true });
  const row = await openPosition(page, app, 'ETH', 'Buy', '1');

  // Half at market.
  await row.getByRole('button', { name: 'Close ETH position' }).click();
  const dialog = page.getByRole('dialog', { name: 'Close ETH position' });
  await dialog.getByRole('group', { name: 'Close percentage presets' }).getByRole('button', { name: '50%' }).click();
  await expect(dialog.getByRole('list', { name: 'Close estimate' }).or(dialog.getByLabel('Close estimate'))).toContainText('0.5 ETH');
  await screenshotBothSizes(page, 'position-close-partial');
  await dialog.getByRole('button', { name: /^Close .* at market$/ }).click();
  const outcome = dialog.getByRole('region', { name: 'Close result' });
  await advanceUntilVisible(app, outcome);
  await expect(outcome).toContainText('Closed 0.5 ETH at market.');
  await expect(outcome).toContainText('LONG 0.5 ETH');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(row).toContainText('0.5');

  // The rest as a reduce-only limit above the mark: it rests until the price is reached.
  const limit = await priceAt(app, 'ETH', '1.02');
  await row.getByRole('button', { name: 'Close ETH position' }).click();
  await dialog.getByRole('radio', { name: 'Limit' }).click();
  await dialog.getByLabel('Limit price').fill(limit);
  await dialog.getByRole('button', { name: `Close all at ${grouped(limit)}` }).click();
  await advanceUntilVisible(app, outcome);
  await expect(outcome).toContainText(`Limit close resting: sell 0.5 ETH at ${grouped(limit)} (GTC)`);
  await screenshotBothSizes(page, 'position-close-limit-resting');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const resting = (await app.call('orders:listOpen', {})).orders.filter((o) => o.market === 'ETH');
  expect(resting).toHaveLength(1);
  expect(resting[0]).toMatchObject({ side: 'sell', reduce_only: true, order_type: 'LIMIT' });

  // A second position, with a stop-loss armed, then Close all: one confirmation lists both.
  await app.call('orders:cancel', { order_id: resting[0]!.order_id });
  await openPosition(page, app, 'BTC', 'Sell', '0.05');
  const btcRow = page.getByRole('row', { name: 'BTC position' });
  const sl = await priceAt(app, 'BTC', '1.05');
  const tpslReview = await app.call('positions:previewTpsl', { market: 'BTC', sl });
  await app.call('positions:applyTpsl', { preview_id: tpslReview.preview_id });
  await advanceUntilVisible(app, btcRow.getByRole('button', { name: `BTC TP/SL: SL ${grouped(sl)}` }));

  await page.getByRole('button', { name: 'Close all positions' }).click();
  const all = page.getByRole('dialog', { name: 'Close all positions' });
  await expect(all.getByRole('table', { name: 'Positions to close' }).getByRole('row', { name: 'ETH to close' })).toBeVisible();
  await expect(all.getByRole('table', { name: 'Positions to close' }).getByRole('row', { name: 'BTC to close' })).toBeVisible();
  await screenshotBothSizes(page, 'positions-close-all');
  await all.getByRole('button', { name: 'Close all 2 positions at market' }).click();
  const table = all.getByRole('table', { name: 'Close all outcome' });
  await advanceUntilVisible(app, table);
  await expect(table.getByRole('row', { name: 'BTC outcome' })).toContainText(`SL ${grouped(sl)}`);
  await all.getByRole('button', { name: 'Done' }).click();
  await advanceUntilVisible(app, page.getByText('No open positions'));
  expect((await app.call('positions:list', {})).positions).toHaveLength(0);
  expect(pageErrors).toEqual([]);
});

test('the fat-finger guard: a far limit and an order above the cap need a tick each before signing', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'fat-finger', { onboard: true });
  await app.call('settings:set', { max_order_notional: '1000' });

  // A limit buy at twice the mark, for more than the 1,000 USDC cap.
  const far = await priceAt(app, 'ETH', '2');
  await page.getByRole('option', { name: /^ETH / }).click();
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Buy' }).click();
  await ticket.getByRole('radio', { name: 'Limit' }).click();
  await ticket.getByLabel('Limit price').fill(far);
  await ticket.getByLabel('Size (ETH)').fill('1');
  await ticket.getByRole('button', { name: 'Buy / Long ETH' }).click();
  const review = page.getByRole('dialog', { name: 'Review order · ETH' });
  const guards = review.getByRole('group', { name: 'Confirmations needed' });
  await expect(guards.getByRole('region', { name: 'Price far from the mark' })).toBeVisible();
  await expect(guards.getByRole('region', { name: 'Above your order-size cap' })).toBeVisible();
  const sign = review.getByRole('button', { name: 'Sign and place' });
  await expect(sign).toBeDisabled();
  await screenshotBothSizes(page, 'review-fat-finger-guard');
  await guards.getByLabel('I checked the price: place it anyway (FAR_PRICE)').check();
  await expect(sign).toBeDisabled();
  // Nothing was sent while the review waited.
  expect((await app.call('orders:listOpen', {})).orders).toHaveLength(0);
  await guards.getByLabel('I checked the size: place it anyway (LARGE_ORDER)').check();
  await expect(sign).toBeEnabled();
  await sign.click();
  await expect(review).toBeHidden({ timeout: 10_000 });
  await app.advance(1_000);
  await page.getByRole('tab', { name: 'Positions' }).click();
  await expect(page.getByRole('row', { name: 'ETH position' })).toContainText('LONG', { timeout: 10_000 });
  expect(pageErrors).toEqual([]);
});

/**
 * What a trader sees of the risk of a leveraged position: the estimated liquidation price in the ticket
 * and the review (the position the order would leave), in the positions table and as a dashed line on the
 * chart; the account's health figures (equity computed, maintenance margin, margin ratio, leverage,
 * withdrawable); and, when the mark comes within the warning distance of the estimate, a banner naming the
 * market and the distance, a toast and the risk sound, all gone again once the mark moves away.
 */
import type { Page } from '@playwright/test';
import { Decimal } from '../../src/shared/decimal/index.js';
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { grouped, liqShown, reviewMarketOrder, screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Records the frequency of every OscillatorNode started in the page (as sounds.spec.ts does). */
const RECORD_NOTES = `(() => {
  const start = OscillatorNode.prototype.start;
  window.__notes = [];
  OscillatorNode.prototype.start = function (...args) { window.__notes.push(Math.round(this.frequency.value * 10) / 10); return start.apply(this, args); };
})();`;
const notes = (page: Page) => page.evaluate(() => (globalThis as unknown as { __notes: number[] }).__notes);
/** The risk alarm's first note (features/notifications/sounds.ts). */
const RISK_NOTE = 587.3;

/** USD as the account panel shows it ("$1,234.57"). */
function usd(value: string): string {
  const d = new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return `${d.isNeg() ? '-' : ''}$${grouped(d.abs().toFixed(2))}`;
}

test('the liquidation estimate, the account health and the liquidation warning', async ({ page, server, pageErrors }) => {
  await page.addInitScript(RECORD_NOTES);
  app = await openApp(page, server, 'risk', { onboard: true });
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

  // The risk sound and the native warning are switched on in Settings, beside the warning distance.
  await nav('Settings').click();
  await expect(page.getByLabel('Liquidation warning distance')).toHaveValue('10');
  await expect(page.getByRole('checkbox', { name: 'Positions near their liquidation estimate' })).toBeChecked();
  await page.getByRole('checkbox', { name: 'Sound on liquidation warnings' }).check();
  await expect.poll(async () => (await app!.call('notifications:get', {})).sound_risk_warnings).toBe(true);
  await nav('Trade').click();

  // The ticket shows the position a 5x market buy would leave, with its liquidation estimate; the review
  // shows the same (both from the shared arithmetic, main's review from the order as it will be signed).
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  const review = await reviewMarketOrder(page, 'ETH', 'Buy', '1', 5);
  const reviewLiq = review.locator('.kv', { hasText: 'Liq. price after (est.)' }).locator('dd');
  await expect(reviewLiq).toHaveText(/^\d{1,3}(,\d{3})*\.\d$/);
  const ticketLiq = ticket.locator('.kv', { hasText: 'Liq. price after (est.)' }).locator('dd');
  await expect(ticketLiq).toHaveText((await reviewLiq.textContent())!);
  await expect(review.locator('.kv', { hasText: 'Position after (est.)' })).toContainText('LONG 1 @');
  await screenshotBothSizes(page, 'risk-review-position-after');
  await review.getByRole('button', { name: 'Sign and place' }).click();
  await expect(review).toBeHidden();
  await app.advance(1_000);
  await page.getByRole('tab', { name: 'Positions' }).click();
  const row = page.getByRole('row', { name: 'ETH position' });
  await expect(row).toContainText('LONG', { timeout: 10_000 });

  // The positions table's estimate is main's (riskMath.liquidationPrice), rounded toward the mark to ETH's tick.
  const position = await app.waitFor('the ETH position with its estimate', async () => (await app!.call('positions:list', {})).positions.find((p) => p.market === 'ETH' && p.liquidation_price !== null));
  const liq = liqShown(position.size, position.liquidation_price!, 1);
  await expect(row.getByLabel('Liquidation price (estimate)')).toContainText(liq);
  // ... and the same line is on the chart, dashed, titled an estimate.
  await expect(page.getByRole('figure', { name: 'ETH price chart' }).getByLabel('Chart lines')).toContainText(`Liq. (est.) ${liq}`);

  // The account panel: main's health figures, equity labelled computed.
  const panel = page.getByLabel('Equity (computed)');
  await expect.poll(async () => {
    const h = await app!.call('account:health', {});
    return (await panel.textContent()) === usd(h.equity!) && (await page.getByLabel('Maintenance margin').textContent()) === usd(h.maintenance_margin!);
  }, { timeout: 10_000 }).toBe(true);
  const health = await app.call('account:health', {});
  await expect(page.getByLabel('Free balance, withdrawable')).toHaveText(usd(health.withdrawable));
  await expect(page.getByLabel('Posted margin')).toHaveText(usd(health.posted_margin));
  await expect(page.getByLabel('Margin ratio')).toHaveText(`${new Decimal(health.margin_ratio!).mul(100).toFixed(2, Decimal.ROUND_HALF_UP)}%`);
  await expect(page.getByLabel('Account leverage')).toHaveText(`${new Decimal(health.account_leverage!).toFixed(2, Decimal.ROUND_HALF_UP)}x`);
  await expect(page.getByText('Equity is computed: free balance + posted margin + unrealized PnL')).toBeVisible();
  await screenshotBothSizes(page, 'risk-position-health');

  // The mark falls to 8 % above the estimate (inside the 10 % warning distance, safe of liquidation).
  expect(await notes(page)).not.toContain(RISK_NOTE);
  const near = new Decimal(position.liquidation_price!).div('0.92').toDecimalPlaces(1, Decimal.ROUND_UP).toFixed(1);
  await app.setMark('ETH', near);
  await app.advance(100);
  const banner = page.getByRole('alert', { name: 'Liquidation risk' });
  await expect(banner).toBeVisible({ timeout: 10_000 });
  await expect(banner).toContainText(`ETH long: mark ${grouped(near)} is 8.0`);
  await expect(banner).toContainText(`% from the estimated liquidation price ${liq}`);
  await expect(banner).toContainText('Within 10% of the mark');
  await expect(page.getByRole('status').filter({ hasText: 'Liquidation risk · ETH' })).toBeVisible();
  await expect.poll(() => notes(page), { timeout: 10_000 }).toContain(RISK_NOTE);
  await expect(row.getByLabel('Liquidation price (estimate)')).toHaveClass(/liq-near/);
  expect(app.notifications.some((n) => n.title === 'ETH long near liquidation')).toBe(true);
  await screenshotBothSizes(page, 'risk-warning-banner');

  // Back above the distance: the banner clears by itself.
  await app.setMark('ETH', position.entry_price);
  await app.advance(100);
  await expect(banner).toBeHidden({ timeout: 10_000 });
  await expect(row.getByLabel('Liquidation price (estimate)')).not.toHaveClass(/liq-near/);
  expect(pageErrors).toEqual([]);
});

test('the warning distance and the order-size cap are settings', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'risk-settings', { onboard: true });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const form = page.getByRole('form', { name: 'Risk settings' });
  const distance = form.getByLabel('Liquidation warning distance');
  const cap = form.getByLabel('Confirm orders above');
  await expect(cap).toHaveValue('');
  await expect(cap).toHaveAttribute('placeholder', 'No cap');
  // Bad input is refused at the field and nothing is saved.
  await distance.fill('0');
  await expect(form.getByText('A percentage above 0 and at most 100')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Save risk settings' })).toBeDisabled();
  await distance.fill('7.5');
  await cap.fill('-5');
  await expect(form.getByText('A positive USDC amount')).toBeVisible();
  await cap.fill('25000');
  await form.getByRole('button', { name: 'Save risk settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Risk settings saved' })).toBeVisible();
  expect(await app.call('settings:get', {})).toMatchObject({ liquidation_warning_pct: 7.5, max_order_notional: '25000' });
  await screenshotBothSizes(page, 'risk-settings');
  // Emptied, the cap is off again.
  await cap.fill('');
  await form.getByRole('button', { name: 'Save risk settings' }).click();
  await expect.poll(async () => (await app!.call('settings:get', {})).max_order_notional).toBeNull();
  expect(pageErrors).toEqual([]);
});

/**
 * A scale-out from the ticket on a position with TP/SL armed (issue 35): the Scale ticket with Reduce-only
 * is reviewed with what is lifted and re-armed (main's review: services/positions/scaleOut.ts), placed,
 * and leaves both levels armed again beside the resting ladder; the toast says they were re-armed. The
 * review passes the accessibility audit. Screenshots: scale-out-review-{1440x900,1024x680}.png.
 */
import { Decimal } from '../../src/shared/decimal/index.js';
import type { E2eApp } from './harness/appHarness.js';
import { auditScreen } from './harness/axeAudit.js';
import { expect, openApp, test } from './harness/fixtures.js';
import { advanceUntilVisible, openPosition, screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a reduce-only scale ladder on a protected long: reviewed with the lift, placed, TP and SL re-armed', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'scale-out', { onboard: true });
  await openPosition(page, app, 'ETH', 'Buy', '1', 5);
  const mark = new Decimal(await app.mark('ETH'));
  const at = (f: string) => mark.mul(f).toDecimalPlaces(1, Decimal.ROUND_DOWN).toFixed(1);
  const tpsl = await app.call('positions:previewTpsl', { market: 'ETH', tp: at('1.1'), sl: at('0.9') });
  await app.call('positions:applyTpsl', { preview_id: tpsl.preview_id });
  await page.getByRole('tab', { name: /^Triggers/ }).click();
  const triggers = page.getByRole('table', { name: 'Armed triggers' });
  await advanceUntilVisible(app, triggers.getByRole('row', { name: /^ETH Take profit sell/ }));
  const before = (await app.call('orders:listTriggers', { market: 'ETH' })).triggers.filter((t) => t.armed).map((t) => t.order_id);
  expect(before).toHaveLength(2);

  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Sell', exact: true }).click();
  await ticket.getByRole('radio', { name: 'Scale', exact: true }).click();
  await ticket.getByLabel('From price').fill(at('1.02'));
  await ticket.getByLabel('To price').fill(at('1.04'));
  await ticket.getByLabel('Legs').fill('3');
  await ticket.getByLabel('Total size (ETH)').fill('0.5');
  await ticket.getByLabel('Reduce-only').check();
  await ticket.getByRole('button', { name: /^Sell \/ Short ETH/ }).click();
  const review = page.getByRole('dialog', { name: 'Review order · ETH' });
  const lift = review.getByRole('region', { name: 'TP/SL during the scale-out' });
  await expect(lift).toBeVisible();
  await expect(lift).toContainText(/Cancel the take-profit \d+ at [\d,.]+ first/);
  await expect(lift).toContainText(/TP [\d,.]+ and SL [\d,.]+ are lifted for the ladder and re-armed once it rests, on the whole position \(1 ETH now\)/);
  const audit = await auditScreen(page, 'Scale-out review 1440x900');
  expect(audit.serious, audit.examples.join('\n')).toEqual({});
  await screenshotBothSizes(page, 'scale-out-review');

  await review.getByRole('button', { name: 'Sign and place' }).click();
  // The lift waits on the simulator's clock (cancels confirmed, the ladder resting, the re-arm armed).
  await expect
    .poll(async () => {
      await app!.advance(300);
      return review.isHidden();
    }, { timeout: 30_000, intervals: [200] })
    .toBe(true);
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: /TP\/SL re-armed · ETH/ }).first()).toBeVisible();
  const after = (await app.call('orders:listTriggers', { market: 'ETH' })).triggers.filter((t) => t.armed);
  expect(after.map((t) => t.tpsl).sort()).toEqual(['sl', 'tp']);
  expect(after.some((t) => before.includes(t.order_id))).toBe(false);
  const ladder = (await app.call('orders:listOpen', { market: 'ETH' })).orders.filter((o) => o.order_type === 'LIMIT');
  expect(ladder).toHaveLength(3);
  expect(ladder.every((o) => o.reduce_only && o.side === 'sell')).toBe(true);
  expect(pageErrors).toEqual([]);
});

/**
 * History › Orders reads a bracket's legs as a trader would (issue 35): a leg whose entry filled is "armed"
 * (its status changes: "awaiting entry", then "armed"); a leg whose limit entry still rests is "awaiting
 * entry"; neither reads the service's bare "open". Derived in main from the spec's fields only (status,
 * order_type, parent_order_id). Screenshot: history-bracket-legs-1440x900.png.
 */
import { Decimal } from '../../src/shared/decimal/index.js';
import type { E2eApp } from './harness/appHarness.js';
import { expect, goToViewByKey, openApp, screenshot, test } from './harness/fixtures.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('an armed bracket leg reads "armed", a waiting one "awaiting entry", never "open"', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'history-bracket', { onboard: true });
  const mark = new Decimal(await app.mark('ETH'));
  const at = (f: string) => mark.mul(f).toDecimalPlaces(1, Decimal.ROUND_DOWN).toFixed(1);
  const filled = await app.call('orders:preview', { intent: { kind: 'bracket', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.5', leverage: 5, tp: { trigger_price: at('1.2') } } });
  const placedNow = await app.call('orders:place', { preview_id: filled.preview_id });
  const resting = await app.call('orders:preview', { intent: { kind: 'bracket', market: 'ETH', side: 'BUY', order_type: 'LIMIT', limit_price: at('0.9'), size: '0.5', leverage: 5, sl: { trigger_price: at('0.8') } } });
  const placedLater = await app.call('orders:place', { preview_id: resting.preview_id });
  const armedId = placedNow.legs.find((l) => l.label === 'tp')!.order_id!;
  const waitingId = placedLater.legs.find((l) => l.label === 'sl')!.order_id!;
  await expect
    .poll(async () => {
      await app!.advance(500);
      return (await app!.call('orders:listTriggers', { market: 'ETH' })).triggers.some((t) => t.order_id === armedId && t.armed);
    }, { timeout: 15_000 })
    .toBe(true);

  await goToViewByKey(page, 'Control+2', 'History');
  const history = page.getByRole('table', { name: 'Order history' });
  const armedRow = history.getByRole('row').filter({ hasText: armedId });
  const waitingRow = history.getByRole('row').filter({ hasText: waitingId });
  await expect(armedRow).toContainText('armed', { timeout: 10_000 });
  await expect(armedRow).not.toContainText(/\bopen\b/);
  await expect(waitingRow).toContainText('awaiting entry');
  await expect(waitingRow).not.toContainText(/\bopen\b/);
  await history.getByRole('button', { name: /^Show status changes of ETH Take profit sell/ }).click();
  const changes = history.getByRole('list', { name: `Status changes of ${armedId}` });
  await expect(changes.getByRole('listitem')).toHaveText([/awaiting entry/, /armed/]);
  await screenshot(page, 'history-bracket-legs-1440x900');
  expect(pageErrors).toEqual([]);
});

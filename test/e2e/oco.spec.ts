/**
 * An OCO pair from the ticket (issue 38, item 2): the OCO type with a buy price below the mark and a sell
 * price above it; bad numbers and a leg past the mark refused at the field (OCO_LEG_WOULD_FILL) before
 * anything is sent; the review of both legs (side, price, size, leverage) and what happens; the pair in
 * the OCO tab of the algorithms panel; the mark falls through the buy, which fills, and main cancels the
 * sell; a damaged record in the data folder is listed as damaged with no actions. Screenshots at
 * 1440x900 and 1024x680 of the ticket, the review and the panel; each new surface passes the audit.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { auditScreen } from './harness/axeAudit.js';
import { screenshotBothSizes } from './harness/riskSteps.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

async function audited(page: Page, screen: string): Promise<void> {
  const audit = await auditScreen(page, screen);
  expect(audit.serious, `${screen}: ${audit.examples.join('\n')}`).toEqual({});
}

/** The sim profile's `oco` folder in the app's data folder. */
function ocoFolder(root: string): string {
  const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [path.join(d, e.name), ...walk(path.join(d, e.name))] : []));
  const dir = walk(root).find((d) => path.basename(d) === 'oco');
  if (!dir) throw new Error(`no oco folder under ${root}`);
  return dir;
}

test('an OCO pair from the ticket: refused at the field, reviewed leg by leg, watched in the OCO tab, the fill of one cancels the other; a damaged one listed', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await openApp(page, server, 'oco', { onboard: true });
  await app.control('freeze-marks', {});
  await app.setMark('ETH', '3400');
  await app.advance(1_000);
  await page.getByRole('option', { name: /^ETH / }).click();
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'OCO (one cancels the other)' }).click();
  // The ticket judges against the venue's live mark (3,400 give or take the book), main against the service's.
  await expect(ticket).toContainText(/Mark 3,(39\d|40\d)/);
  // An OCO has both sides: the side switch goes.
  await expect(ticket.getByRole('radio', { name: 'Buy' })).toHaveCount(0);
  const buy = ticket.getByLabel('Buy price (below the mark)');
  const sell = ticket.getByLabel('Sell price (above the mark)');
  const submit = ticket.getByRole('button', { name: 'Review OCO ETH' });

  // Hostile input, at its field; nothing is sent.
  await ticket.getByLabel('Size of each leg (ETH)').fill('0.05');
  await buy.fill('3450');
  await sell.fill('3,500');
  await expect(buy).toHaveAccessibleDescription(/OCO_LEG_WOULD_FILL: the buy must be below the mark 3,(39\d|40\d)/);
  await expect(sell).toHaveAccessibleDescription(/Not a number/);
  await expect(buy).toHaveAttribute('aria-invalid', 'true');
  await expect(submit).toBeDisabled();
  await sell.fill('3390');
  await expect(sell).toHaveAccessibleDescription(/OCO_LEG_WOULD_FILL: the sell must be above the mark 3,(39\d|40\d)/);
  await buy.fill('3300');
  await sell.fill('3500');
  await expect(submit).toBeEnabled();
  await expect(ticket).toContainText('Buy leg value');
  await screenshotBothSizes(page, 'oco-ticket');
  await audited(page, 'OCO ticket');
  expect(app.events.filter((e) => e.channel.includes('oco'))).toEqual([]);

  await submit.click();
  const review = page.getByRole('dialog', { name: 'Review OCO · ETH' });
  const buyLeg = review.getByRole('region', { name: 'Leg 1: buy' });
  const sellLeg = review.getByRole('region', { name: 'Leg 2: sell' });
  await expect(buyLeg).toContainText('Buy / Long');
  await expect(buyLeg).toContainText('3,300');
  await expect(buyLeg).toContainText('0.05 ETH');
  await expect(sellLeg).toContainText('Sell / Short');
  await expect(sellLeg).toContainText('3,500');
  const leverage = await ticket.locator('#ticket-leverage').inputValue();
  await expect(buyLeg).toContainText(`${leverage}x`);
  await expect(sellLeg).toContainText(`${leverage}x`);
  await expect(review).toContainText(`Buy 0.05 ETH at 3,300 or sell 0.05 at 3,500, whichever fills first, each at ${leverage}x`);
  await expect(review).toContainText('Mark now');
  await expect(review).toContainText('quitting leaves both legs resting, and the pair is taken up again when the app runs');
  await screenshotBothSizes(page, 'oco-review');
  await audited(page, 'OCO review');
  await review.getByRole('button', { name: 'Send OCO pair' }).click();
  await expect(review).toBeHidden();

  // The OCO tab: the pair, both legs resting, watched here, Cancel offered.
  await page.getByRole('tab', { name: /^OCO/ }).click();
  const panel = page.getByRole('table', { name: 'OCO pairs' });
  const row = panel.getByRole('row', { name: /^ETH OCO [0-9a-f]{12}$/ });
  await expect(row.getByLabel('Leg 1', { exact: true })).toContainText('Buy 0.05 @ 3,300 · open', { timeout: 10_000 });
  await expect(row.getByLabel('Leg 2', { exact: true })).toContainText('Sell 0.05 @ 3,500 · open');
  await expect(row).toContainText('watched here');
  await expect(row.getByRole('button', { name: /^Cancel ETH OCO/ })).toBeVisible();
  expect(app.core.backgroundWork.active()).toEqual([expect.objectContaining({ kind: 'oco', label: 'OCO ETH: buy 0.05 at 3300 / sell at 3500' })]);
  await screenshotBothSizes(page, 'oco-panel');
  await audited(page, 'OCO panel');

  // The mark falls through the buy: it fills; main cancels the sell.
  await app.setMark('ETH', '3290');
  await expect(async () => {
    await app!.advance(1_000);
    await expect(row).toContainText('done', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row.getByLabel('Leg 1', { exact: true })).toContainText('· filled');
  await expect(row.getByLabel('Leg 2', { exact: true })).toContainText('· cancelled');
  await expect(row.getByLabel('Last', { exact: true })).toContainText('cancelled; the pair is done');
  await expect(row.getByRole('button', { name: /^Cancel ETH OCO/ })).toHaveCount(0);
  expect(app.core.backgroundWork.active()).toEqual([]);
  await screenshotBothSizes(page, 'oco-panel-done');

  // A damaged record (its legs' client order ids are another pair's): listed as damaged, no actions.
  const dir = ocoFolder(app.dataDir);
  const [file] = fs.readdirSync(dir).filter((f) => /^[0-9a-f]{12}\.json$/.test(f));
  const record = JSON.parse(fs.readFileSync(path.join(dir, file!), 'utf8'));
  fs.writeFileSync(path.join(dir, 'dddddddddddd.json'), JSON.stringify({ ...record, id: 'dddddddddddd', status: 'working' }), { mode: 0o600 });
  await page.reload();
  await page.getByRole('tab', { name: /^OCO/ }).click();
  const damaged = page.getByRole('row', { name: 'ETH OCO dddddddddddd (damaged)' });
  await expect(damaged.getByLabel('Damage')).toContainText('client order id');
  await expect(damaged.getByRole('button')).toHaveCount(0);
  await screenshotBothSizes(page, 'oco-panel-damaged');
  await audited(page, 'OCO panel with a damaged pair');
  expect(pageErrors).toEqual([]);
});

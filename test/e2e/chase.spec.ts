/**
 * A chase from the ticket (issue 38, item 3): the Chase type (side, size, offset ticks, max distance,
 * timeout, cross-after, leave|cancel at a limit; post-only stated; the leverage shown); bad numbers in
 * every field refused at the field before anything is sent; the review (where the first order rests now,
 * from the live book; post-only; what stops it); the chase in the Chase tab of the algorithms panel; the
 * chart's "Chase" line in place of a plain limit line, not draggable, following the order after the book
 * moves; Stop · cancel; a damaged record listed with no actions. Keyboard only from the order type to the
 * started chase. Screenshots at 1440x900 and 1024x680; each new surface passes the audit.
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

/** The sim profile's `chases` folder in the app's data folder. */
function chaseFolder(root: string): string {
  const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [path.join(d, e.name), ...walk(path.join(d, e.name))] : []));
  const dir = walk(root).find((d) => path.basename(d) === 'chases');
  if (!dir) throw new Error(`no chases folder under ${root}`);
  return dir;
}

/** The simulator's best bid of ETH now. */
async function bestBid(a: E2eApp): Promise<string> {
  const b = await a.core.desks.markets.book({ market: 'ETH' });
  return b.bids[0]!.price;
}

test('a chase from the ticket: refused at the field, reviewed, chasing in the Chase tab and on the chart, follows the book, stopped; a damaged one listed', async ({ page, server, pageErrors }) => {
  test.setTimeout(150_000);
  app = await openApp(page, server, 'chase', { onboard: true });
  await app.control('freeze-marks', {});
  await app.setMark('ETH', '3400');
  await app.advance(1_000);
  await page.getByRole('option', { name: /^ETH / }).click();
  const ticket = page.getByRole('form', { name: 'Order ticket' });

  // Keyboard only: onto the order type's checked option, then End (the last type: Chase).
  const types = ticket.getByRole('radiogroup', { name: 'Order type' });
  await types.getByRole('radio', { checked: true }).focus();
  await page.keyboard.press('End');
  const chaseType = ticket.getByRole('radio', { name: 'Chase (post-only, follows the best bid or ask)' });
  await expect(chaseType).toBeChecked();
  await expect(chaseType).toBeFocused();
  await expect(ticket).toContainText('Post-only (ALO): rests at the best bid');
  const size = ticket.getByLabel('Size to fill (ETH)');
  const offset = ticket.getByLabel('Offset (ticks inside)');
  const maxDistance = ticket.getByLabel('Max distance (optional)');
  const timeout = ticket.getByLabel('Timeout (optional)');
  const takerAfter = ticket.getByLabel('Cross after (optional)');
  const submit = ticket.getByRole('button', { name: 'Chase Buy / Long ETH' });

  // Hostile input in every field, at its field; nothing is sent.
  await size.fill('1e-2');
  await expect(size).toHaveAccessibleDescription(/Not a number/);
  await size.fill('0.00001');
  await expect(size).toHaveAccessibleDescription(/At most 4 decimal places/);
  await size.fill('0.0001');
  await expect(size).toHaveAccessibleDescription(/below the minimum/);
  await offset.fill('1.5');
  await expect(offset).toHaveAccessibleDescription(/'1.5' is not a whole number of ticks/);
  await offset.fill('5000');
  await expect(offset).toHaveAccessibleDescription(/at most 1000 ticks/);
  await maxDistance.fill('far');
  await expect(maxDistance).toHaveAccessibleDescription(/is not a percent \(such as 0.5%\) or a price distance/);
  await maxDistance.fill('150%');
  await expect(maxDistance).toHaveAccessibleDescription(/below 100%/);
  await maxDistance.fill('0.01');
  await expect(maxDistance).toHaveAccessibleDescription(/Less than one tick/);
  await timeout.fill('30');
  await expect(timeout).toHaveAccessibleDescription(/a number needs a unit, such as 30s/);
  await timeout.fill('2m');
  await takerAfter.fill('5m');
  await expect(takerAfter).toHaveAccessibleDescription(/Shorter than the timeout/);
  for (const f of [size, offset, maxDistance, takerAfter]) await expect(f).toHaveAttribute('aria-invalid', 'true');
  await expect(submit).toBeDisabled();
  expect(app.events.filter((e) => e.channel.includes('chase'))).toEqual([]);

  // Good values, typed from the keyboard.
  await size.fill('');
  await size.focus();
  await page.keyboard.type('0.05');
  await offset.fill('0');
  await maxDistance.fill('2%');
  await timeout.fill('10m');
  await takerAfter.fill('');
  await ticket.getByRole('radio', { name: 'Leave the order resting' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(ticket.getByRole('radio', { name: 'Cancel the order' })).toHaveAttribute('aria-checked', 'true');
  await expect(submit).toBeEnabled();
  await expect(ticket).toContainText(/Fee \(maker/);
  const leverage = await ticket.locator('#ticket-leverage').inputValue();
  await expect(ticket).toContainText(`${leverage}x`);
  await screenshotBothSizes(page, 'chase-ticket');
  await audited(page, 'Chase ticket');

  await submit.focus();
  await page.keyboard.press('Enter');
  const review = page.getByRole('dialog', { name: 'Review chase · ETH' });
  const first = review.getByRole('region', { name: 'First order' });
  const bid = await bestBid(app);
  await expect(first).toContainText('Buy / Long');
  await expect(first).toContainText('LIMIT post-only (ALO)');
  await expect(first).toContainText('At the best bid');
  await expect(first).toContainText('0.05 ETH');
  await expect(first).toContainText(`${leverage}x`);
  const restsAt = await first.getByText('Rests at now').locator('..').innerText();
  expect(restsAt.replace(/,/g, '')).toContain(String(Number(bid)));
  await expect(review).toContainText('Leave the order resting'.replace('Leave the order resting', 'Cancel the order'));
  await expect(review).toContainText(`Buy 0.05 ETH post-only at`);
  await expect(review).toContainText('It stops when the best bid is 2%');
  await expect(review).toContainText('Quitting cancels the order and ends the chase');
  await screenshotBothSizes(page, 'chase-review');
  await audited(page, 'Chase review');
  await review.getByRole('button', { name: 'Start chase' }).focus();
  await page.keyboard.press('Enter');
  await expect(review).toBeHidden();

  // The Chase tab: chasing here, filled of size, the price now and at the start, Stop offered.
  await page.getByRole('tab', { name: /^Chase/ }).click();
  const panel = page.getByRole('table', { name: 'Chases' });
  const row = panel.getByRole('row', { name: /^ETH chase [0-9a-f]{12}$/ });
  await expect(row).toContainText('chasing', { timeout: 10_000 });
  await expect(row.getByLabel('Filled', { exact: true })).toHaveText('0 / 0.05');
  await expect(row.getByLabel('Price now', { exact: true })).not.toHaveText('—', { timeout: 10_000 });
  const firstPrice = (await row.getByLabel('Price now', { exact: true }).innerText()).replace(/,/g, '');
  await expect(row.getByLabel('Start price', { exact: true })).toContainText('from');
  await expect(row.getByLabel('Distance', { exact: true })).toContainText('(2%)');
  await expect(row.getByLabel('Re-prices', { exact: true })).toHaveText('0');
  await expect(row.getByRole('button', { name: /^Stop · leave, ETH chase [0-9a-f]{12}: its order keeps resting$/ })).toBeVisible();
  await expect(row.getByRole('button', { name: /^Stop · cancel, ETH chase [0-9a-f]{12}: its order is cancelled$/ })).toBeVisible();
  expect(app.core.backgroundWork.active()).toEqual([expect.objectContaining({ kind: 'chase', label: expect.stringMatching(/^Chase ETH: buy 0\.05 at [\d,.]+, 0 filled$/) })]);
  await screenshotBothSizes(page, 'chase-panel');
  await audited(page, 'Chase panel');

  // The chart: a "Chase" line at the order's price, in place of its plain "Buy 0.05" limit line, not draggable.
  const lines = page.getByRole('note', { name: 'Chart lines' });
  // The page knows the order as an open order (a plain limit line would be drawn for it, but for the chase).
  // (The order stream polls on the simulator's clock.)
  await expect(async () => {
    await app!.advance(200);
    await expect(page.getByRole('tab', { name: 'Open orders 1' })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(lines).toContainText(`Chase buy 0.05 ${Number(firstPrice).toLocaleString('en-US', { minimumFractionDigits: 1 })}`);
  await expect(lines).not.toContainText('Buy 0.05');
  await expect(page.getByRole('button', { name: /Drag .*0\.05/ })).toHaveCount(0);
  await screenshotBothSizes(page, 'chase-chart');
  await audited(page, 'Chart with a chase line');

  // The book moves up: the order follows (Modify), the row and the chart line with it.
  await app.setMark('ETH', '3420');
  await expect(async () => {
    await app!.advance(1_000);
    await expect(row.getByLabel('Re-prices', { exact: true })).not.toHaveText('0', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const movedPrice = (await row.getByLabel('Price now', { exact: true }).innerText()).replace(/,/g, '');
  expect(Number(movedPrice)).toBeGreaterThan(Number(firstPrice));
  await expect(lines).toContainText(`Chase buy 0.05 ${Number(movedPrice).toLocaleString('en-US', { minimumFractionDigits: 1 })}`);
  await expect(lines).not.toContainText('Buy 0.05');
  await expect(lines).not.toContainText(`Chase buy 0.05 ${Number(firstPrice).toLocaleString('en-US', { minimumFractionDigits: 1 })}`);
  await screenshotBothSizes(page, 'chase-chart-followed');

  // Stop · cancel: over, the order cancelled, the line gone, nothing in the background.
  await row.getByRole('button', { name: /^Stop · cancel/ }).focus();
  await page.keyboard.press('Enter');
  // The cancel is confirmed on the simulator's clock.
  await expect(async () => {
    await app!.advance(500);
    await expect(row).toContainText('stopped', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row.getByLabel('Price now', { exact: true })).toHaveText('—');
  await expect(row.getByRole('button')).toHaveCount(1); // the market link only
  await expect(lines).not.toContainText('Chase');
  expect(app.core.backgroundWork.active()).toEqual([]);

  // A damaged record (its order's client order id is another chase's): listed as damaged, no actions.
  const dir = chaseFolder(app.dataDir);
  const [file] = fs.readdirSync(dir).filter((f) => /^[0-9a-f]{12}\.json$/.test(f));
  const record = JSON.parse(fs.readFileSync(path.join(dir, file!), 'utf8'));
  fs.writeFileSync(path.join(dir, 'dddddddddddd.json'), JSON.stringify({ ...record, id: 'dddddddddddd', status: 'working', end_reason: null, order: { order_id: '1', client_order_id: `chase-${record.id}-1`, price: '3400', size: '0.05', kind: 'post', filled_size: '0', sent_at: 1 } }), { mode: 0o600 });
  await page.reload();
  await page.getByRole('tab', { name: /^Chase/ }).click();
  const damaged = page.getByRole('row', { name: 'ETH chase dddddddddddd (damaged)' });
  await expect(damaged.getByLabel('Damage')).toContainText('client order id');
  await expect(damaged.getByRole('button')).toHaveCount(0);
  await screenshotBothSizes(page, 'chase-panel-damaged');
  await audited(page, 'Chase panel with a damaged chase');
  expect(pageErrors).toEqual([]);
});

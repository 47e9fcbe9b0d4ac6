/**
 * Portfolio (issue 27, item 1), as a trader sees it: after a session with fills on two markets, a partial
 * close, funding hours and moving marks, the Portfolio view shows the equity curve, PnL per day, the
 * per-market table and a balanced ledger (rebuilt cash = free balance + posted margin, rebuilt equity =
 * live equity); ranges and the Equity/PnL switch redraw it; a curve CSV is exported. Screenshots at
 * 1440x900 and 1024x680.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IpcRequest } from '../../src/shared/ipc.js';
import type { E2eApp } from './harness/appHarness.js';
import { expect, openApp, test } from './harness/fixtures.js';
import { screenshotBothSizes } from './harness/riskSteps.js';
import { auditScreen } from './harness/axeAudit.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const HOUR = 3_600_000;

/** Reviews and places one market order through the app's own channels, then lets the simulator fill it. */
async function market(a: E2eApp, intent: Omit<Extract<IpcRequest<'orders:preview'>['intent'], { kind: 'single' }>, 'kind' | 'order_type'>): Promise<void> {
  const preview = await a.call('orders:preview', { intent: { kind: 'single', order_type: 'MARKET', ...intent } });
  const placed = await a.call('orders:place', { preview_id: preview.preview_id, confirm: preview.confirmations.map((c) => c.code) });
  expect(placed.legs.map((l) => l.status)).toEqual(['SUBMITTED']);
  await a.advance(1_000);
}

async function nudge(a: E2eApp, symbol: string, factor: number): Promise<void> {
  const mark = Number(await a.mark(symbol));
  await a.setMark(symbol, (Math.round(mark * factor * 10) / 10).toFixed(1));
}

test('the portfolio of a session: curve, PnL per day, per market, and a balanced ledger', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'portfolio', { onboard: true });
  await market(app, { market: 'ETH', side: 'BUY', size: '2', leverage: 5 });
  await market(app, { market: 'BTC', side: 'SELL', size: '0.1', leverage: 3 });
  for (const [eth, btc] of [
    [1.01, 0.995],
    [1.015, 0.99],
    [0.995, 1.004],
    [1.02, 0.985],
  ] as const) {
    await nudge(app, 'ETH', eth);
    await nudge(app, 'BTC', btc);
    await app.advance(HOUR);
  }
  await market(app, { market: 'ETH', side: 'SELL', size: '0.8', reduce_only: true });
  await market(app, { market: 'BTC', side: 'BUY', size: '0.1', reduce_only: true });
  await nudge(app, 'ETH', 1.01);
  await app.advance(HOUR);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Portfolio' }).click();
  await expect(page.getByRole('heading', { name: 'Portfolio', exact: true })).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Range' }).getByRole('radio', { name: '1D' }).click();
  const ledger = page.getByRole('status').filter({ hasText: 'Ledger balanced' });
  await expect(ledger).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'Ledger mismatch' })).toHaveCount(0);
  const table = page.getByRole('table', { name: 'Per market' });
  await expect(table.getByRole('row', { name: /^ETH / })).toBeVisible();
  await expect(table.getByRole('row', { name: /^BTC / })).toBeVisible();
  const summary = page.getByLabel('Portfolio summary');
  await expect(summary).toContainText('Fees paid');
  await expect(summary).toContainText('2 won · 0 lost');
  await expect(page.getByRole('figure', { name: 'Equity curve' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'PnL per day' })).toBeVisible();
  await screenshotBothSizes(page, 'portfolio');

  await page.getByRole('radiogroup', { name: 'Curve' }).getByRole('radio', { name: 'PnL' }).click();
  await expect(page.getByRole('figure', { name: 'PnL curve' })).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Range' }).getByRole('radio', { name: 'All' }).click();
  await expect(page.locator('.portfolio')).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
  // A session of a few hours: "all" is drawn at the 1D range's 5-minute bars, from the first record.
  await expect(page.getByText(/5m bars/)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('Portfolio summary')).toContainText('PnL · All');
  await expect(ledger).toBeVisible();
  await screenshotBothSizes(page, 'portfolio-all-pnl');

  // The curve as CSV, through the history export's writer.
  const file = path.join(app.dataDir, 'curve.csv');
  app.nextSaveFile = file;
  await page.getByRole('button', { name: 'Curve CSV' }).click();
  await expect(page.getByText('CSV exported')).toBeVisible();
  const lines = fs.readFileSync(file, 'utf8').split('\r\n');
  expect(lines[0]).toBe('time,equity,pnl');
  expect(lines.length).toBeGreaterThan(2);
  expect(pageErrors).toEqual([]);
});

test('a long portfolio read shows how far it is, is cancelled from the keyboard, and a read past the deadline says so', async ({ page, server, pageErrors }) => {
  test.setTimeout(150_000);
  app = await openApp(page, server, 'portfolio-slow', { onboard: true, core: { portfolioDeadlineMs: 12_000 } });
  // A slow service: every trading API request waits 2.5 s (the simulator's chaos latency).
  await app.control('chaos', { latency_ms: 2_500 });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Portfolio' }).click();
  const reading = page.getByLabel('Portfolio read');
  await expect(reading.getByRole('status')).toHaveText('Reading every page of the account’s history…');
  // Pages and records read so far, against the time spent and the deadline.
  const counts = reading.getByLabel('Read so far');
  await expect(counts).toHaveText(/^\d of 6 markets · [1-9]\d* pages · \d+ records · \d+ s of 12 s allowed$/, { timeout: 10_000 });
  await expect(reading.getByRole('progressbar', { name: /^Markets read: \d of 6$/ })).toBeVisible();
  const audit = await auditScreen(page, 'Portfolio reading 1440x900');
  expect.soft(audit.serious, audit.examples.join('\n')).toEqual({});
  await screenshotBothSizes(page, 'portfolio-reading');

  // Cancel from the keyboard: main stops asking the service; the view says the read was cancelled.
  const cancel = reading.getByRole('button', { name: 'Cancel reading' });
  await cancel.focus();
  await page.keyboard.press('Enter');
  const cancelled = page.getByRole('alert').filter({ hasText: 'Reading cancelled' });
  await expect(cancelled).toBeVisible();
  await expect(cancelled).toContainText('PORTFOLIO_CANCELLED');
  await expect(cancelled).toContainText(/the portfolio read was cancelled after \d+ page\(s\)/);
  await expect(reading).toHaveCount(0);

  // Slower still: the read passes its deadline, and the view says so plainly, with how far it got.
  await app.control('chaos', { latency_ms: 4_000 });
  await cancelled.getByRole('button', { name: 'Retry' }).click();
  await expect(reading).toBeVisible();
  const late = page.getByRole('alert').filter({ hasText: 'The service answered too slowly' });
  await expect(late).toBeVisible({ timeout: 30_000 });
  await expect(late).toContainText('PORTFOLIO_DEADLINE');
  await expect(late).toContainText(/the portfolio read stopped after 12 s: \d+ page\(s\), \d+ row\(s\), \d of 6 market\(s\) read/);
  await expect(late).toContainText('Try again when the service answers faster; nothing was changed.');
  const lateAudit = await auditScreen(page, 'Portfolio deadline 1440x900');
  expect.soft(lateAudit.serious, lateAudit.examples.join('\n')).toEqual({});
  await screenshotBothSizes(page, 'portfolio-deadline');

  // The service recovers: Retry rebuilds the report.
  await app.control('chaos', { latency_ms: 0 });
  await late.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ledger balanced' })).toBeVisible({ timeout: 20_000 });
  await expect(reading).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});


/**
 * A TWAP from the ticket on the simulator's clock (each of the app's waits, the TWAP's for its next
 * slice among them, ends when the scenario moves that clock): its schedule refused when slices would be
 * closer than 5 s, the review (schedule, arrival mark, slice 1's order), then the TWAP tab's progress
 * (filled of target, average against the arrival mark, next slice), pause and resume, the run to its
 * target; a second TWAP cancelled; and after the app restarts mid-TWAP, the prompt that asks to resume
 * or stop it; and a TWAP whose stored record is damaged, shown as damaged with what is wrong, no actions,
 * and never offered for resuming by the restart prompt.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { TwapView } from '../../src/shared/ipc.js';
import { eventWireChannel } from '../../src/shared/ipc/channels.js';
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { screenshotBothSizes } from './harness/riskSteps.js';
import { pausedRecord } from '../support/twapRecords.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

async function fillTwap(page: Page, size: string, duration: string, slices: string): Promise<void> {
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await ticket.getByRole('radio', { name: 'Buy' }).click();
  await ticket.getByRole('radio', { name: 'TWAP' }).click();
  await ticket.getByLabel('Total size (ETH)').fill(size);
  await ticket.getByLabel('Duration', { exact: true }).fill(duration);
  await ticket.getByLabel('Slices').fill(slices);
}

/**
 * Moves the simulator's clock `stepMs` at a time until `check` passes: a TWAP's slice comes due, its
 * order is placed and its fill polled, each on that clock. `check` should wait briefly (500 ms).
 */
async function advanceUntil(check: () => Promise<void>, stepMs = 1_000): Promise<void> {
  await expect(async () => {
    await app!.advance(stepMs);
    await check();
  }).toPass({ timeout: 30_000, intervals: [50] });
}

async function startTwap(page: Page): Promise<void> {
  await page.getByRole('form', { name: 'Order ticket' }).getByRole('button', { name: 'TWAP Buy / Long ETH' }).click();
  const review = page.getByRole('dialog', { name: 'Review TWAP · ETH' });
  await review.getByRole('button', { name: 'Start TWAP' }).click();
  await expect(review).toBeHidden();
}

test('a TWAP from the ticket: reviewed, followed in the TWAP tab, paused, resumed, run to its target; another cancelled', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await openApp(page, server, 'twap', { onboard: true, sleepOnSimClock: true });
  await page.getByRole('option', { name: /^ETH / }).click();
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  // 4 slices in 15 s would be 3.75 s apart: refused before anything is sent.
  await fillTwap(page, '0.04', '15s', '4');
  await expect(ticket).toContainText('at least 5 s: use at most 3 slices');
  await expect(ticket.getByRole('button', { name: 'TWAP Buy / Long ETH' })).toBeDisabled();
  await ticket.getByLabel('Slices').fill('3');
  await expect(ticket).toContainText('every 5 s');

  await ticket.getByRole('button', { name: 'TWAP Buy / Long ETH' }).click();
  const review = page.getByRole('dialog', { name: 'Review TWAP · ETH' });
  await expect(review).toContainText('Buy 0.04 ETH in 3 slices, one every 5 s, over 15 s.');
  await expect(review).toContainText('Arrival mark');
  await expect(review).toContainText(/Slice 1 as it would be signed now: Buy 0\.013\d ETH at market/);
  await screenshotBothSizes(page, 'twap-review');
  await review.getByRole('button', { name: 'Start TWAP' }).click();
  await expect(review).toBeHidden();

  await page.getByRole('tab', { name: 'TWAP' }).click();
  const row = page.getByRole('row', { name: /^ETH TWAP [0-9a-f]{12}$/ });
  const progress = row.getByRole('progressbar');
  await advanceUntil(() => expect(progress).toHaveAttribute('aria-valuetext', /^0\.013\d of 0\.04$/, { timeout: 500 }));
  await expect(row.getByLabel('Next slice')).toContainText(/\d\d:\d\d:\d\d \((in \d+s|now)\)/);
  await expect(row.getByLabel('Average vs arrival')).toContainText(/ vs [\d,.]+ \([\d.]+ bps (worse|better)\)|\(0\.0 bps at\)/);
  await screenshotBothSizes(page, 'twap-running');

  await row.getByRole('button', { name: /^Pause ETH TWAP/ }).click();
  await expect(row).toContainText('paused');
  await row.getByRole('button', { name: /^Resume ETH TWAP/ }).click();
  await expect(row).toContainText('running');
  await advanceUntil(() => expect(progress).toHaveAttribute('aria-valuetext', '0.04 of 0.04', { timeout: 500 }), 2_500);
  await expect(row).toContainText('completed');

  // A second one, cancelled after its first slice: the rest is skipped.
  await fillTwap(page, '0.04', '30s', '4');
  await startTwap(page);
  const second = page.getByRole('row', { name: /^ETH TWAP / }).first();
  // A second at a time: slice 2 is 7.5 s after slice 1, so the clock stops well before it.
  await advanceUntil(() => expect(second.getByRole('progressbar')).toHaveAttribute('aria-valuetext', /^0\.01 of 0\.04$/, { timeout: 500 }));
  await second.getByRole('button', { name: /^Cancel ETH TWAP/ }).click();
  await expect(second).toContainText('cancelled');
  await expect(second.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '0.01 of 0.04');
  expect(pageErrors).toEqual([]);
});

test('a TWAP running when the app quits asks, after the restart, to resume or stop it', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  app = await openApp(page, server, 'twap-restart', { onboard: true, sleepOnSimClock: true });
  await page.getByRole('option', { name: /^ETH / }).click();
  await fillTwap(page, '0.04', '30s', '4');
  await startTwap(page);
  await page.getByRole('tab', { name: 'TWAP' }).click();
  await advanceUntil(() => expect(page.getByRole('row', { name: /^ETH TWAP / }).getByRole('progressbar')).toHaveAttribute('aria-valuetext', '0.01 of 0.04', { timeout: 500 }));

  // The simulator saves its clock with its state: the next launch goes on from the same time.
  await app.restartCore();
  // The last progress event of the TWAP let go at quit still says `running`. Landing in the reloaded page
  // before main's list answers, it must not decide the prompt. Every time: the list is held until the
  // page's listener has taken that event. It makes no list of its own (the TWAP tab counts no TWAP): a
  // list of one event would stand for main's, without its damaged TWAPs, until it went stale.
  const last = app.events.filter((e) => e.channel === eventWireChannel('twap')).at(-1)!.payload as { twaps: TwapView[] };
  expect(last.twaps[0]).toMatchObject({ status: 'running', slices_sent: 1 });
  const list = app.holdAnswers('twap:list');
  await page.reload();
  await list.asked;
  await expect.poll(() => app!.deliver(eventWireChannel('twap'), last), { timeout: 10_000 }).toBeGreaterThan(0);
  // A second more with only that event, so every view has acted on it before the answer is let through
  // (the prompt of 70d6d10 decided from it and never opened in 2 of 3 runs here, and once on CI).
  await page.waitForTimeout(1_000);
  await expect(page.getByRole('tab', { name: 'TWAP' })).toHaveText('TWAP');
  list.release();
  const prompt = page.getByRole('dialog', { name: 'Interrupted TWAPs' });
  await expect(prompt).toBeVisible({ timeout: 15_000 });
  await expect(prompt).toContainText('Filled 0.01 of 0.04 · 1 of 4 slices sent');
  await screenshotBothSizes(page, 'twap-restart-prompt');
  // Waiting: nothing is sent while the person decides, not even once the service's clock has passed the
  // time of the slice after the missed one, jitter included (every wait of the app ends on that clock).
  const waiting = (await app.call('twap:list', {})).twaps[0]!;
  const jitter = (waiting.interval_ms * waiting.randomize_time_pct) / 100;
  const pastNextSlice = waiting.created_at + (waiting.slices_sent + 1) * waiting.interval_ms + jitter + 1_000;
  await app.advance(pastNextSlice - app.sim.clock.now());
  expect((await app.call('twap:list', {})).twaps[0]).toMatchObject({ status: 'interrupted', slices_sent: 1 });
  await prompt.getByRole('button', { name: 'Resume' }).click();
  await expect(prompt).toBeHidden();
  await page.getByRole('tab', { name: 'TWAP' }).click();
  const row = page.getByRole('row', { name: /^ETH TWAP / });
  await expect(row).toContainText('running');
  // The slice due while the app was closed is missed, reported, and not sent late.
  await expect(row).toContainText('missed', { timeout: 15_000 });
  const view = (await app.call('twap:list', {})).twaps[0]!;
  // Notes are stamped with their time (the algorithms share one format): the text follows the stamp.
  expect(view.notes.some((n) => /^\d{4}-\d\d-\d\dT[\d:.]+Z missed slice 2/.test(n))).toBe(true);
  // The panel's missed count explains itself with that note's text (the stamp left out). Slice 3 is due
  // less than half an interval before Resume (the clock stood still since), so it is not missed.
  const warn = row.locator('span.warn[title^="missed slice 2"]');
  await expect(warn).toHaveText(' · 1 missed');
  expect(await warn.getAttribute('title')).toMatch(/^missed slice 2 \(due /);
  await row.getByRole('button', { name: /^Cancel ETH TWAP/ }).click();
  // Slice 3, due at Resume, is in flight: the cancel takes effect once its fill is read, on the service's clock.
  await advanceUntil(() => expect(row).toContainText('cancelled', { timeout: 500 }), 250);
  expect(pageErrors).toEqual([]);
});

test('a damaged TWAP record is shown as damaged with the reason, offers no action, and is never offered for resuming', async ({ page, server, pageErrors }) => {
  test.setTimeout(60_000);
  app = await openApp(page, server, 'twap-damaged', { onboard: true });
  await app.call('twap:list', {});
  // Stored as running with no process holding it: a healthy one would be offered by the restart prompt.
  const r = { ...pausedRecord(app.mainWallet.address), status: 'running' as const, created_at: Date.now() - 60_000 };
  fs.writeFileSync(path.join(app.dataDir, 'twaps', `${r.id}.json`), JSON.stringify({ ...r, slices: [{ ...r.slices[0]!, filled_size: '-0.48' }, r.slices[1]] }, null, 2), { mode: 0o600 });
  await page.reload();
  const twapTab = page.getByRole('tab', { name: 'TWAP' });
  await expect(twapTab).toContainText('1', { timeout: 15_000 });
  await twapTab.click();
  const row = page.getByRole('row', { name: `ETH TWAP ${r.id} (damaged)` });
  await expect(row).toContainText('damaged');
  await expect(row.getByLabel('Damage')).toHaveText('slice 1 has filled_size -0.48 (must not be negative)');
  await expect(row).toContainText('Never resumed; nothing is sent for it.');
  await expect(row.getByLabel('Filled / target')).toHaveText('? / 0.02');
  await expect(row.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Interrupted TWAPs' })).toHaveCount(0);
  await screenshotBothSizes(page, 'twap-damaged');
  expect(pageErrors).toEqual([]);
});

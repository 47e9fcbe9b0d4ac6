/**
 * Optional sounds: silent by default; once switched on in Settings, a fill plays the fill chime and a
 * stop-loss firing plays the trigger tone. The page's WebAudio is observed, not replaced: an init script
 * records the pitch of every oscillator started (each sound is a few generated notes: the fill chime
 * starts at 880 Hz, the trigger tone is 659.3 Hz, the risk alarm starts at 587.3 Hz).
 */
import type { Page } from '@playwright/test';
import { expect, openApp, placeFromTicket, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Records the frequency of every OscillatorNode started in the page (window.__notes). */
const RECORD_NOTES = `(() => {
  const start = OscillatorNode.prototype.start;
  window.__notes = [];
  OscillatorNode.prototype.start = function (...args) { window.__notes.push(Math.round(this.frequency.value * 10) / 10); return start.apply(this, args); };
})();`;

const notes = (page: Page) => page.evaluate(() => (globalThis as unknown as { __notes: number[] }).__notes);
const FILL = 880;
const TRIGGER = 659.3;
const RISK = 587.3;

test('sounds are off until switched on; then fills and trigger fires play', async ({ page, server, pageErrors }) => {
  await page.addInitScript(RECORD_NOTES);
  app = await openApp(page, server, 'sounds', { onboard: true });
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

  // Off by default: a fill shows its toast and plays nothing.
  await placeFromTicket(page, 'SOL', { side: 'Buy', type: 'Market', size: '10' });
  await app.advance(1_000);
  await expect(page.getByRole('status').filter({ hasText: 'Filled Open Long · SOL' })).toBeVisible({ timeout: 10_000 });
  expect(await notes(page)).toEqual([]);

  await nav('Settings').click();
  const fills = page.getByRole('checkbox', { name: 'Sound on fills' });
  const fires = page.getByRole('checkbox', { name: 'Sound when a take-profit / stop-loss fires' });
  const risk = page.getByRole('checkbox', { name: 'Sound on liquidation warnings' });
  for (const box of [fills, fires, risk]) await expect(box).not.toBeChecked();
  await fills.check();
  await fires.check();
  await expect.poll(async () => app!.call('notifications:get', {})).toMatchObject({ sound_fills: true, sound_trigger_fires: true, sound_risk_warnings: false });
  // The preview plays without changing anything.
  await page.getByRole('button', { name: 'Play: Sound on liquidation warnings' }).click();
  await expect.poll(() => notes(page)).toContain(RISK);
  expect(await notes(page)).not.toContain(FILL);

  // A fill now plays the fill chime.
  await nav('Trade').click();
  await placeFromTicket(page, 'SOL', { side: 'Buy', type: 'Market', size: '5' });
  await app.advance(1_000);
  await expect(page.getByRole('status').filter({ hasText: 'Filled Open Long · SOL' })).toBeVisible({ timeout: 10_000 });
  await expect.poll(() => notes(page), { timeout: 10_000 }).toContain(FILL);
  expect(await notes(page)).not.toContain(TRIGGER);

  // A stop loss firing plays the trigger tone.
  const mark = await app.mark('SOL');
  const stop = (Number.parseInt(mark, 10) - 5).toString();
  await placeFromTicket(page, 'SOL', { side: 'Sell', type: 'Trigger', trigger: { kind: 'Stop loss', price: stop, wholePosition: true } });
  await app.advance(300);
  await app.setMark('SOL', `${Number.parseInt(stop, 10) - 1}.7`);
  await app.advance(1_000);
  await expect(page.getByRole('status').filter({ hasText: 'Trigger fired · SOL' })).toBeVisible({ timeout: 10_000 });
  await expect.poll(() => notes(page), { timeout: 10_000 }).toContain(TRIGGER);
  expect(pageErrors).toEqual([]);
});

/**
 * OCO pairs in the app (issue 38, item 2) through the BUILT main bundle under the fake Electron
 * (bootScenario.mjs, MODE oco-*), on the in-app simulator over loopback: a pair goes from oco:preview
 * (bad numbers and a leg past the mark refused at their field, nothing stored) to both legs resting; it
 * keeps the app in the tray, listed there; the mark falls through the buy, which fills, and the app
 * cancels the sell. A second pair left running asks at quit (named, and what quitting does to it); the
 * app started again on the same data folder takes it up once the wallet opens, the sell fills and the
 * buy is cancelled; a damaged record in the data folder is listed as damaged and never run.
 *
 * The trading key is the private keychain session's (npm test), under a service name of this test's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, context, ensureBuilt, removeBootCopies, type BootRun } from './bootRun.js';

beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => removeBootCopies());

const env = { PERPS_KEYCHAIN_SERVICE: `perps-desk-boot-oco-${process.pid}` };

function ranClean(run: BootRun, steps: string[]): void {
  expect(run.report, context(run)).not.toBeNull();
  expect(run.report.fatal, context(run)).toBeUndefined();
  expect(run.report.errors, context(run)).toEqual([]);
  expect(run.report.violations, context(run)).toEqual([]);
  expect(run.report.steps, context(run)).toEqual(steps);
  expect(run.code, context(run)).toBe(0);
}

/** The `oco` folder of the sim profile's data folder under the app's user data. */
function ocoFolder(userData: string): string {
  const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [path.join(d, e.name), ...walk(path.join(d, e.name))] : []));
  const dir = walk(userData).find((d) => path.basename(d) === 'oco');
  if (!dir) throw new Error(`no oco folder under ${userData}`);
  return dir;
}

describe('OCO pairs in the app', () => {
  it('run in main from a reviewed preview: a fill of one cancels the other, in the tray too; a restart takes a pair up; a damaged one is only listed', async () => {
    const first = await bootApp('oco-run', { env });
    ranClean(first, ['imported', 'window', 'wallet', 'oco', 'filled', 'quit']);
    const o = first.report.oco;
    // Hostile input: refused at its field, nothing stored.
    expect(o.refused).toMatchObject({
      notANumber: { code: 'VALIDATION', field: 'buy' },
      exponent: { code: 'VALIDATION', field: 'size' },
      buyPastMark: { code: 'VALIDATION', reason: 'OCO_LEG_WOULD_FILL', field: 'buy', message: expect.stringMatching(/buy below the ETH mark 3,400/) },
      sellPastMark: { code: 'VALIDATION', reason: 'OCO_LEG_WOULD_FILL', field: 'sell' },
      unknownKey: { code: 'INVALID_PAYLOAD' },
    });
    expect(o.pairsAfterRefusals).toBe(0);
    // The review: both legs as signed, with the leverage, and what happens.
    expect(o.preview.legs).toEqual([
      { side: 'BUY', price: '3300', size: '0.01', leverage: 5 },
      { side: 'SELL', price: '3500', size: '0.01', leverage: 5 },
    ]);
    expect(o.preview.mark).toBe('3400');
    expect(o.preview.summary[0]).toMatch(/^Buy 0\.01 ETH at 3,300 or sell 0\.01 at 3,500, whichever fills first, each at 5x; the fill of one cancels the other at once/);
    expect(o.started).toMatchObject({ status: 'working', runner: true });
    // A review is used once.
    expect(o.reused.code).toBe('REVIEW_EXPIRED');
    // Closed: hidden into the tray, which lists the pair.
    expect(o.afterClose).toMatchObject({ visible: false, destroyed: false, quitPhase: 'running' });
    expect(o.afterClose.tray.tooltip).toBe('Perps Desk: 1 OCO pair running');
    expect(o.afterClose.tray.items.map((i: { label: string }) => i.label)).toContain('OCO ETH: buy 0.01 at 3300 / sell at 3500');
    // The buy filled; the app cancelled the sell; nothing rests; the tray no longer lists it.
    expect(o.done).toMatchObject({ status: 'done', winner: 0, legs: ['filled', 'cancelled'] });
    expect(o.openOrdersAfterDone).toBe(0);
    expect(o.trayAfterDone).toBeNull();
    // Told once, from the pair's typed `stopped` event: the tray's own notice, then the outcome.
    expect(o.notificationsAfterDone).toEqual([
      { title: 'Perps Desk', body: expect.stringMatching(/^Perps Desk keeps running in the tray: 1 active \(1 OCO pair\)/) },
      { title: 'OCO pair ETH ended', body: 'leg 2 (sell at 3,500) cancelled; the pair is done' },
    ]);
    // Letting the second pair go at quit is the answer to the quit, not news.
    expect(o.notificationsAfterQuit).toEqual(o.notificationsAfterDone);
    // Quitting with a pair watched asks, naming it and what quitting does.
    expect(o.quitDialog.options.message).toBe('Quit Perps Desk? 1 OCO pair will stop.');
    expect(o.quitDialog.options.detail).toBe(
      '1 OCO pair:\n  • OCO ETH: buy 0.01 at 3200 / sell at 3400\nThe OCO pair is no longer watched: both orders keep resting at the service, and a fill of one while the app is closed cancels the other when the app runs again.',
    );

    // A damaged record beside it: a pair whose legs' client order ids are not its own.
    const dir = ocoFolder(first.userData);
    const second = JSON.parse(fs.readFileSync(path.join(dir, `${o.second.id}.json`), 'utf8'));
    expect(second.status).toBe('working');
    const damagedId = 'dddddddddddd';
    fs.writeFileSync(path.join(dir, `${damagedId}.json`), JSON.stringify({ ...second, id: damagedId }), { mode: 0o600 });

    const again = await bootApp('oco-resume', { env: { ...env, PERPS_BOOT_OCO_ID: o.second.id }, home: first.home, mainKey: first.mainKey });
    ranClean(again, ['imported', 'window', 'wallet', 'filled', 'quit']);
    const r = again.report.oco;
    expect(r.beforeWallet.tray).toBeNull();
    expect(r.takenUp).toEqual({ status: 'working', legs: ['open', 'open'] });
    expect(r.trayWhileWatched.items.map((i: { label: string }) => i.label)).toContain('OCO ETH: buy 0.01 at 3200 / sell at 3400');
    expect(r.damaged).toEqual([expect.objectContaining({ id: damagedId, status: 'damaged', market: 'ETH', damage: expect.stringMatching(/client order id/) })]);
    expect(r.done).toMatchObject({ status: 'done', winner: 1, legs: ['cancelled', 'filled'] });
    expect(r.openOrdersAfterDone).toBe(0);
    expect(r.notifications).toContainEqual({ title: 'OCO pair ETH ended', body: 'leg 1 (buy at 3,200) cancelled; the pair is done' });
  }, 300_000);
});

/**
 * Running in the tray (issue 27, item 5) through the BUILT main bundle under the fake Electron
 * (bootScenario.mjs, MODE tray-*): closing the window with nothing running quits as before; with a TWAP
 * running it hides into the tray, whose menu lists the TWAP, Open brings the window back, and Quit asks
 * naming the TWAP (Cancel keeps everything running; Quit quits and lets the TWAP go after its slice, as a
 * quit always did); with tray mode off, closing asks and then quits.
 *
 * The TWAP needs a trading key: the keychain is the private session's (npm test), under a service name of
 * this test's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, context, ensureBuilt, removeBootCopies, type BootRun } from './bootRun.js';

beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => removeBootCopies());

const env = { PERPS_KEYCHAIN_SERVICE: `perps-desk-boot-tray-${process.pid}` };

function ranClean(run: BootRun, steps: string[]): void {
  expect(run.report, context(run)).not.toBeNull();
  expect(run.report.fatal, context(run)).toBeUndefined();
  expect(run.report.errors, context(run)).toEqual([]);
  expect(run.report.violations, context(run)).toEqual([]);
  expect(run.report.steps, context(run)).toEqual(steps);
  expect(run.code, context(run)).toBe(0);
}

describe('running in the tray', () => {
  it('with nothing running, closing the window quits at once: no tray, no question', async () => {
    const run = await bootApp('tray-idle', { env });
    ranClean(run, ['imported', 'window', 'quit']);
    expect(run.report.tray).toEqual({ messageBoxes: 0, trays: 0, windowDestroyed: true, notifications: [] });
  }, 180_000);

  it('with a TWAP running, closing hides the window into the tray; Open shows it; Quit asks, Cancel keeps it running, Quit quits', async () => {
    const run = await bootApp('tray-twap', { env });
    ranClean(run, ['imported', 'window', 'twap', 'tray', 'quit']);
    const t = run.report.tray;
    expect(t.setting).toEqual({ keep_running_in_tray: true });
    expect(t.twap.status).toBe('running');

    // Closed: the window is hidden, not destroyed, the app runs, and the tray lists the TWAP.
    expect(t.afterClose).toMatchObject({ destroyed: false, visible: false, quitPhase: 'running' });
    expect(t.afterClose.tray.tooltip).toBe('Perps Desk: 1 TWAP running');
    const labels = (t.afterClose.tray.items as { type: string; label: string; enabled: boolean }[]).filter((i) => i.type !== 'separator');
    expect(labels.map((i) => i.label)).toEqual(['Open Perps Desk', 'Running: 1 TWAP', expect.stringMatching(/^TWAP buy 0\.02 ETH, [0-2] of 2 slices sent$/), 'Panic: close everything…', 'Quit Perps Desk']);
    expect(labels.find((i) => i.label === 'Running: 1 TWAP')?.enabled).toBe(false);
    // Told once, with how many are active.
    expect(t.afterClose.notifications).toEqual([{ title: 'Perps Desk', body: expect.stringMatching(/^Perps Desk keeps running in the tray: 1 active \(1 TWAP\)/) }]);

    // Open: the same window, shown again; the tray icon goes.
    expect(t.afterOpen).toEqual({ destroyed: false, visible: true, tray: null, windows: 1 });
    // Closed again: back in the tray, without a second notification.
    expect(t.afterSecondClose).toMatchObject({ visible: false, notifications: 1 });
    expect(t.afterSecondClose.tray).not.toBeNull();

    // Quit from the tray asks, on its own (the window is hidden), naming the TWAP and what happens to it.
    const dialog = t.quitDialog;
    expect(dialog.parent).toBeNull();
    expect(dialog.options).toMatchObject({ type: 'warning', message: 'Quit Perps Desk? 1 TWAP will stop.', buttons: ['Quit', 'Cancel'], defaultId: 1, cancelId: 1 });
    expect(dialog.options.detail).toMatch(/^1 TWAP:\n {2}• TWAP buy 0\.02 ETH, [0-2] of 2 slices sent\nThe TWAP pauses after its current slice/);
    expect(dialog.options.detail).not.toMatch(/trailing/);
    expect(dialog.response).toBe(1);
    // Cancel: nothing stopped.
    expect(t.afterCancel).toEqual({ quitPhase: 'running', visible: false, destroyed: false, tray: true, twapStatus: 'running' });

    // Quit: it quits; the TWAP was let go as a quit always did (it reads interrupted on the next start).
    expect(t.secondDialog.response).toBe(0);
    expect(t.afterQuit).toMatchObject({ windows: 0, messageBoxes: 2, liveTray: false });
    expect(t.afterQuit.twap).toMatchObject({ status: 'running', requested: null });
    expect(t.afterQuit.twap.notes.at(-1)).toMatch(/interrupted: its process stopped running it/);
  }, 180_000);

  it('with tray mode off, closing the window with a TWAP running asks first: Cancel keeps the window, Quit quits', async () => {
    const run = await bootApp('tray-off', { env });
    ranClean(run, ['imported', 'window', 'twap', 'quit']);
    const t = run.report.tray;
    expect(t.setting).toEqual({ keep_running_in_tray: false });
    // Asked over the window, which is still on screen.
    expect(t.quitDialog.parent).toMatchObject({ visible: true });
    expect(t.quitDialog.options.message).toBe('Quit Perps Desk? 1 TWAP will stop.');
    expect(t.afterCancel).toEqual({ quitPhase: 'running', visible: true, destroyed: false, tray: false });
    expect(t.secondDialog.response).toBe(0);
    expect(t.afterQuit).toMatchObject({ windows: 0, messageBoxes: 2, liveTray: false });
    expect(t.afterQuit.twap.notes.at(-1)).toMatch(/interrupted: its process stopped running it/);
  }, 180_000);
});

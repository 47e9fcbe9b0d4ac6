/**
 * Chase orders in the app (issue 38, item 3) through the BUILT main bundle under the fake Electron
 * (bootScenario.mjs, MODE chase-*), on the in-app simulator over loopback and its venue book stream:
 *  - chase:preview refuses bad numbers at their field (size, offset_ticks, max_distance, timeout,
 *    taker_after), nothing stored or sent; a review is used once;
 *  - a chase started via IPC rests at the best bid, follows the book up by Modify (one live order), keeps
 *    the app in the tray (listed there), and fills when the mark comes down through it;
 *  - quitting with two running asks, naming them and what quitting does: the one set to cancel at its
 *    limit is cancelled, the one set to leave keeps resting and is taken up by the app started again on the
 *    same data folder once the wallet opens, where it follows the book again;
 *  - Stop · leave ends it with the order resting; Stop · cancel cancels the order; a damaged record is
 *    listed as damaged and never run.
 *
 * The trading key is the private keychain session's (npm test), under a service name of this test's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupedDecimal } from '../../src/shared/decimal/display.js';
import { bootApp, context, ensureBuilt, removeBootCopies, type BootRun } from './bootRun.js';

beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => removeBootCopies());

const env = { PERPS_KEYCHAIN_SERVICE: `perps-desk-boot-chase-${process.pid}` };

function ranClean(run: BootRun, steps: string[]): void {
  expect(run.report, context(run)).not.toBeNull();
  expect(run.report.fatal, context(run)).toBeUndefined();
  expect(run.report.errors, context(run)).toEqual([]);
  expect(run.report.violations, context(run)).toEqual([]);
  expect(run.report.steps, context(run)).toEqual(steps);
  expect(run.code, context(run)).toBe(0);
}

/** The `chases` folder of the sim profile's data folder under the app's user data. */
function chaseFolder(userData: string): string {
  const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [path.join(d, e.name), ...walk(path.join(d, e.name))] : []));
  const dir = walk(userData).find((d) => path.basename(d) === 'chases');
  if (!dir) throw new Error(`no chases folder under ${userData}`);
  return dir;
}

describe('chase orders in the app', () => {
  it('run in main from a reviewed preview: follow the book, fill, in the tray too; quitting leaves or cancels per the on-limit choice; a restart takes one up; stop leaves or cancels; a damaged one is only listed', async () => {
    const first = await bootApp('chase-run', { env });
    ranClean(first, ['imported', 'window', 'wallet', 'chase', 'followed', 'filled', 'quit']);
    const c = first.report.chase;
    // Hostile input: refused at its field, nothing stored, nothing sent.
    expect(c.refused).toMatchObject({
      sizeNotANumber: { code: 'VALIDATION', field: 'size' },
      sizeExponent: { code: 'VALIDATION', field: 'size' },
      offsetFraction: { code: 'VALIDATION', field: 'offset_ticks', message: expect.stringMatching(/not a whole number of ticks/) },
      offsetNegative: { code: 'VALIDATION', field: 'offset_ticks' },
      maxDistanceWords: { code: 'VALIDATION', field: 'max_distance' },
      maxDistanceBelowTick: { code: 'VALIDATION', field: 'max_distance', message: expect.stringMatching(/less than one tick/) },
      timeoutBare: { code: 'VALIDATION', field: 'timeout', message: expect.stringMatching(/needs a unit/) },
      takerAfterTimeout: { code: 'VALIDATION', field: 'taker_after' },
      unknownKey: { code: 'INVALID_PAYLOAD' },
      onLimitOther: { code: 'INVALID_PAYLOAD' },
    });
    expect(c.chasesAfterRefusals).toBe(0);
    expect(c.openAfterRefusals).toBe(0);
    // The review: the first order at the best bid of the live book, post-only, the leverage, what stops it.
    expect(c.preview).toMatchObject({ post_only: true, leverage: 5, max_distance: '5%', timeout_ms: 600_000, on_limit: 'leave' });
    expect(c.preview.price).toBe(c.preview.best_bid);
    expect(Number(c.preview.best_bid)).toBeLessThan(3400);
    expect(c.preview.summary[0]).toMatch(/^Buy 0\.01 ETH post-only at [\d,.]+ \(best bid [\d,.]+, ask [\d,.]+\), 5x$/);
    expect(c.preview.summary.join('\n')).toMatch(/It stops when the best bid is 5% .* and leaves the order/);
    expect(c.started).toMatchObject({ status: 'working', runner: true });
    expect(c.reused.code).toBe('REVIEW_EXPIRED');
    // Resting: one open order, the chase's, at its price.
    expect(c.resting.open).toEqual([{ order_id: c.resting.order_id, side: 'buy', price: c.resting.price }]);
    // Closed: hidden into the tray, which lists the chase.
    expect(c.afterClose).toMatchObject({ visible: false, destroyed: false, quitPhase: 'running' });
    expect(c.afterClose.tray.tooltip).toBe('Perps Desk: 1 chase running');
    expect(c.afterClose.tray.items.map((i: { label: string }) => i.label)).toContain(`Chase ETH: buy 0.01 at ${groupedDecimal(c.resting.price)}, 0 filled`);
    // The book moved up: the order followed by Modify to the new best bid; still one live order.
    expect(Number(c.followed.price)).toBeGreaterThan(Number(c.resting.price));
    expect(c.followed.moves).toBeGreaterThanOrEqual(1);
    expect(c.followed.open).toEqual([{ order_id: c.followed.order_id, side: 'buy', price: c.followed.price }]);
    expect(c.followed.price).toBe(c.followed.book.bid);
    expect(Number(c.followed.distance_used)).toBeGreaterThan(0);
    expect(Number(c.followed.max_distance_price)).toBeCloseTo(Number(c.preview.best_bid) * 0.05, 6);
    // Filled when the mark came down through it: over, nothing rests, the tray no longer lists it.
    expect(c.done).toMatchObject({ status: 'done', end_reason: 'filled', filled: '0.01' });
    expect(c.openAfterDone).toBe(0);
    expect(c.trayAfterDone).toBeNull();
    // Notified from its typed end event, once; a re-price is not notified.
    const titles = c.notifications.map((n: { title: string }) => n.title);
    expect(titles.filter((t: string) => t === 'Chase ETH over')).toHaveLength(1);
    expect(titles.filter((t: string) => t.startsWith('Chase'))).toEqual(['Chase ETH over']);
    // Quitting with two chases asks, naming them and what quitting does.
    expect(c.quitDialog.options.message).toBe('Quit Perps Desk? 2 chases will stop.');
    expect(c.quitDialog.options.detail).toMatch(/^2 chases:\n {2}• Chase ETH: (buy|sell) 0\.01 at [\d,.]+, 0 filled\n {2}• Chase ETH: (buy|sell) 0\.01 at [\d,.]+, 0 filled\nEach chase stops chasing: if it is set to cancel at its limit, its order is cancelled and the chase ends; if set to leave, its order keeps resting and the chase is taken up again when the app runs and this wallet opens\.$/);

    // On disk after the quit: the leave chase still working, the cancel one over (stopped).
    const dir = chaseFolder(first.userData);
    const leave = JSON.parse(fs.readFileSync(path.join(dir, `${c.second.leave.id}.json`), 'utf8'));
    const cancel = JSON.parse(fs.readFileSync(path.join(dir, `${c.second.cancel.id}.json`), 'utf8'));
    expect(leave).toMatchObject({ status: 'working', end_reason: null });
    expect(cancel).toMatchObject({ status: 'done', end_reason: 'stopped' });
    // A damaged record beside them: an order whose client order id is not one of the chase's.
    const damagedId = 'dddddddddddd';
    fs.writeFileSync(path.join(dir, `${damagedId}.json`), JSON.stringify({ ...leave, id: damagedId }), { mode: 0o600 });

    const again = await bootApp('chase-resume', { env: { ...env, PERPS_BOOT_CHASE_IDS: JSON.stringify({ leave: c.second.leave.id, cancel: c.second.cancel.id }) }, home: first.home, mainKey: first.mainKey });
    ranClean(again, ['imported', 'window', 'wallet', 'followed', 'stopped', 'quit']);
    const r = again.report.chase;
    expect(r.beforeWallet.tray).toBeNull();
    expect(r.takenUp).toMatchObject({ status: 'working', runner: true, order_id: c.second.leave.order_id });
    expect(r.cancelled).toMatchObject({ status: 'done', end_reason: 'stopped', price: null });
    // Only the leave chase's order rests: the cancel chase's was cancelled at quit.
    expect(r.openAtStart.map((o: { order_id: string }) => o.order_id)).toEqual([c.second.leave.order_id]);
    expect(r.trayWhileChasing.items.map((i: { label: string }) => i.label)).toEqual(expect.arrayContaining([expect.stringMatching(/^Chase ETH: buy 0\.01 at [\d,.]+, 0 filled$/)]));
    expect(r.damaged).toEqual([expect.objectContaining({ id: damagedId, status: 'damaged', market: 'ETH', damage: expect.stringMatching(/client order id/) })]);
    // Taken up, it follows the book again.
    expect(Number(r.followedAfterRestart.price)).toBeGreaterThan(Number(r.takenUp.price));
    // Stop · leave: over, its order still rests at its price; a second stop is refused.
    expect(r.stoppedLeave).toMatchObject({ status: 'done', end_reason: 'stopped', runner: null });
    expect(r.stoppedLeave.open).toEqual([{ order_id: r.stoppedLeave.order_id, side: 'buy', price: r.stoppedLeave.price }]);
    expect(r.stopAgain.code).toBe('CHASE_FINISHED');
    // Stop · cancel: over, its order cancelled; only the left one rests; nothing in the tray.
    expect(r.stoppedCancel).toMatchObject({ status: 'done', end_reason: 'stopped', price: null });
    expect(r.stoppedCancel.open.map((o: { order_id: string }) => o.order_id)).toEqual([r.stoppedLeave.order_id]);
    expect(r.trayAfterStops).toBeNull();
  }, 300_000);
});

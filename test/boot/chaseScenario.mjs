/**
 * The chase modes of bootScenario.mjs (issue 38, item 3), run in the same child process against the BUILT
 * main bundle under the fake Electron; the scenario's own helpers (report, step, timeouts, the tray) are
 * passed in, the wallet and the simulator's control route are the OCO modes'. Assertions are the parent
 * test's (chaseOrders.test.ts); this only drives and observes.
 */
import { readyWallet, simControl } from './ocoScenario.mjs';

/** Polls chase:list until `test` holds for the chase `id` (at most 30 s, real time: the sim's clock runs). */
async function chaseWhen(perps, valueOf, id, test, what) {
  let last;
  for (let i = 0; i < 120; i++) {
    const list = valueOf(await perps.chase.list(), 'chase:list');
    last = list.chases.find((c) => c.id === id);
    if (last && test(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
}

/** The simulator's open orders of this wallet: id, side and price. */
async function openOrders(perps, valueOf) {
  return valueOf(await perps.orders.listOpen({}), 'orders:listOpen').orders.map((o) => ({ order_id: o.order_id, side: o.side, price: o.limit_price }));
}

const chaseRow = (c) => ({ status: c.status, end_reason: c.end_reason, price: c.order?.price ?? null, order_id: c.order?.order_id ?? null, moves: c.moves, filled: c.filled, runner: c.runner?.this_process ?? null });

/**
 * MODE `chase-run`: hostile input refused at its field; a chase from preview to filled through IPC on the
 * in-app simulator: it rests at the best bid, follows the book up after the mark moves (by Modify, one live
 * order), is listed in the tray, and fills when the mark comes down through it. Two more are left running
 * (a buy set to leave, a sell set to cancel); quitting asks, naming them and what quitting does.
 * MODE `chase-resume` (the same data folder and wallet): the leave chase is taken up once the wallet opens
 * and follows the book again; the cancel one was cancelled at quit; Stop · leave and Stop · cancel through
 * IPC; a damaged record is listed as damaged.
 */
export async function chaseScenario(electron, { mode, report, step, withTimeout, valueOf, openApp, trayNow, clickTray }) {
  const { app, boot } = electron;
  const { win, perps } = await openApp(boot);
  step('window');
  const fresh = mode === 'chase-run';
  report.chase = {};
  if (!fresh) report.chase.beforeWallet = { tray: trayNow(boot) };
  await readyWallet(perps, valueOf, { fresh });
  const control = await simControl(perps, valueOf);
  await control('/freeze-marks', {});
  await control('/mark', { market: 'ETH', price: fresh ? '3400' : '3380' });
  step('wallet');
  const base = { market: 'ETH', side: 'BUY', size: '0.01', on_limit: 'leave', leverage: 5 };

  if (fresh) {
    const refused = {};
    for (const [name, req] of Object.entries({
      sizeNotANumber: { ...base, size: 'abc' },
      sizeExponent: { ...base, size: '1e-2' },
      offsetFraction: { ...base, offset_ticks: '1.5' },
      offsetNegative: { ...base, offset_ticks: '-1' },
      maxDistanceWords: { ...base, max_distance: 'far%' },
      maxDistanceBelowTick: { ...base, max_distance: '0.01' },
      timeoutBare: { ...base, timeout: '30' },
      takerAfterTimeout: { ...base, timeout: '2m', taker_after: '5m' },
    })) {
      const r = await perps.chase.preview(req);
      refused[name] = r.ok ? { ok: true } : { code: r.error.code, field: r.error.field ?? null, message: r.error.message };
    }
    for (const [name, req] of Object.entries({ unknownKey: { ...base, price: '3400' }, onLimitOther: { ...base, on_limit: 'maybe' } })) {
      refused[name] = await perps.chase.preview(req).then((r) => (r.ok ? { ok: true } : { code: r.error.code }));
    }
    report.chase.refused = refused;
    report.chase.chasesAfterRefusals = valueOf(await perps.chase.list(), 'chase:list').chases.length;
    report.chase.openAfterRefusals = (await openOrders(perps, valueOf)).length;

    const preview = valueOf(await perps.chase.preview({ ...base, max_distance: '5%', timeout: '10m' }), 'chase:preview');
    report.chase.preview = { price: preview.price, best_bid: preview.best_bid, best_ask: preview.best_ask, post_only: preview.post_only, leverage: preview.leverage, max_distance: preview.max_distance, timeout_ms: preview.timeout_ms, on_limit: preview.on_limit, summary: preview.summary };
    const started = valueOf(await perps.chase.start({ preview_id: preview.preview_id }), 'chase:start');
    report.chase.started = chaseRow(started);
    report.chase.reused = await perps.chase.start({ preview_id: preview.preview_id }).then((r) => (r.ok ? { ok: true } : { code: r.error.code }));
    const resting = await chaseWhen(perps, valueOf, started.id, (c) => c.order?.order_id, 'the first order resting');
    report.chase.resting = { ...chaseRow(resting), open: await openOrders(perps, valueOf) };
    step('chase');

    // Closing the window: the chase keeps the app in the tray, listed there.
    boot.closeWindow(win);
    report.chase.afterClose = { visible: win.isVisible(), destroyed: win.isDestroyed(), quitPhase: boot.quitPhase(), tray: trayNow(boot) };
    clickTray(boot, 'Open Perps Desk');

    // The book moves up: the order follows to the new best bid by Modify.
    await control('/mark', { market: 'ETH', price: '3410' });
    const best = () => perps.markets.book({ market: 'ETH' }).then((r) => r);
    const followed = await chaseWhen(perps, valueOf, started.id, (c) => c.moves >= 1 && c.order?.order_id && Number(c.order.price) > Number(resting.order.price), 'the order to follow the book');
    report.chase.followed = { ...chaseRow(followed), distance_used: followed.distance_used, max_distance_price: followed.max_distance_price, open: await openOrders(perps, valueOf), book: await best().then((r) => (r.ok ? { bid: r.value.bids?.[0]?.price ?? null } : null)) };
    step('followed');

    // The mark comes down through the order: it fills; the chase is over; nothing rests.
    await control('/mark', { market: 'ETH', price: '3380' });
    const done = await chaseWhen(perps, valueOf, started.id, (c) => c.status === 'done', 'the chase to fill');
    report.chase.done = chaseRow(done);
    report.chase.openAfterDone = (await openOrders(perps, valueOf)).length;
    report.chase.trayAfterDone = trayNow(boot);
    report.chase.notifications = [...boot.notifications];
    step('filled');

    // Two more left running through the quit: a buy set to leave, a sell set to cancel.
    const leave = valueOf(await perps.chase.start({ preview_id: valueOf(await perps.chase.preview(base), 'chase:preview').preview_id }), 'chase:start');
    const cancel = valueOf(await perps.chase.start({ preview_id: valueOf(await perps.chase.preview({ ...base, side: 'SELL', on_limit: 'cancel' }), 'chase:preview').preview_id }), 'chase:start');
    const leaveResting = await chaseWhen(perps, valueOf, leave.id, (c) => c.order?.order_id, 'the leave chase resting');
    const cancelResting = await chaseWhen(perps, valueOf, cancel.id, (c) => c.order?.order_id, 'the cancel chase resting');
    report.chase.second = { leave: { id: leave.id, order_id: leaveResting.order.order_id }, cancel: { id: cancel.id, order_id: cancelResting.order.order_id } };
    report.chase.openBeforeQuit = await openOrders(perps, valueOf);
    const box = boot.nextMessageBox();
    app.quit();
    report.chase.quitDialog = await withTimeout(box, 10_000, 'the quit confirmation');
    boot.answerMessageBoxes(0);
  } else {
    const ids = JSON.parse(process.env.PERPS_BOOT_CHASE_IDS);
    // The leave chase is taken up once the wallet opened: run here; the cancel one ended at quit.
    const taken = await chaseWhen(perps, valueOf, ids.leave, (c) => c.runner?.this_process === true, 'the leave chase to be taken up');
    report.chase.takenUp = chaseRow(taken);
    const list = valueOf(await perps.chase.list(), 'chase:list');
    report.chase.cancelled = chaseRow(list.chases.find((c) => c.id === ids.cancel));
    report.chase.damaged = list.damaged;
    report.chase.openAtStart = await openOrders(perps, valueOf);
    report.chase.trayWhileChasing = (() => {
      boot.closeWindow(win);
      const t = trayNow(boot);
      clickTray(boot, 'Open Perps Desk');
      return t;
    })();
    // It follows the book again after the restart.
    await control('/mark', { market: 'ETH', price: '3390' });
    const followed = await chaseWhen(perps, valueOf, ids.leave, (c) => c.order?.order_id && c.order.order_id !== taken.order.order_id && Number(c.order.price) > Number(taken.order.price), 'the taken-up chase to follow');
    report.chase.followedAfterRestart = chaseRow(followed);
    step('followed');
    // Stop · leave: the chase is over, its order keeps resting.
    const left = valueOf(await perps.chase.stop({ id: ids.leave, order: 'leave' }), 'chase:stop leave');
    report.chase.stoppedLeave = { ...chaseRow(left), open: await openOrders(perps, valueOf) };
    report.chase.stopAgain = await perps.chase.stop({ id: ids.leave, order: 'cancel' }).then((r) => (r.ok ? { ok: true } : { code: r.error.code }));
    // Stop · cancel of a new one: its order is cancelled.
    const fresh2 = valueOf(await perps.chase.start({ preview_id: valueOf(await perps.chase.preview({ ...base, side: 'SELL' }), 'chase:preview').preview_id }), 'chase:start');
    const fresh2Resting = await chaseWhen(perps, valueOf, fresh2.id, (c) => c.order?.order_id, 'the new chase resting');
    const cancelled = valueOf(await perps.chase.stop({ id: fresh2.id, order: 'cancel' }), 'chase:stop cancel');
    report.chase.stoppedCancel = { ...chaseRow(cancelled), order_id: fresh2Resting.order.order_id, open: await openOrders(perps, valueOf) };
    report.chase.trayAfterStops = trayNow(boot);
    step('stopped');
    app.quit();
  }
  await withTimeout(boot.quitted(), 60_000, 'quit');
  step('quit');
}

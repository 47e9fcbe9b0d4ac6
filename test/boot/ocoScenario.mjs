/**
 * The OCO modes of bootScenario.mjs (issue 38, item 2), run in the same child process against the BUILT
 * main bundle under the fake Electron; the scenario's own helpers (report, step, timeouts, the tray) are
 * passed in. Assertions are the parent test's (ocoPairs.test.ts); this only drives and observes.
 */
/** A funded wallet with an authorized trading key (the first run); a restart only reconnects the wallet. */
export async function readyWallet(perps, valueOf, { fresh }) {
  valueOf(await perps.wallet.connectEnv({ variable: 'PERPS_BOOT_MAIN_KEY' }), 'wallet:connectEnv');
  if (!fresh) return;
  const { agent } = valueOf(await perps.keys.create({ name: 'boot-oco' }), 'keys:create');
  const review = valueOf(await perps.keys.review({ action: 'authorize', agent }), 'keys:review');
  valueOf(await perps.keys.authorize({ review_id: review.review_id }), 'keys:authorize');
  valueOf(await perps.funding.faucet({ amount: '5000' }), 'funding:faucet');
  for (let i = 0; i < 60; i++) {
    const balance = await perps.account.balance();
    if (balance.ok && balance.value.free_balance !== '0') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The in-app simulator's control route (loopback), from the profile main reports. */
export async function simControl(perps, valueOf) {
  const profile = valueOf(await perps.app.getProfile(), 'app:getProfile');
  const base = profile.sim.base_url;
  return async (route, body) => {
    const res = await fetch(`${new URL(base).origin}/sim${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`sim ${route}: ${res.status} ${await res.text()}`);
  };
}

/** Polls oco:list until `test` holds for the pair `id` (at most 30 s, real time: the sim's clock runs). */
async function pairWhen(perps, valueOf, id, test, what) {
  let last;
  for (let i = 0; i < 120; i++) {
    const list = valueOf(await perps.oco.list(), 'oco:list');
    last = list.pairs.find((p) => p.id === id);
    if (last && test(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
}

const legStates = (p) => p.legs.map((l) => l.status);

/**
 * MODE `oco-run`: a pair from preview to done through IPC (hostile input refused at its field first);
 * closing the window keeps it watched in the tray; the buy leg fills, the sell leg is cancelled. A second
 * pair is left running; quitting asks, naming it, and leaves both its legs resting.
 * MODE `oco-resume` (the same data folder and wallet): once the wallet opens the pair is taken up; the
 * sell leg fills while it is watched, the buy leg is cancelled. A damaged record is listed as damaged.
 */
export async function ocoScenario(electron, { mode, report, step, withTimeout, valueOf, openApp, trayNow, clickTray }) {
  const { app, boot } = electron;
  const { win, perps } = await openApp(boot);
  step('window');
  const fresh = mode === 'oco-run';
  report.oco = {};
  if (!fresh) {
    // Before any wallet opens, nothing is taken up.
    report.oco.beforeWallet = { tray: trayNow(boot), watched: boot.notifications.length };
  }
  await readyWallet(perps, valueOf, { fresh });
  const control = await simControl(perps, valueOf);
  await control('/freeze-marks', {});
  await control('/mark', { market: 'ETH', price: '3400' });
  step('wallet');

  if (fresh) {
    const refused = {};
    for (const [name, req] of Object.entries({
      notANumber: { market: 'ETH', buy: 'abc', sell: '3500', size: '0.01', leverage: 5 },
      exponent: { market: 'ETH', buy: '3300', sell: '3500', size: '1e-2', leverage: 5 },
      buyPastMark: { market: 'ETH', buy: '3450', sell: '3500', size: '0.01', leverage: 5 },
      sellPastMark: { market: 'ETH', buy: '3300', sell: '3390', size: '0.01', leverage: 5 },
    })) {
      const r = await perps.oco.preview(req);
      refused[name] = r.ok ? { ok: true } : { code: r.error.code, reason: r.error.reason ?? null, field: r.error.field ?? null, message: r.error.message };
    }
    refused.unknownKey = await perps.oco.preview({ market: 'ETH', buy: '3300', sell: '3500', size: '0.01', side: 'BUY' }).then((r) => (r.ok ? { ok: true } : { code: r.error.code }));
    report.oco.refused = refused;
    report.oco.pairsAfterRefusals = valueOf(await perps.oco.list(), 'oco:list').pairs.length;

    const preview = valueOf(await perps.oco.preview({ market: 'ETH', buy: '3300', sell: '3500', size: '0.01', leverage: 5 }), 'oco:preview');
    report.oco.preview = { legs: preview.legs, leverage: preview.leverage, mark: preview.mark, summary: preview.summary };
    const started = valueOf(await perps.oco.start({ preview_id: preview.preview_id }), 'oco:start');
    report.oco.started = { status: started.status, legs: legStates(started), runner: started.runner?.this_process ?? null };
    report.oco.reused = await perps.oco.start({ preview_id: preview.preview_id }).then((r) => (r.ok ? { ok: true } : { code: r.error.code }));
    await pairWhen(perps, valueOf, started.id, (p) => p.legs.every((l) => l.status === 'open'), 'both legs resting');
    step('oco');

    // Closing the window: the pair keeps the app in the tray, listed there.
    boot.closeWindow(win);
    report.oco.afterClose = { visible: win.isVisible(), destroyed: win.isDestroyed(), quitPhase: boot.quitPhase(), tray: trayNow(boot) };
    clickTray(boot, 'Open Perps Desk');

    // The mark falls through the buy: it fills, and the pair cancels the sell.
    await control('/mark', { market: 'ETH', price: '3290' });
    const done = await pairWhen(perps, valueOf, started.id, (p) => p.status !== 'working', 'the pair to end');
    report.oco.done = { status: done.status, winner: done.winner, legs: legStates(done), last_note: done.last_note };
    const open = valueOf(await perps.orders.listOpen({}), 'orders:listOpen');
    report.oco.openOrdersAfterDone = open.orders.length;
    report.oco.trayAfterDone = trayNow(boot);
    report.oco.notificationsAfterDone = [...boot.notifications];
    step('filled');

    // A second pair around the new mark, left running through the quit.
    const second = valueOf(await perps.oco.preview({ market: 'ETH', buy: '3200', sell: '3400', size: '0.01', leverage: 5 }), 'oco:preview');
    const running = valueOf(await perps.oco.start({ preview_id: second.preview_id }), 'oco:start');
    await pairWhen(perps, valueOf, running.id, (p) => p.legs.every((l) => l.status === 'open'), 'the second pair resting');
    report.oco.second = { id: running.id };
    const box = boot.nextMessageBox();
    app.quit();
    report.oco.quitDialog = await withTimeout(box, 10_000, 'the quit confirmation');
    boot.answerMessageBoxes(0);
    await withTimeout(boot.quitted(), 60_000, 'quit');
    report.oco.notificationsAfterQuit = [...boot.notifications];
    step('quit');
    return;
  } else {
    const id = process.env.PERPS_BOOT_OCO_ID;
    // Taken up once the wallet opened: watched here.
    const taken = await pairWhen(perps, valueOf, id, (p) => p.runner?.this_process === true, 'the pair to be taken up');
    report.oco.takenUp = { status: taken.status, legs: legStates(taken) };
    report.oco.trayWhileWatched = (() => {
      boot.closeWindow(win);
      const t = trayNow(boot);
      clickTray(boot, 'Open Perps Desk');
      return t;
    })();
    const list = valueOf(await perps.oco.list(), 'oco:list');
    report.oco.damaged = list.damaged;
    await control('/mark', { market: 'ETH', price: '3410' });
    const done = await pairWhen(perps, valueOf, id, (p) => p.status !== 'working', 'the resumed pair to end');
    report.oco.done = { status: done.status, winner: done.winner, legs: legStates(done) };
    report.oco.openOrdersAfterDone = valueOf(await perps.orders.listOpen({}), 'orders:listOpen').orders.length;
    report.oco.notifications = [...boot.notifications];
    step('filled');
    app.quit();
  }
  await withTimeout(boot.quitted(), 60_000, 'quit');
  step('quit');
}


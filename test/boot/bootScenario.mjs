/**
 * Runs in a child process (see mainBundle.test.ts): imports the BUILT main bundle of a temporary app
 * copy, whose node_modules/electron is the fake (fakeElectron.cjs), drives it as Electron would, and
 * writes what happened to a JSON report. Assertions are the parent test's; this only observes.
 *
 *   node --preserve-symlinks --preserve-symlinks-main bootScenario.mjs BUNDLE REPORT MODE
 *
 * MODE `app`: ready -> the page through app:// -> the sandboxed preload -> channels -> untrusted frames
 * -> permissions -> quit. MODE `dev-activate`: macOS with ELECTRON_RENDERER_URL set: close the window,
 * click the dock icon (activate), see where the new window goes, quit. MODE `vault-guard`: ready -> the
 * page -> app:getInfo, connect a wallet, try to create a trading key (the vault) -> quit; the switches
 * under test follow MODE on the command line (or come in NODE_OPTIONS / an inspector opened here first).
 */
import fs from 'node:fs';
import inspector from 'node:inspector';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installConnectionTrap } from '../support/connectionTrap.mjs';

const [bundle, reportFile, mode] = process.argv.slice(2);
const report = { mode, errors: [], steps: [] };
// Every outbound connection and lookup of the app process, from before the bundle loads (anything but
// loopback is refused before a socket opens); the report carries them for the test to judge.
const connections = installConnectionTrap();

process.on('uncaughtException', (err) => report.errors.push(`uncaught: ${err.stack ?? err}`));
process.on('unhandledRejection', (err) => report.errors.push(`unhandled rejection: ${err?.stack ?? err}`));

let electron;

/** Waits for `promise`, but not past `ms`, nor past the first Electron rule the app breaks. */
function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms)));
  return Promise.race([promise, timeout, electron.boot.violated]).finally(() => clearTimeout(timer));
}

function step(name) {
  report.steps.push(name);
}

/** Files and folders of the data folder with their permission bits, after quit. */
function modesUnder(root) {
  const out = [];
  const walk = (dir) => {
    out.push({ path: path.relative(root, dir) || '.', type: 'dir', mode: (fs.statSync(dir).mode & 0o777).toString(8) });
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push({ path: path.relative(root, full), type: 'file', mode: (fs.lstatSync(full).mode & 0o777).toString(8) });
    }
  };
  walk(root);
  return out;
}

/** What the HTML page references: module scripts and stylesheets. */
function assetsOf(html, pageUrl) {
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => new URL(m[1], pageUrl).href);
  const styles = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) => new URL(m[1], pageUrl).href);
  return { scripts, styles };
}

async function load(boot, url) {
  const res = await boot.fetch(url);
  return { url, status: res.status, headers: Object.fromEntries(res.headers), size: (await res.arrayBuffer()).byteLength };
}

async function appScenario(electron) {
  const { app, boot } = electron;
  const firstWindow = boot.nextWindow();
  boot.makeReady();
  step('ready');
  const win = await withTimeout(firstWindow, 60_000, 'the main window');
  const page = await withTimeout(win.loaded, 30_000, 'the first page load');
  step('window');
  report.window = {
    count: boot.windows().length,
    shown: win.shown,
    webPreferences: win.options.webPreferences,
    preloadExists: fs.existsSync(win.options.webPreferences?.preload ?? ''),
  };

  // The page, and what it references, through the app's app:// handler.
  const assets = assetsOf(page.body, page.url);
  report.page = {
    html: { url: page.url, status: page.status, headers: page.headers },
    scripts: await Promise.all(assets.scripts.map((u) => load(boot, u))),
    styles: await Promise.all(assets.styles.map((u) => load(boot, u))),
    escape: await load(boot, 'app://perps/..%2f..%2fpackage.json'),
    otherHost: await load(boot, 'app://other/index.html'),
  };
  step('page');

  // The sandboxed preload of the main frame, and calls through it.
  report.preload = { required: win.mainWorld.required, exposed: Object.keys(win.mainWorld.world) };
  const perps = win.mainWorld.world.perps;
  const calls = {};
  calls.info = await perps.app.getInfo();
  calls.profile = await perps.app.getProfile();
  calls.settings = await perps.settings.get();
  calls.markets = await perps.markets.list();
  calls.wallet = await perps.wallet.connectEnv({ variable: 'PERPS_BOOT_MAIN_KEY' });
  calls.faucet = await perps.funding.faucet({ amount: '250' });
  // The deposit confirms on the simulator's clock (about a second); the balance then shows it.
  for (let i = 0; i < 60; i++) {
    calls.balance = await perps.account.balance();
    if (calls.balance.ok && calls.balance.value.free_balance !== '0') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  calls.badPayload = await perps.funding.faucet({ amount: 'lots' });
  report.calls = calls;
  step('channels');

  // Frames that are not the app: their IPC is refused, navigation and new windows are stopped.
  report.untrusted = {};
  for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://evil/index.html']) {
    const world = boot.runPreload(win.options.webPreferences.preload, url, win.webContents).world;
    report.untrusted[url] = await world.perps.app.getInfo();
  }
  const navigate = (event, url) => {
    const e = { defaultPrevented: false, preventDefault() { e.defaultPrevented = true; } };
    win.webContents.emit(event, e, url);
    return e.defaultPrevented;
  };
  report.navigation = {
    toEvil: navigate('will-navigate', 'https://evil.example/'),
    toFile: navigate('will-navigate', 'file:///etc/passwd'),
    redirectToEvil: navigate('will-redirect', 'https://evil.example/'),
    toApp: navigate('will-navigate', 'app://perps/index.html'),
    webview: (() => {
      const e = { defaultPrevented: false, preventDefault() { e.defaultPrevented = true; } };
      win.webContents.emit('will-attach-webview', e, {}, {});
      return e.defaultPrevented;
    })(),
    openEvil: win.webContents.windowOpenHandler({ url: 'https://evil.example/' }),
    openAllowed: win.webContents.windowOpenHandler({ url: 'https://github.com/perps-desk' }),
    openedExternally: boot.openedExternally,
  };
  step('untrusted');

  // Permissions, as Chromium asks them: a check (origin) and a request (frame URL).
  const { request, check } = boot.permissionHandlers;
  const ask = (permission, requestingUrl) =>
    new Promise((resolve) => request(win.webContents, permission, resolve, { requestingUrl, isMainFrame: true }));
  const checkOf = (permission, origin, requestingUrl) => check(win.webContents, permission, origin, { requestingUrl, isMainFrame: true });
  report.permissions = {
    clipboardApp: { request: await ask('clipboard-sanitized-write', 'app://perps/index.html'), check: checkOf('clipboard-sanitized-write', 'app://perps', 'app://perps/index.html') },
    clipboardEvil: { request: await ask('clipboard-sanitized-write', 'https://evil.example/'), check: checkOf('clipboard-sanitized-write', 'https://evil.example', 'https://evil.example/') },
    mediaApp: { request: await ask('media', 'app://perps/index.html'), check: checkOf('media', 'app://perps', 'app://perps/index.html') },
    clipboardReadApp: { request: await ask('clipboard-read', 'app://perps/index.html'), check: checkOf('clipboard-read', 'app://perps', 'app://perps/index.html') },
  };
  step('permissions');

  app.quit();
  await withTimeout(boot.quitted(), 60_000, 'quit');
  step('quit');
  const userData = app.getPath('userData');
  const stateFile = path.join(userData, 'sim', 'state.json');
  report.afterQuit = {
    windows: boot.windows().length,
    stateFile: fs.existsSync(stateFile) ? { exists: true, version: JSON.parse(fs.readFileSync(stateFile, 'utf8')).version } : { exists: false },
    modes: modesUnder(userData),
  };
}

async function devActivateScenario(electron) {
  const { app, boot } = electron;
  const firstWindow = boot.nextWindow();
  boot.makeReady();
  const first = await withTimeout(firstWindow, 60_000, 'the main window');
  await withTimeout(first.loaded, 30_000, 'the first page load');
  report.firstUrl = first.loads[0]?.url;
  // The last window closes; on macOS the app stays (window-all-closed does not quit there).
  first.close();
  report.windowsAfterClose = boot.windows().length;
  report.quitPhaseAfterClose = boot.quitPhase();
  const next = boot.nextWindow();
  boot.activate();
  const second = await withTimeout(next, 10_000, 'a window after activate');
  await withTimeout(second.loaded, 30_000, 'the reopened page load');
  report.activatedUrl = second.loads[0]?.url;
  report.activatedPreload = second.mainWorld?.required;
  app.quit();
  await withTimeout(boot.quitted(), 60_000, 'quit');
  step('quit');
}

// ---- running in the tray (issue 27, item 5) ---------------------------------------------------------

/** Opens the app and waits for its page; returns the window and its window.perps. */
async function openApp(boot) {
  const firstWindow = boot.nextWindow();
  boot.makeReady();
  const win = await withTimeout(firstWindow, 60_000, 'the main window');
  await withTimeout(win.loaded, 30_000, 'the first page load');
  return { win, perps: win.mainWorld.world.perps };
}

/** Answers an IpcResult's value, or fails the scenario with its error. */
function valueOf(result, what) {
  if (!result?.ok) throw new Error(`${what} failed: ${JSON.stringify(result)}`);
  return result.value;
}

/** A funded wallet with an authorized trading key, and a TWAP started on it (2 slices, 10 minutes: it runs through the test). */
async function startTwap(perps) {
  valueOf(await perps.wallet.connectEnv({ variable: 'PERPS_BOOT_MAIN_KEY' }), 'wallet:connectEnv');
  const { agent } = valueOf(await perps.keys.create({ name: 'boot-tray' }), 'keys:create');
  const review = valueOf(await perps.keys.review({ action: 'authorize', agent }), 'keys:review');
  valueOf(await perps.keys.authorize({ review_id: review.review_id }), 'keys:authorize');
  valueOf(await perps.funding.faucet({ amount: '5000' }), 'funding:faucet');
  for (let i = 0; i < 60; i++) {
    const balance = await perps.account.balance();
    if (balance.ok && balance.value.free_balance !== '0') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const preview = valueOf(await perps.twap.preview({ market: 'ETH', side: 'BUY', total_size: '0.02', duration_s: 600, slices: 2, leverage: 5 }), 'twap:preview');
  return valueOf(await perps.twap.start({ preview_id: preview.preview_id }), 'twap:start');
}

/** What the tray shows now: its tooltip and menu lines (null when there is no tray on screen). */
function trayNow(boot) {
  const tray = boot.liveTray();
  return tray ? { tooltip: tray.tooltip, items: tray.menu.items.map((i) => ({ type: i.type, label: i.label, enabled: i.enabled })) } : null;
}

function clickTray(boot, label) {
  const item = boot.liveTray()?.menu.items.find((i) => i.label === label);
  if (!item) throw new Error(`no tray menu item '${label}' in ${JSON.stringify(trayNow(boot))}`);
  item.click();
}

/** The TWAP's record as main left it on disk (after quit). */
function twapRecordOf(userData, id) {
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  const file = walk(userData).find((f) => f.endsWith(path.join('twaps', `${id}.json`)));
  if (!file) return null;
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { status: r.status, requested: r.requested, notes: r.notes, sentSlices: r.slices.filter((x) => x.order_id !== null).length };
}

/**
 * MODE `tray-idle`: nothing runs; closing the window quits, as before tray mode. MODE `tray-twap`: a
 * TWAP runs; closing hides the window into the tray, Open brings it back, Quit asks (Cancel keeps it,
 * Quit quits and lets the TWAP go). MODE `tray-off`: tray mode turned off in settings; closing with the
 * TWAP running asks (Cancel keeps the window), then quits.
 */
async function trayScenario(electron) {
  const { app, boot } = electron;
  const { win, perps } = await openApp(boot);
  step('window');
  if (mode === 'tray-idle') {
    boot.closeWindow(win);
    await withTimeout(boot.quitted(), 60_000, 'quit after closing the window');
    step('quit');
    report.tray = { messageBoxes: boot.messageBoxes.length, trays: boot.trays().length, windowDestroyed: win.isDestroyed(), notifications: boot.notifications };
    return;
  }
  if (mode === 'tray-off') report.setTray = valueOf(await perps.settings.setTray({ keep_running_in_tray: false }), 'settings:setTray');
  report.tray = { setting: valueOf(await perps.settings.getTray(), 'settings:getTray') };
  const twap = await startTwap(perps);
  report.tray.twap = { id: twap.id, status: twap.status };
  step('twap');

  if (mode === 'tray-twap') {
    boot.closeWindow(win);
    report.tray.afterClose = { destroyed: win.isDestroyed(), visible: win.isVisible(), quitPhase: boot.quitPhase(), tray: trayNow(boot), notifications: [...boot.notifications] };
    clickTray(boot, 'Open Perps Desk');
    report.tray.afterOpen = { destroyed: win.isDestroyed(), visible: win.isVisible(), tray: trayNow(boot), windows: boot.windows().length };
    boot.closeWindow(win);
    report.tray.afterSecondClose = { visible: win.isVisible(), tray: trayNow(boot), notifications: boot.notifications.length };
    step('tray');
    let box = boot.nextMessageBox();
    clickTray(boot, 'Quit Perps Desk');
    report.tray.quitDialog = await withTimeout(box, 10_000, 'the quit confirmation');
    boot.answerMessageBoxes(1); // Cancel
    await new Promise((resolve) => setTimeout(resolve, 200));
    const listed = valueOf(await perps.twap.list(), 'twap:list').twaps.find((t) => t.id === twap.id);
    report.tray.afterCancel = { quitPhase: boot.quitPhase(), visible: win.isVisible(), destroyed: win.isDestroyed(), tray: trayNow(boot) !== null, twapStatus: listed?.status };
    box = boot.nextMessageBox();
    clickTray(boot, 'Quit Perps Desk');
    report.tray.secondDialog = await withTimeout(box, 10_000, 'the second quit confirmation');
    boot.answerMessageBoxes(0); // Quit
  } else {
    let box = boot.nextMessageBox();
    boot.closeWindow(win);
    report.tray.quitDialog = await withTimeout(box, 10_000, 'the quit confirmation on close');
    boot.answerMessageBoxes(1); // Cancel
    await new Promise((resolve) => setTimeout(resolve, 200));
    report.tray.afterCancel = { quitPhase: boot.quitPhase(), visible: win.isVisible(), destroyed: win.isDestroyed(), tray: trayNow(boot) !== null };
    box = boot.nextMessageBox();
    boot.closeWindow(win);
    report.tray.secondDialog = await withTimeout(box, 10_000, 'the second quit confirmation');
    boot.answerMessageBoxes(0); // Quit
  }
  await withTimeout(boot.quitted(), 60_000, 'quit after the confirmation');
  step('quit');
  report.tray.afterQuit = { windows: boot.windows().length, messageBoxes: boot.messageBoxes.length, liveTray: boot.liveTray() !== null, twap: twapRecordOf(app.getPath('userData'), twap.id) };
}

// ---- OCO pairs in the app (issue 38, item 2) ------------------------------------------------------------

/** A funded wallet with an authorized trading key (the first run); a restart only reconnects the wallet. */
async function readyWallet(perps, { fresh }) {
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
async function simControl(perps) {
  const profile = valueOf(await perps.app.getProfile(), 'app:getProfile');
  const base = profile.sim.base_url;
  return async (route, body) => {
    const res = await fetch(`${new URL(base).origin}/sim${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`sim ${route}: ${res.status} ${await res.text()}`);
  };
}

/** Polls oco:list until `test` holds for the pair `id` (at most 30 s, real time: the sim's clock runs). */
async function pairWhen(perps, id, test, what) {
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
async function ocoScenario(electron) {
  const { app, boot } = electron;
  const { win, perps } = await openApp(boot);
  step('window');
  const fresh = mode === 'oco-run';
  report.oco = {};
  if (!fresh) {
    // Before any wallet opens, nothing is taken up.
    report.oco.beforeWallet = { tray: trayNow(boot), watched: boot.notifications.length };
  }
  await readyWallet(perps, { fresh });
  const control = await simControl(perps);
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
    await pairWhen(perps, started.id, (p) => p.legs.every((l) => l.status === 'open'), 'both legs resting');
    step('oco');

    // Closing the window: the pair keeps the app in the tray, listed there.
    boot.closeWindow(win);
    report.oco.afterClose = { visible: win.isVisible(), destroyed: win.isDestroyed(), quitPhase: boot.quitPhase(), tray: trayNow(boot) };
    clickTray(boot, 'Open Perps Desk');

    // The mark falls through the buy: it fills, and the pair cancels the sell.
    await control('/mark', { market: 'ETH', price: '3290' });
    const done = await pairWhen(perps, started.id, (p) => p.status !== 'working', 'the pair to end');
    report.oco.done = { status: done.status, winner: done.winner, legs: legStates(done), last_note: done.last_note };
    const open = valueOf(await perps.orders.listOpen({}), 'orders:listOpen');
    report.oco.openOrdersAfterDone = open.orders.length;
    report.oco.trayAfterDone = trayNow(boot);
    step('filled');

    // A second pair around the new mark, left running through the quit.
    const second = valueOf(await perps.oco.preview({ market: 'ETH', buy: '3200', sell: '3400', size: '0.01', leverage: 5 }), 'oco:preview');
    const running = valueOf(await perps.oco.start({ preview_id: second.preview_id }), 'oco:start');
    await pairWhen(perps, running.id, (p) => p.legs.every((l) => l.status === 'open'), 'the second pair resting');
    report.oco.second = { id: running.id };
    const box = boot.nextMessageBox();
    app.quit();
    report.oco.quitDialog = await withTimeout(box, 10_000, 'the quit confirmation');
    boot.answerMessageBoxes(0);
  } else {
    const id = process.env.PERPS_BOOT_OCO_ID;
    // Taken up once the wallet opened: watched here.
    const taken = await pairWhen(perps, id, (p) => p.runner?.this_process === true, 'the pair to be taken up');
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
    const done = await pairWhen(perps, id, (p) => p.status !== 'working', 'the resumed pair to end');
    report.oco.done = { status: done.status, winner: done.winner, legs: legStates(done) };
    report.oco.openOrdersAfterDone = valueOf(await perps.orders.listOpen({}), 'orders:listOpen').orders.length;
    report.oco.notifications = [...boot.notifications];
    step('filled');
    app.quit();
  }
  await withTimeout(boot.quitted(), 60_000, 'quit');
  step('quit');
}

// ---- chase orders in the app (issue 38, item 3) ---------------------------------------------------------

/** Polls chase:list until `test` holds for the chase `id` (at most 30 s, real time: the sim's clock runs). */
async function chaseWhen(perps, id, test, what) {
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
async function openOrders(perps) {
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
async function chaseScenario(electron) {
  const { app, boot } = electron;
  const { win, perps } = await openApp(boot);
  step('window');
  const fresh = mode === 'chase-run';
  report.chase = {};
  if (!fresh) report.chase.beforeWallet = { tray: trayNow(boot) };
  await readyWallet(perps, { fresh });
  const control = await simControl(perps);
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
    report.chase.openAfterRefusals = (await openOrders(perps)).length;

    const preview = valueOf(await perps.chase.preview({ ...base, max_distance: '5%', timeout: '10m' }), 'chase:preview');
    report.chase.preview = { price: preview.price, best_bid: preview.best_bid, best_ask: preview.best_ask, post_only: preview.post_only, leverage: preview.leverage, max_distance: preview.max_distance, timeout_ms: preview.timeout_ms, on_limit: preview.on_limit, summary: preview.summary };
    const started = valueOf(await perps.chase.start({ preview_id: preview.preview_id }), 'chase:start');
    report.chase.started = chaseRow(started);
    report.chase.reused = await perps.chase.start({ preview_id: preview.preview_id }).then((r) => (r.ok ? { ok: true } : { code: r.error.code }));
    const resting = await chaseWhen(perps, started.id, (c) => c.order?.order_id, 'the first order resting');
    report.chase.resting = { ...chaseRow(resting), open: await openOrders(perps) };
    step('chase');

    // Closing the window: the chase keeps the app in the tray, listed there.
    boot.closeWindow(win);
    report.chase.afterClose = { visible: win.isVisible(), destroyed: win.isDestroyed(), quitPhase: boot.quitPhase(), tray: trayNow(boot) };
    clickTray(boot, 'Open Perps Desk');

    // The book moves up: the order follows to the new best bid by Modify.
    await control('/mark', { market: 'ETH', price: '3410' });
    const best = () => perps.markets.book({ market: 'ETH' }).then((r) => r);
    const followed = await chaseWhen(perps, started.id, (c) => c.moves >= 1 && c.order?.order_id && Number(c.order.price) > Number(resting.order.price), 'the order to follow the book');
    report.chase.followed = { ...chaseRow(followed), distance_used: followed.distance_used, max_distance_price: followed.max_distance_price, open: await openOrders(perps), book: await best().then((r) => (r.ok ? { bid: r.value.bids?.[0]?.price ?? null } : null)) };
    step('followed');

    // The mark comes down through the order: it fills; the chase is over; nothing rests.
    await control('/mark', { market: 'ETH', price: '3380' });
    const done = await chaseWhen(perps, started.id, (c) => c.status === 'done', 'the chase to fill');
    report.chase.done = chaseRow(done);
    report.chase.openAfterDone = (await openOrders(perps)).length;
    report.chase.trayAfterDone = trayNow(boot);
    report.chase.notifications = [...boot.notifications];
    step('filled');

    // Two more left running through the quit: a buy set to leave, a sell set to cancel.
    const leave = valueOf(await perps.chase.start({ preview_id: valueOf(await perps.chase.preview(base), 'chase:preview').preview_id }), 'chase:start');
    const cancel = valueOf(await perps.chase.start({ preview_id: valueOf(await perps.chase.preview({ ...base, side: 'SELL', on_limit: 'cancel' }), 'chase:preview').preview_id }), 'chase:start');
    const leaveResting = await chaseWhen(perps, leave.id, (c) => c.order?.order_id, 'the leave chase resting');
    const cancelResting = await chaseWhen(perps, cancel.id, (c) => c.order?.order_id, 'the cancel chase resting');
    report.chase.second = { leave: { id: leave.id, order_id: leaveResting.order.order_id }, cancel: { id: cancel.id, order_id: cancelResting.order.order_id } };
    report.chase.openBeforeQuit = await openOrders(perps);
    const box = boot.nextMessageBox();
    app.quit();
    report.chase.quitDialog = await withTimeout(box, 10_000, 'the quit confirmation');
    boot.answerMessageBoxes(0);
  } else {
    const ids = JSON.parse(process.env.PERPS_BOOT_CHASE_IDS);
    // The leave chase is taken up once the wallet opened: run here; the cancel one ended at quit.
    const taken = await chaseWhen(perps, ids.leave, (c) => c.runner?.this_process === true, 'the leave chase to be taken up');
    report.chase.takenUp = chaseRow(taken);
    const list = valueOf(await perps.chase.list(), 'chase:list');
    report.chase.cancelled = chaseRow(list.chases.find((c) => c.id === ids.cancel));
    report.chase.damaged = list.damaged;
    report.chase.openAtStart = await openOrders(perps);
    report.chase.trayWhileChasing = (() => {
      boot.closeWindow(win);
      const t = trayNow(boot);
      clickTray(boot, 'Open Perps Desk');
      return t;
    })();
    // It follows the book again after the restart.
    await control('/mark', { market: 'ETH', price: '3390' });
    const followed = await chaseWhen(perps, ids.leave, (c) => c.order?.order_id && c.order.order_id !== taken.order.order_id && Number(c.order.price) > Number(taken.order.price), 'the taken-up chase to follow');
    report.chase.followedAfterRestart = chaseRow(followed);
    step('followed');
    // Stop · leave: the chase is over, its order keeps resting.
    const left = valueOf(await perps.chase.stop({ id: ids.leave, order: 'leave' }), 'chase:stop leave');
    report.chase.stoppedLeave = { ...chaseRow(left), open: await openOrders(perps) };
    report.chase.stopAgain = await perps.chase.stop({ id: ids.leave, order: 'cancel' }).then((r) => (r.ok ? { ok: true } : { code: r.error.code }));
    // Stop · cancel of a new one: its order is cancelled.
    const fresh2 = valueOf(await perps.chase.start({ preview_id: valueOf(await perps.chase.preview({ ...base, side: 'SELL' }), 'chase:preview').preview_id }), 'chase:start');
    const fresh2Resting = await chaseWhen(perps, fresh2.id, (c) => c.order?.order_id, 'the new chase resting');
    const cancelled = valueOf(await perps.chase.stop({ id: fresh2.id, order: 'cancel' }), 'chase:stop cancel');
    report.chase.stoppedCancel = { ...chaseRow(cancelled), order_id: fresh2Resting.order.order_id, open: await openOrders(perps) };
    report.chase.trayAfterStops = trayNow(boot);
    step('stopped');
    app.quit();
  }
  await withTimeout(boot.quitted(), 60_000, 'quit');
  step('quit');
}

async function vaultGuardScenario(electron) {
  const { app, boot } = electron;
  const firstWindow = boot.nextWindow();
  boot.makeReady();
  const win = await withTimeout(firstWindow, 60_000, 'the main window');
  await withTimeout(win.loaded, 30_000, 'the first page load');
  const perps = win.mainWorld.world.perps;
  const calls = {};
  calls.info = await perps.app.getInfo();
  calls.wallet = await perps.wallet.connectEnv({ variable: 'PERPS_BOOT_MAIN_KEY' });
  // Creating a trading key stores it in the vault; only asked when the vault is expected to refuse
  // (the real keychain is not the subject here, and an open vault would write to it).
  if (process.env.PERPS_BOOT_TRY_VAULT === '1') calls.createKey = await perps.keys.create({ name: 'boot-guard' });
  report.calls = calls;
  step('vault');
  app.quit();
  await withTimeout(boot.quitted(), 60_000, 'quit');
  step('quit');
}

let exitCode = 0;
try {
  // "An inspector already open": opened here, before the app is loaded, on loopback and a free port.
  if (process.env.PERPS_BOOT_OPEN_INSPECTOR === '1') inspector.open(0, '127.0.0.1');
  if (mode === 'dev-activate') Object.defineProperty(process, 'platform', { value: 'darwin' });
  // The fake, resolved exactly as the bundle resolves 'electron' (same module instance).
  electron = createRequire(bundle)('electron');
  if (!electron.boot) throw new Error(`'electron' did not resolve to the fake from ${bundle}`);
  report.electronResolvedTo = createRequire(bundle).resolve('electron');
  await import(pathToFileURL(bundle).href);
  report.beforeReady = { privilegedSchemes: structuredClone(electron.boot.privilegedSchemes) };
  step('imported');
  if (mode === 'app') await appScenario(electron);
  else if (mode === 'dev-activate') await devActivateScenario(electron);
  else if (mode === 'vault-guard') await vaultGuardScenario(electron);
  else if (mode.startsWith('tray-')) await trayScenario(electron);
  else if (mode.startsWith('oco-')) await ocoScenario(electron);
  else if (mode.startsWith('chase-')) await chaseScenario(electron);
  else throw new Error(`unknown mode ${mode}`);
} catch (err) {
  report.fatal = String(err?.stack ?? err);
  exitCode = 1;
}
report.violations = electron?.boot?.violations ?? ['the fake electron was never loaded'];
report.connections = connections.records;
if (inspector.url()) inspector.close();
fs.writeFileSync(reportFile, JSON.stringify(report, null, 2));
// Electron's process ends after quit; open handles (sockets, timers) must not keep this one alive.
process.exit(exitCode || (report.errors.length > 0 ? 1 : 0));

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
import { chaseScenario } from './chaseScenario.mjs';
import { ocoScenario } from './ocoScenario.mjs';

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
  else if (mode.startsWith('oco-')) await ocoScenario(electron, { mode, report, step, withTimeout, valueOf, openApp, trayNow, clickTray });
  else if (mode.startsWith('chase-')) await chaseScenario(electron, { mode, report, step, withTimeout, valueOf, openApp, trayNow, clickTray });
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

/**
 * The Electron entry: single-instance lock, security guards, the app:// protocol, the app core with its
 * IPC handlers, and the main window. Everything it wires is plain Node code below src/main, testable
 * without Electron; this file only connects it to Electron's objects.
 */
import { app, BrowserWindow, ipcMain } from 'electron';
import inspector from 'node:inspector';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppCore } from './app/appCore.js';
import { consoleLogger } from './app/adapters.js';
import type { SimLauncher } from './app/simulator.js';
import { createHandlers } from './ipc/handlers/index.js';
import { registerHandlers } from './ipc/registerHandlers.js';
import { openElectronSettings } from './settings/electronSettings.js';
import { isTrustedFrameUrl } from './shell/appOrigin.js';
import { findDebugAccess, vaultRefusal } from './shell/debugAccess.js';
import { setVaultGate } from './vault/keychain.js';
import { watchVaultGate } from './vault/vaultGate.js';
import { electronAdapters } from './shell/electronAdapters.js';
import { createMainWindow, installSecurityGuards, registerAppSchemePrivileges, serveRenderer } from './shell/electronShell.js';
import { confirmQuitDialog, electronTrayView } from './shell/electronTray.js';
import { TrayMode } from './shell/trayMode.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
/** Hosts an external link may open in the system browser. */
const EXTERNAL_LINK_HOSTS = ['github.com'];

/**
 * The paper-trading simulator runs inside the app on loopback (port chosen by the OS). It is loaded on
 * demand so the mainnet profile never loads it. The composition root is the one place in main that
 * knows the simulator exists; the core only sees the launcher.
 */
const startSimulator: SimLauncher = async ({ stateFile, followVenue }) => {
  const sim = await import('../sim/index.js');
  return sim.startSimulator({
    port: 0,
    stateFile,
    ...(followVenue ? { followVenue: { infoUrl: followVenue.infoUrl, log: (line: string) => console.warn(line) } } : {}),
  });
};

registerAppSchemePrivileges();

/**
 * A debugging door (remote debugging, an inspector, NODE_OPTIONS loading code) lets another program drive
 * the app and so use its vault. Packaged, the vault stays closed while one is open (asked at every
 * keychain access, so an inspector opened later closes it too); from a checkout (npm start, npm run dev)
 * debugging is how the app is worked on, so main only warns.
 */
const debugAccessNow = (): string[] =>
  findDebugAccess({
    argv: process.argv,
    execArgv: process.execArgv,
    env: process.env,
    inspectorUrl: inspector.url(),
    hasSwitch: (name) => app.commandLine.hasSwitch(name),
  });
const debugAtStart = debugAccessNow();
if (app.isPackaged) {
  setVaultGate(() => {
    const found = debugAccessNow();
    return found.length > 0 ? vaultRefusal(found) : null;
  });
  // A door opened after start (an inspector attached later) locks every unlocked key within a second,
  // not at the next signature (issue 36); each signature asks the gate as well.
  watchVaultGate();
  if (debugAtStart.length > 0) console.error(`[app] ${vaultRefusal(debugAtStart)}.`);
} else if (debugAtStart.length > 0) {
  console.warn(`[app] started with ${debugAtStart.join(', ')}: another program can drive this app. A packaged build keeps its vault closed in this case; a checkout only warns.`);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let mainWindow: BrowserWindow | null = null;
  let core: AppCore | null = null;
  let quitting = false;
  let trayMode: TrayMode | null = null;
  let openWindow: () => void = () => undefined;

  app.on('second-instance', () => {
    // The app may be in the tray with its window hidden: a second launch brings it back.
    if (trayMode) trayMode.openWindow();
    else if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });

  void app.whenReady().then(async () => {
    const settings = openElectronSettings(app.getPath('userData'));
    installSecurityGuards(EXTERNAL_LINK_HOSTS, devServerUrl);
    serveRenderer(path.join(here, '../renderer'));

    const adapters = electronAdapters(() => mainWindow, consoleLogger);
    const started = new AppCore({
      dataDir: app.getPath('userData'),
      settings,
      appInfo: { name: 'Perps Desk', version: app.getVersion(), platform: process.platform },
      adapters,
      startSimulator,
    });
    core = started;
    registerHandlers(ipcMain, createHandlers(started), (url) => isTrustedFrameUrl(url, devServerUrl));
    try {
      await started.start();
    } catch (err) {
      // The window still opens: the renderer shows the failure through app:getProfile / NOT_READY.
      console.error(`[app] starting the app core failed: ${(err as Error).message}`);
    }

    const preloadPath = path.join(here, '../preload/index.cjs');
    const newWindow = () => {
      const win = createMainWindow({ preloadPath, settings, ...(devServerUrl ? { devServerUrl } : {}) });
      // Closing the window while work runs in the background keeps the app in the tray (./shell/trayMode.ts).
      win.on('close', (event) => {
        if (trayMode?.onWindowClose()) event.preventDefault();
      });
      // Windows: a shutdown or log-off cannot be held up; the window then closes for good.
      win.on('session-end', () => trayMode?.onSessionEnd());
      return win;
    };
    openWindow = () => {
      // A new window shows itself once its page is ready (createMainWindow).
      if (!mainWindow || mainWindow.isDestroyed()) {
        mainWindow = newWindow();
        return;
      }
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.show();
      mainWindow.focus();
    };
    trayMode = new TrayMode({
      platform: process.platform,
      activeWork: () => started.backgroundWork.active(),
      onWorkChange: (listener) => started.backgroundWork.onChange(listener),
      keepInTray: () => started.desks.settings.getTray().keep_running_in_tray,
      showWindow: () => openWindow(),
      hideWindow: () => mainWindow?.hide(),
      tray: electronTrayView(),
      confirmQuit: (words) => confirmQuitDialog(mainWindow, words),
      notify: (notice) => adapters.notifications.notify(notice),
      quit: () => app.quit(),
      logError: (message) => console.error(message),
      riskLine: () => started.desks.risk.trayLine,
      requestPanic: () => started.desks.risk.requestPanic(),
    });
    mainWindow = newWindow();
    // macOS: clicking the dock icon with no window open makes a new one, on the same page as the first;
    // a window hidden in the tray is shown again.
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0 || trayMode?.inTray) trayMode?.openWindow();
    });
  });

  // Quitting with work running asks first (trayMode), then waits for the core: the simulator saves its
  // state and the event streams stop cleanly.
  app.on('before-quit', (event) => {
    if (quitting || !core) return;
    if (trayMode && !trayMode.allowQuit()) {
      event.preventDefault();
      return;
    }
    event.preventDefault();
    quitting = true;
    core
      .stop()
      .catch((err: unknown) => console.error(`[app] shutting down the app core failed: ${(err as Error).message}`))
      .finally(() => app.quit());
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

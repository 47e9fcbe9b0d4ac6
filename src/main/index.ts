/**
 * The Electron entry: single-instance lock, security guards, the app:// protocol, IPC handlers and the
 * main window. Everything it wires is plain Node code below src/main, testable without Electron.
 */
import { app, BrowserWindow, ipcMain } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Store from 'electron-store';
import { registerHandlers } from './ipc/registerHandlers.js';
import type { SettingsStore } from './settings/settingsStore.js';
import { isTrustedFrameUrl } from './shell/appOrigin.js';
import { createMainWindow, installSecurityGuards, registerAppSchemePrivileges, serveRenderer } from './shell/electronShell.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
/** Hosts an external link may open in the system browser. */
const EXTERNAL_LINK_HOSTS = ['github.com'];

registerAppSchemePrivileges();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let mainWindow: BrowserWindow | null = null;
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });

  void app.whenReady().then(() => {
    const store = new Store<Record<string, unknown>>({ name: 'settings' });
    const settings: SettingsStore = {
      get: (k) => store.get(k),
      set: (k, v) => store.set(k, v),
      has: (k) => store.has(k),
      delete: (k) => store.delete(k),
      path: store.path,
    };
    installSecurityGuards(EXTERNAL_LINK_HOSTS, devServerUrl);
    serveRenderer(path.join(here, '../renderer'));
    registerHandlers(
      ipcMain,
      {
        'app:getInfo': async () => ({ name: 'Perps Desk', version: app.getVersion(), profile: 'sim', platform: process.platform }),
      },
      (url) => isTrustedFrameUrl(url, devServerUrl),
    );
    mainWindow = createMainWindow({ preloadPath: path.join(here, '../preload/index.cjs'), settings, ...(devServerUrl ? { devServerUrl } : {}) });
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow({ preloadPath: path.join(here, '../preload/index.cjs'), settings });
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

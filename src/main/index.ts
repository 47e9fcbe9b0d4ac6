/**
 * The Electron shell: windows, security guards and app lifecycle. A thin adapter over plain-Node code
 * (services, vault, simulator) so everything below it is testable without the Electron binary.
 */
import { BrowserWindow, app, ipcMain, session, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerHandlers } from './ipc/registerHandlers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RENDERER_DEV_URL = process.env['ELECTRON_RENDERER_URL'];

function isTrustedFrameUrl(url: string): boolean {
  if (RENDERER_DEV_URL && url.startsWith(RENDERER_DEV_URL)) return true;
  return url.startsWith('file://') && url.includes('/out/renderer/');
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    show: false,
    backgroundColor: '#0b0e14',
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  // No navigation away from the app and no new windows; https links open in the system browser.
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  if (RENDERER_DEV_URL) void win.loadURL(RENDERER_DEV_URL);
  else void win.loadFile(path.join(here, '../renderer/index.html'));
  return win;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    registerHandlers(
      ipcMain,
      {
        'app:getInfo': async () => ({ name: 'Perps Desk', version: app.getVersion(), profile: 'sim', platform: process.platform }),
      },
      isTrustedFrameUrl,
    );
    createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

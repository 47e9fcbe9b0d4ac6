/**
 * Electron implementations of the app core's host interfaces (src/main/app/adapters.ts): events to the
 * renderer through webContents.send, native open/save dialogs, native notifications. Thin on purpose:
 * the behaviour lives in the core, which is tested with doubles of these.
 */
import { BrowserWindow, Notification, dialog, type MessageBoxOptions, type OpenDialogOptions, type SaveDialogOptions } from 'electron';
import type { AppAdapters, AppLogger } from '../app/adapters.js';

/** A native confirmation over `win` (or on its own): true only on an explicit click of the confirm button. */
export async function confirmWithMessageBox(win: BrowserWindow | null, words: { title: string; message: string; detail: string; confirmLabel: string }): Promise<boolean> {
  // Cancel is the default and the Escape answer: only an explicit click on the confirm button says yes.
  const options: MessageBoxOptions = { type: 'warning', title: words.title, message: words.message, detail: words.detail, buttons: [words.confirmLabel, 'Cancel'], defaultId: 1, cancelId: 1, noLink: true };
  const res = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
  return res.response === 0;
}

export function electronAdapters(getWindow: () => BrowserWindow | null, logger: AppLogger): AppAdapters {
  return {
    events: {
      send(wireChannel, payload) {
        const win = getWindow();
        // Before the window exists (or after it closed) there is nobody to tell; the renderer reads the
        // current state through the channels when it loads.
        if (!win || win.isDestroyed() || win.webContents.isDestroyed()) return;
        win.webContents.send(wireChannel, payload);
      },
    },
    dialogs: {
      async chooseOpenFile({ title, filters }) {
        const win = getWindow();
        const options: OpenDialogOptions = { title, filters, properties: ['openFile'] };
        const res = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
        return res.canceled ? null : (res.filePaths[0] ?? null);
      },
      async chooseSaveFile({ title, defaultName, filters }) {
        const win = getWindow();
        const options: SaveDialogOptions = { title, defaultPath: defaultName, filters };
        const res = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
        return res.canceled ? null : (res.filePath ?? null);
      },
      confirm(words) {
        return confirmWithMessageBox(getWindow(), words);
      },
    },
    notifications: {
      notify({ title, body }) {
        if (!Notification.isSupported()) {
          logger.info(`[notify] ${title}: ${body}`);
          return;
        }
        new Notification({ title, body, silent: false }).show();
      },
    },
  };
}

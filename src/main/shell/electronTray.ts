/**
 * Electron's side of tray mode (the rules are in ./trayMode.ts): the Tray icon with its context menu, and
 * the quit confirmation as a native message box. Thin on purpose.
 */
import { Menu, Tray, nativeImage, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import { confirmWithMessageBox } from './electronAdapters.js';
import { TRAY_ICON_PNG_BASE64 } from './trayIcon.js';
import type { QuitConfirmation, TrayMenuItem, TrayView } from './trayMode.js';

/**
 * The tray icon. Linux's app indicator shows an icon only with a context menu and ignores clicks, and
 * a changed menu shows only once set again: so every change sets a whole new menu, and Open is in it.
 */
export function electronTrayView(): TrayView {
  let tray: Tray | null = null;
  let choose: (item: TrayMenuItem) => void = () => undefined;
  return {
    show(menu, tooltip, onChoose) {
      choose = onChoose;
      if (!tray) {
        // 32 pixels drawn at 16 points: sharp on a high-density display, the usual size elsewhere.
        tray = new Tray(nativeImage.createFromBuffer(Buffer.from(TRAY_ICON_PNG_BASE64, 'base64'), { scaleFactor: 2 }));
        // Windows and macOS report a click on the icon itself: it opens the window, as Open does.
        tray.on('click', () => choose({ type: 'action', action: 'open', label: 'Open' }));
      }
      tray.setToolTip(tooltip);
      tray.setContextMenu(Menu.buildFromTemplate(menu.map((item) => menuItem(item, (chosen) => choose(chosen)))));
    },
    destroy() {
      tray?.destroy();
      tray = null;
    },
  };
}

function menuItem(item: TrayMenuItem, choose: (item: TrayMenuItem) => void): MenuItemConstructorOptions {
  switch (item.type) {
    case 'separator':
      return { type: 'separator' };
    case 'info':
      return { label: item.label, enabled: false };
    case 'work':
      return { id: item.id, label: item.label, click: () => choose(item) };
    case 'action':
      return { id: item.action, label: item.label, click: () => choose(item) };
  }
}

/**
 * The quit confirmation: over the window when it is on screen, on its own when the app is in the tray (a
 * sheet on a hidden window would not be seen).
 */
export function confirmQuitDialog(window: BrowserWindow | null, words: QuitConfirmation): Promise<boolean> {
  return confirmWithMessageBox(window && !window.isDestroyed() && window.isVisible() ? window : null, words);
}

/**
 * What the app core needs from its host, as small interfaces. In the Electron app they are implemented
 * in src/main/shell/ (dialogs, native notifications, webContents.send); in tests by plain doubles. The
 * core never imports Electron, so it runs and is tested under plain Node.
 */

/** Delivers a main-to-renderer event (webContents.send in the app). */
export interface EventSink {
  send(wireChannel: string, payload: unknown): void;
}

export interface FileFilter {
  name: string;
  extensions: string[];
}

/** Native file dialogs. A cancelled dialog resolves null. */
export interface DialogAdapter {
  chooseOpenFile(options: { title: string; filters: FileFilter[] }): Promise<string | null>;
  chooseSaveFile(options: { title: string; defaultName: string; filters: FileFilter[] }): Promise<string | null>;
  /**
   * A confirmation drawn by main, not by the page (a native message box in the app): for the few
   * decisions a compromised page must not be able to make alone. Resolves true only on the confirm button.
   */
  confirm(options: { title: string; message: string; detail: string; confirmLabel: string }): Promise<boolean>;
}

/** Native notifications (fills, trigger fires, finished withdrawals, key expiry). */
export interface NotificationAdapter {
  notify(notification: { title: string; body: string }): void;
}

/** Where the core logs. Messages never hold payloads, passwords, keys or signatures. */
export interface AppLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface AppAdapters {
  events: EventSink;
  dialogs: DialogAdapter;
  notifications: NotificationAdapter;
}

export const consoleLogger: AppLogger = {
  info: (m) => console.info(m),
  warn: (m) => console.warn(m),
  error: (m) => console.error(m),
};

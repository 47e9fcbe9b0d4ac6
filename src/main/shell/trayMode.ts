/**
 * Running in the tray (issue 27, item 5), as plain code: what closing the window does, what the tray's menu
 * lists, what the quit confirmation says, and the controller that ties them to the host (Electron's
 * window, Tray, dialog and notifications in src/main/shell/electronTray.ts; doubles in the tests).
 *
 *  - Closing the window while background work is active (a TWAP, alerts, trailing stops, OCO pairs) and
 *    tray mode is on hides it and shows the tray icon (open, what is running, quit); the first time in a
 *    run, a notification says the app keeps running.
 *  - With nothing active, closing quits as it always did (macOS: the app stays in the dock, as there).
 *  - Tray mode off and work active: closing the window is a quit, which asks first (macOS keeps its
 *    convention: closing a window never quits there, so nothing stops and nothing is asked).
 *  - Every quit with work active asks first (native dialog) and names what will stop; Cancel keeps all
 *    of it running. Quit reads the work again: anything started while the dialog was open is asked
 *    about before it stops.
 */
import { WORK_KINDS, BACKGROUND_WORK_KINDS, type ActiveWork } from '../app/backgroundWork.js';
import { oneLineText } from '../../shared/safeText.js';

export const APP_NAME = 'Perps Desk';

/** One piece of work, whatever its label says now (a TWAP's progress changes its label, not what it is). */
function workKey(w: ActiveWork): string {
  return `${w.kind}:${w.id}`;
}

export type CloseDecision =
  /** Let the window close (quitting, or nothing active: as before tray mode). */
  | 'close'
  /** Keep the window, hidden, and the app in the tray. */
  | 'hide'
  /** Keep the window and quit instead: the quit asks first. */
  | 'quit';

export function decideWindowClose(input: { platform: NodeJS.Platform; quitting: boolean; keepInTray: boolean; activeCount: number }): CloseDecision {
  if (input.quitting || input.activeCount === 0) return 'close';
  if (input.keepInTray) return 'hide';
  // macOS: closing the last window leaves the app running in the dock, so the work goes on; nothing to ask.
  if (input.platform === 'darwin') return 'close';
  return 'quit';
}

/** "1 TWAP", "2 trailing stops". */
function countOf(kind: ActiveWork['kind'], n: number): string {
  return `${n} ${n === 1 ? WORK_KINDS[kind].one : WORK_KINDS[kind].many}`;
}

/** "1 TWAP and 2 alerts" (kinds in their fixed order). */
export function describeActive(active: readonly ActiveWork[]): string {
  const parts = BACKGROUND_WORK_KINDS.map((k) => [k, active.filter((w) => w.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => countOf(k, n));
  if (parts.length <= 1) return parts[0] ?? 'nothing';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export interface QuitConfirmation {
  title: string;
  message: string;
  /** What stops, kind by kind with each item, and what quitting does to that kind. */
  detail: string;
  confirmLabel: string;
}

/** The quit dialog's words, or null when nothing is active (then quitting asks nothing). */
export function quitConfirmation(active: readonly ActiveWork[]): QuitConfirmation | null {
  if (active.length === 0) return null;
  const sections: string[] = [];
  for (const kind of BACKGROUND_WORK_KINDS) {
    const items = active.filter((w) => w.kind === kind);
    if (items.length === 0) continue;
    const info = WORK_KINDS[kind];
    const what = items.length === 1 ? `The ${info.one} ${info.onQuit}.` : `Each ${info.one} ${info.onQuit}.`;
    // Labels carry text from records and the service: one line each, no control or bidi character.
    sections.push([`${countOf(kind, items.length)}:`, ...items.map((w) => `  • ${oneLineText(w.label)}`), what].join('\n'));
  }
  return {
    title: `Quit ${APP_NAME}`,
    message: `Quit ${APP_NAME}? ${describeActive(active)} will stop.`,
    detail: sections.join('\n\n'),
    confirmLabel: 'Quit',
  };
}

export type TrayAction = 'open' | 'quit' | 'panic';

export type TrayMenuItem =
  | { type: 'action'; action: TrayAction; label: string }
  /** A line of what is running; choosing it opens the window. */
  | { type: 'work'; id: string; label: string }
  | { type: 'info'; label: string }
  | { type: 'separator' };

/**
 * The tray's menu: a lockout's line (issue 39) on top, then open, what is running (one line each), Panic
 * and quit. Panic sits beside Quit, never first, so the item under the pointer when the menu opens is
 * Open; choosing it only opens the window on Panic's confirmation.
 */
export function trayMenu(active: readonly ActiveWork[], risk: { line?: string | null; panic?: boolean } = {}): TrayMenuItem[] {
  return [
    ...(risk.line ? [{ type: 'info', label: risk.line } as const, { type: 'separator' } as const] : []),
    { type: 'action', action: 'open', label: `Open ${APP_NAME}` },
    { type: 'separator' },
    ...(active.length === 0
      ? [{ type: 'info', label: 'Nothing running' } as const]
      : [{ type: 'info', label: `Running: ${describeActive(active)}` } as const, ...active.map((w) => ({ type: 'work', id: workKey(w), label: oneLineText(w.label) }) as const)]),
    { type: 'separator' },
    ...(risk.panic ? [{ type: 'action', action: 'panic', label: 'Panic: close everything…' } as const] : []),
    { type: 'action', action: 'quit', label: `Quit ${APP_NAME}` },
  ];
}

export function trayTooltip(active: readonly ActiveWork[]): string {
  return active.length === 0 ? APP_NAME : `${APP_NAME}: ${describeActive(active)} running`;
}

/** The notification shown the first time in a run that closing the window left the app in the tray. */
export function keptRunningNotice(active: readonly ActiveWork[]): { title: string; body: string } {
  return { title: APP_NAME, body: `${APP_NAME} keeps running in the tray: ${active.length} active (${describeActive(active)}). Quit it from the tray icon's menu.` };
}

/** The tray icon as the host draws it. */
export interface TrayView {
  /** Shows the icon (creating it the first time) with this menu and tooltip; later calls replace both. */
  show(menu: readonly TrayMenuItem[], tooltip: string, onChoose: (item: TrayMenuItem) => void): void;
  destroy(): void;
}

export interface TrayHost {
  platform: NodeJS.Platform;
  activeWork(): ActiveWork[];
  onWorkChange(listener: () => void): () => void;
  keepInTray(): boolean;
  /** Shows (and focuses) the main window, making one if there is none. */
  showWindow(): void;
  hideWindow(): void;
  tray: TrayView;
  /** The native quit confirmation; true only on its Quit button. */
  confirmQuit(words: QuitConfirmation): Promise<boolean>;
  notify(notice: { title: string; body: string }): void;
  /** Asks the app to quit (app.quit: before-quit, the windows close, quit). */
  quit(): void;
  logError(message: string): void;
  /** The risk limits' status line (a lockout), if any. */
  riskLine?(): string | null;
  /** Opens the panic confirmation in the window (never panics by itself). */
  requestPanic?(): void;
}

export class TrayMode {
  /** A quit has been let through (confirmed, or nothing was active): windows now close for good. */
  private quitting = false;
  private asking = false;
  private noticeShown = false;
  private hiddenInTray = false;
  private readonly stopListening: () => void;

  constructor(private readonly host: TrayHost) {
    this.stopListening = host.onWorkChange(() => {
      if (this.hiddenInTray) this.drawTray();
    });
  }

  /** The window is hidden and the app lives in the tray. */
  get inTray(): boolean {
    return this.hiddenInTray;
  }

  /** The window's close event: true when the close must be prevented (the window hides, or a quit is asked instead). */
  onWindowClose(): boolean {
    const active = this.host.activeWork();
    const decision = decideWindowClose({ platform: this.host.platform, quitting: this.quitting, keepInTray: this.host.keepInTray(), activeCount: active.length });
    if (decision === 'close') return false;
    if (decision === 'hide') {
      this.host.hideWindow();
      this.hiddenInTray = true;
      this.drawTray();
      if (!this.noticeShown) {
        this.noticeShown = true;
        this.host.notify(keptRunningNotice(active));
      }
      return true;
    }
    this.host.quit();
    return true;
  }

  /**
   * The app's before-quit: true lets the quit go on; false holds it while the confirmation is open (its
   * Quit button quits again, and that quit goes through).
   */
  allowQuit(): boolean {
    if (this.quitting) return true;
    const words = quitConfirmation(this.host.activeWork());
    if (!words) {
      this.letQuit();
      return true;
    }
    if (!this.asking) {
      this.asking = true;
      void this.confirmThenQuit()
        .catch((err: unknown) => this.host.logError(`[tray] the quit confirmation failed, so the app keeps running: ${(err as Error).message}`))
        .finally(() => {
          this.asking = false;
        });
    }
    return false;
  }

  /**
   * Asks, and on Quit reads the work again (issue 36: the dialog named what ran when it opened, and a
   * trailing stop started meanwhile stopped unnamed). Work that began while the dialog was open is asked
   * about again; work that ended meanwhile needs nothing more.
   */
  private async confirmThenQuit(): Promise<void> {
    let shown = this.host.activeWork();
    for (;;) {
      const words = quitConfirmation(shown);
      if (!words) break;
      if (!(await this.host.confirmQuit(words))) return;
      const named = new Set(shown.map(workKey));
      const now = this.host.activeWork();
      if (now.every((w) => named.has(workKey(w)))) break;
      shown = now;
    }
    this.letQuit();
    this.host.quit();
  }

  /**
   * Windows is shutting down or logging off (the window's session-end): the session ends whatever the app
   * does, so the window closes without hiding or asking (a prevented close would hold up the shutdown).
   */
  onSessionEnd(): void {
    this.letQuit();
  }

  /** The window is back (the tray's Open, a second launch, the dock): the tray icon goes. */
  openWindow(): void {
    this.host.showWindow();
    this.leaveTray();
  }

  private letQuit(): void {
    this.quitting = true;
    this.stopListening();
    this.leaveTray();
  }

  private leaveTray(): void {
    if (!this.hiddenInTray) return;
    this.hiddenInTray = false;
    this.host.tray.destroy();
  }

  private drawTray(): void {
    const active = this.host.activeWork();
    this.host.tray.show(trayMenu(active, { line: this.host.riskLine?.() ?? null, panic: this.host.requestPanic !== undefined }), trayTooltip(active), (item) => {
      if (item.type === 'action' && item.action === 'quit') this.host.quit();
      else if (item.type === 'action' && item.action === 'panic') {
        this.openWindow();
        this.host.requestPanic?.();
      } else this.openWindow();
    });
  }
}

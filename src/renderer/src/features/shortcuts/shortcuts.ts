/**
 * Global keyboard shortcuts. Single keys act only when focus is not in a text field (so typing "s" into
 * a search box never flips the ticket to sell) and no dialog is open (a dialog owns the keyboard; Esc
 * is handled by the dialog itself).
 */
import { useEffect } from 'react';
import { focusSearch, focusTicket, goTo, setUi, toggleAssistant, VIEWS, type View } from '../../app/uiStore';
import { isDialogOpen } from '../../ui/Dialog';

export interface ShortcutDef {
  keys: string[];
  description: string;
}

/**
 * Ctrl+digit goes to the views numbered as the top bar shows them (Ctrl+3 is Portfolio, the third): the
 * first eight, so Ctrl+9 stays free for a trade hotkey (src/shared/tradeHotkeys.ts takes Ctrl+1 to 8).
 * Settings, the ninth, is Ctrl+, (the desktop convention for preferences; never a trade hotkey).
 */
function viewDigits(): Partial<Record<View, string>> {
  return Object.fromEntries(VIEWS.slice(0, 8).map((v, i) => [v.id, String(i + 1)]));
}
const VIEW_DIGIT = viewDigits();
const VIEW_KEYS: Record<string, View> = { ...Object.fromEntries(Object.entries(VIEW_DIGIT).map(([view, digit]) => [digit, view as View])), ',': 'settings' };

/** A view's shortcut as the nav's title shows it and as aria-keyshortcuts names it. */
export function viewShortcut(view: View): { text: string; aria: string } | undefined {
  const key = VIEW_DIGIT[view] ?? (view === 'settings' ? ',' : undefined);
  return key === undefined ? undefined : { text: `Ctrl+${key}`, aria: `Control+${key} Meta+${key}` };
}

export const SHORTCUTS: ShortcutDef[] = [
  { keys: ['B'], description: 'Buy: focus the order ticket on the buy side' },
  { keys: ['S'], description: 'Sell: focus the order ticket on the sell side' },
  { keys: ['/'], description: 'Search markets' },
  { keys: ['Esc'], description: 'Close the open dialog or menu (never signs), or leave a field' },
  { keys: ['Tab'], description: 'Next control (Shift+Tab: previous); stays inside an open dialog' },
  { keys: ['← →'], description: 'Move in tabs and option groups (Home, End: first, last)' },
  { keys: ['↓'], description: 'Open a row’s ⋯ menu and move in it (↑, Home, End, a letter)' },
  { keys: ['?'], description: 'Show this shortcut sheet' },
  { keys: ['Ctrl', 'K'], description: 'Command palette: go to a view, market or setting, or type a trade (buy 0.1 BTC, close ETH 50%) to review it (Cmd+K on macOS)' },
  { keys: ['A'], description: 'Open or close the assistant panel' },
  // Ctrl+1… go to the views in the order the top bar shows them; Settings, the ninth, is Ctrl+, (below).
  ...VIEWS.filter((v) => VIEW_DIGIT[v.id]).map((v) => ({ keys: ['Ctrl', VIEW_DIGIT[v.id]!], description: v.label })),
  { keys: ['Ctrl', ','], description: 'Settings' },
];

export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'range', 'button', 'submit'].includes(target.type);
  }
  return false;
}

/** Installs the shortcuts while `enabled` (the terminal is shown, not onboarding). */
export function useGlobalShortcuts(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isDialogOpen()) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && VIEW_KEYS[e.key]) {
        e.preventDefault();
        goTo(VIEW_KEYS[e.key] as View);
        return;
      }
      if (e.key === 'Escape' && isTyping(e.target)) {
        (e.target as HTMLElement).blur();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      switch (e.key) {
        case 'b':
        case 'B':
          e.preventDefault();
          focusTicket('BUY');
          break;
        case 's':
        case 'S':
          e.preventDefault();
          focusTicket('SELL');
          break;
        case '/':
          e.preventDefault();
          focusSearch();
          break;
        case '?':
          e.preventDefault();
          setUi({ shortcutSheet: true });
          break;
        case 'a':
        case 'A':
          e.preventDefault();
          toggleAssistant();
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

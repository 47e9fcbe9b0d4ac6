/**
 * Global keyboard shortcuts. Single keys act only when focus is not in a text field (so typing "s" into
 * a search box never flips the ticket to sell) and no dialog is open (a dialog owns the keyboard; Esc
 * is handled by the dialog itself).
 */
import { useEffect } from 'react';
import { focusSearch, focusTicket, goTo, setUi, toggleAssistant, type View } from '../../app/uiStore';
import { isDialogOpen } from '../../ui/Dialog';

export interface ShortcutDef {
  keys: string[];
  description: string;
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
  { keys: ['Ctrl', '1'], description: 'Trade' },
  { keys: ['Ctrl', '2'], description: 'History' },
  { keys: ['Ctrl', '3'], description: 'Withdraw' },
  { keys: ['Ctrl', '4'], description: 'Bridge' },
  { keys: ['Ctrl', '5'], description: 'Swap' },
  { keys: ['Ctrl', '6'], description: 'Points' },
  { keys: ['Ctrl', '7'], description: 'Trading keys' },
  { keys: ['Ctrl', '8'], description: 'Settings' },
];

/**
 * Ctrl+digit goes to these views, numbered as they were first laid out in the top bar. Portfolio (shown
 * after History) has no digit: Ctrl+9 would take a key users may have bound to a trade hotkey.
 */
const VIEW_KEYS: Record<string, View> = { '1': 'trade', '2': 'history', '3': 'withdraw', '4': 'bridge', '5': 'swap', '6': 'points', '7': 'keys', '8': 'settings' };

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

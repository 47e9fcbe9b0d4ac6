/**
 * The app's views as a typed command names them ("history", "go to settings", "trading keys"). The ids
 * are the renderer's View ids (the command palette, features/commandPalette/CommandPaletteHost.tsx, fails
 * to compile when a view is missing here); the words are what a trader may type for each.
 */
export const COMMAND_VIEWS = [
  { view: 'trade', label: 'Trade', words: ['trade', 'trading', 'ticket'] },
  { view: 'history', label: 'History', words: ['history', 'fills', 'trades'] },
  { view: 'portfolio', label: 'Portfolio', words: ['portfolio', 'pnl'] },
  { view: 'withdraw', label: 'Withdraw', words: ['withdraw', 'withdrawals', 'withdrawal'] },
  { view: 'bridge', label: 'Bridge', words: ['bridge'] },
  { view: 'swap', label: 'Swap', words: ['swap'] },
  { view: 'points', label: 'Points', words: ['points'] },
  { view: 'keys', label: 'Keys', words: ['keys', 'key', 'trading keys', 'trading key'] },
  { view: 'settings', label: 'Settings', words: ['settings', 'preferences', 'prefs'] },
] as const;

export type CommandView = (typeof COMMAND_VIEWS)[number]['view'];

/** The view named by these words (lower case, joined by one space), or null. */
export function viewNamed(words: string): CommandView | null {
  return COMMAND_VIEWS.find((v) => (v.words as readonly string[]).includes(words))?.view ?? null;
}

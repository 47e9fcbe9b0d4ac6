/**
 * Trade hotkeys: keyboard shortcuts that trade (issue 15 item 4), off until the person turns them on in
 * Settings. One pure module for main (which stores them and refuses conflicts) and the renderer (which
 * records keys, lists them in the shortcut sheet and acts on them), so both agree on what a key is and
 * which keys are taken.
 *
 * A key is written as its modifiers in a fixed order and the key itself: "Alt+B", "Ctrl+Shift+X", "F2".
 * Letters and digits are named by their physical key (KeyboardEvent.code), so Alt+B is "Alt+B" on a Mac
 * too, where the character Alt+B types is "∫". Zod-free (the renderer imports it); the IPC schemas are in
 * ipc/hotkeys.ts.
 */
export const TRADE_HOTKEY_ACTIONS = ['market_buy', 'market_sell', 'close_selected', 'close_all', 'cancel_all_market', 'cancel_all', 'flip_selected'] as const;
export type TradeHotkeyAction = (typeof TRADE_HOTKEY_ACTIONS)[number];

export const TRADE_HOTKEY_LABELS: Record<TradeHotkeyAction, string> = {
  market_buy: 'Buy at market with the ticket’s size',
  market_sell: 'Sell at market with the ticket’s size',
  close_selected: 'Close the selected market’s position',
  close_all: 'Close all positions',
  cancel_all_market: 'Cancel all orders on the selected market',
  cancel_all: 'Cancel all orders on every market',
  flip_selected: 'Flip (reverse) the selected market’s position',
};

/** Off until enabled; the keys are suggestions that clash with nothing built in. */
export const DEFAULT_TRADE_HOTKEYS: TradeHotkeys = {
  enabled: false,
  bindings: {
    market_buy: 'Alt+B',
    market_sell: 'Alt+S',
    close_selected: 'Alt+C',
    close_all: 'Alt+Shift+C',
    cancel_all_market: 'Alt+X',
    cancel_all: 'Alt+Shift+X',
    flip_selected: 'Alt+F',
  },
};

const MODIFIERS = ['Ctrl', 'Alt', 'Shift', 'Meta'] as const;
/** Keys that may stand alone or with modifiers (beyond letters and digits). */
const NAMED_KEYS = new Set(['F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12', 'Insert', 'Delete', 'Home', 'End', 'PageUp', 'PageDown']);

export type Hotkey = string;

export interface TradeHotkeys {
  enabled: boolean;
  /** null: that action has no key. */
  bindings: Record<TradeHotkeyAction, Hotkey | null>;
}

/** A key as written: modifiers Ctrl, Alt, Shift, Meta (in that order), then a letter, a digit or a named key. */
export const HOTKEY_PATTERN = /^((Ctrl|Alt|Shift|Meta)\+)*([A-Z0-9]|F([1-9]|1[0-2])|Insert|Delete|Home|End|PageUp|PageDown)$/;

/** Modifiers each once, in the order Ctrl, Alt, Shift, Meta. */
export function isCanonicalHotkey(k: string): boolean {
  const parts = k.split('+');
  const mods = parts.slice(0, -1);
  const order = mods.map((m) => MODIFIERS.indexOf(m as (typeof MODIFIERS)[number]));
  return order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1]!));
}

/**
 * The app's built-in shortcuts (the shortcut sheet's), as keys: a trade hotkey may not take one. Single
 * letters act with or without Shift, so both are taken.
 */
export const BUILT_IN_KEYS: readonly string[] = ['B', 'Shift+B', 'S', 'Shift+S', 'A', 'Shift+A', 'Shift+/', '/', 'Ctrl+K', 'Meta+K', ...['1', '2', '3', '4', '5', '6', '7', '8'].flatMap((d) => [`Ctrl+${d}`, `Meta+${d}`])];

/**
 * A key event as a key ("Alt+B"), or null for a lone modifier or a key that cannot be a hotkey. `code`
 * names letters and digits (the physical key); other keys go by `key`.
 */
export function hotkeyOf(e: { key: string; code: string; ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean }): string | null {
  let main: string | null = null;
  const letter = /^Key([A-Z])$/.exec(e.code);
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(e.code);
  if (letter) main = letter[1]!;
  else if (digit) main = digit[1]!;
  else if (NAMED_KEYS.has(e.key)) main = e.key;
  else if (e.key === '/' || e.key === '?') main = '/';
  if (main === null) return null;
  const mods = [e.ctrlKey && 'Ctrl', e.altKey && 'Alt', (e.shiftKey || e.key === '?') && 'Shift', e.metaKey && 'Meta'].filter(Boolean) as string[];
  return [...mods, main].join('+');
}

export interface HotkeyConflict {
  action: TradeHotkeyAction;
  key: string;
  message: string;
}

/** Keys that cannot be used: one of the app's own shortcuts, or the same key for two actions. */
export function hotkeyConflicts(bindings: TradeHotkeys['bindings']): HotkeyConflict[] {
  const out: HotkeyConflict[] = [];
  const seen = new Map<string, TradeHotkeyAction>();
  for (const action of TRADE_HOTKEY_ACTIONS) {
    const key = bindings[action];
    if (key === null) continue;
    if (BUILT_IN_KEYS.includes(key)) out.push({ action, key, message: `${key} is already an app shortcut (see the shortcut sheet, ?)` });
    else if (seen.has(key)) out.push({ action, key, message: `${key} is already used for “${TRADE_HOTKEY_LABELS[seen.get(key)!]}”` });
    else seen.set(key, action);
  }
  return out;
}

/** The action a key is bound to (null: none, or hotkeys are off). */
export function actionOfKey(hotkeys: TradeHotkeys, key: string | null): TradeHotkeyAction | null {
  if (!hotkeys.enabled || key === null) return null;
  return TRADE_HOTKEY_ACTIONS.find((a) => hotkeys.bindings[a] === key) ?? null;
}

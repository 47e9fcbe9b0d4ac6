/** Trade hotkeys' rules: keys named by physical key, built-in shortcuts and duplicates refused, off by default. */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_KEYS, DEFAULT_TRADE_HOTKEYS, actionOfKey, hotkeyConflicts, hotkeyOf, isCanonicalHotkey } from '../../src/shared/tradeHotkeys.js';

const ev = (code: string, key: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean; meta?: boolean } = {}) => ({ code, key, ctrlKey: !!mods.ctrl, altKey: !!mods.alt, shiftKey: !!mods.shift, metaKey: !!mods.meta });

describe('trade hotkeys', () => {
  it('names a key by its physical key and its modifiers in a fixed order', () => {
    // Alt+B types "∫" on a Mac: still Alt+B.
    expect(hotkeyOf(ev('KeyB', '∫', { alt: true }))).toBe('Alt+B');
    expect(hotkeyOf(ev('KeyX', 'X', { shift: true, alt: true, ctrl: true }))).toBe('Ctrl+Alt+Shift+X');
    expect(hotkeyOf(ev('Digit3', '3', { ctrl: true }))).toBe('Ctrl+3');
    expect(hotkeyOf(ev('F2', 'F2'))).toBe('F2');
    expect(hotkeyOf(ev('Slash', '?', { shift: true }))).toBe('Shift+/');
    // A lone modifier or an unnamed key is not a hotkey.
    expect(hotkeyOf(ev('AltLeft', 'Alt', { alt: true }))).toBeNull();
    expect(hotkeyOf(ev('Tab', 'Tab'))).toBeNull();
    expect(isCanonicalHotkey('Alt+Ctrl+B')).toBe(false);
    expect(isCanonicalHotkey('Ctrl+Alt+B')).toBe(true);
  });

  it('is off by default and its default keys clash with nothing', () => {
    expect(DEFAULT_TRADE_HOTKEYS.enabled).toBe(false);
    expect(hotkeyConflicts(DEFAULT_TRADE_HOTKEYS.bindings)).toEqual([]);
    expect(actionOfKey(DEFAULT_TRADE_HOTKEYS, 'Alt+B')).toBeNull();
    expect(actionOfKey({ ...DEFAULT_TRADE_HOTKEYS, enabled: true }, 'Alt+B')).toBe('market_buy');
  });

  it("refuses the app's own shortcuts (a letter with or without Shift) and one key for two actions", () => {
    expect(BUILT_IN_KEYS).toContain('Shift+B');
    const taken = hotkeyConflicts({ ...DEFAULT_TRADE_HOTKEYS.bindings, market_buy: 'B', close_all: 'Ctrl+1' });
    expect(taken.map((c) => [c.action, c.key])).toEqual([
      ['market_buy', 'B'],
      ['close_all', 'Ctrl+1'],
    ]);
    const twice = hotkeyConflicts({ ...DEFAULT_TRADE_HOTKEYS.bindings, flip_selected: 'Alt+S' });
    expect(twice).toEqual([{ action: 'flip_selected', key: 'Alt+S', message: expect.stringContaining('Sell at market') }]);
    expect(hotkeyConflicts({ ...DEFAULT_TRADE_HOTKEYS.bindings, flip_selected: null, cancel_all: null })).toEqual([]);
  });
});

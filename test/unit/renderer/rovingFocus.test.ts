/**
 * The keyboard rules of the tab lists, radio groups, row menus and dialogs (ui/rovingFocus.ts): arrows
 * move on their own axis and wrap, Home/End go to the ends, disabled items are skipped, a letter jumps
 * to the next item starting with it, and Tab never leaves a modal dialog.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rovingIndex, trapTarget, typeaheadIndex } from '../../../src/renderer/src/ui/rovingFocus.js';

describe('rovingIndex', () => {
  it('moves along its axis, wraps at the ends, and leaves other keys to the browser', () => {
    expect(rovingIndex(0, 'ArrowRight', 3, 'horizontal')).toBe(1);
    expect(rovingIndex(2, 'ArrowRight', 3, 'horizontal')).toBe(0);
    expect(rovingIndex(0, 'ArrowLeft', 3, 'horizontal')).toBe(2);
    expect(rovingIndex(1, 'ArrowDown', 3, 'horizontal')).toBeNull();
    expect(rovingIndex(1, 'ArrowDown', 3, 'vertical')).toBe(2);
    expect(rovingIndex(1, 'ArrowRight', 3, 'vertical')).toBeNull();
    expect(rovingIndex(1, 'ArrowUp', 3, 'both')).toBe(0);
    expect(rovingIndex(1, 'ArrowRight', 3, 'both')).toBe(2);
    for (const key of ['Tab', 'Enter', ' ', 'a', 'Escape']) expect(rovingIndex(1, key, 3, 'both')).toBeNull();
  });

  it('Home and End go to the first and last item; from nothing focused the arrows enter at an end', () => {
    expect(rovingIndex(1, 'Home', 4, 'horizontal')).toBe(0);
    expect(rovingIndex(1, 'End', 4, 'vertical')).toBe(3);
    expect(rovingIndex(-1, 'ArrowDown', 4, 'vertical')).toBe(0);
    expect(rovingIndex(-1, 'ArrowUp', 4, 'vertical')).toBe(3);
    expect(rovingIndex(0, 'Home', 0, 'vertical')).toBeNull();
  });

  it('skips disabled items in either direction, and finds none when all are disabled', () => {
    const enabled = (i: number) => i !== 1 && i !== 3;
    expect(rovingIndex(0, 'ArrowDown', 4, 'vertical', enabled)).toBe(2);
    expect(rovingIndex(2, 'ArrowDown', 4, 'vertical', enabled)).toBe(0);
    expect(rovingIndex(0, 'ArrowUp', 4, 'vertical', enabled)).toBe(2);
    expect(rovingIndex(0, 'End', 4, 'vertical', enabled)).toBe(2);
    expect(rovingIndex(0, 'Home', 4, 'vertical', () => false)).toBeNull();
  });

  it('always lands on an enabled item inside the list (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), fc.integer({ min: -1, max: 11 }), fc.constantFrom('ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'), (flags, current, key) => {
        const at = Math.min(current, flags.length - 1);
        const next = rovingIndex(at, key, flags.length, 'both', (i) => flags[i] === true);
        if (!flags.includes(true)) return next === null;
        return next !== null && next >= 0 && next < flags.length && flags[next] === true;
      }),
    );
  });

  it('arrow forward then back returns to the start when every item is enabled (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.nat(), (count, seed) => {
        const start = seed % count;
        const there = rovingIndex(start, 'ArrowDown', count, 'vertical')!;
        return rovingIndex(there, 'ArrowUp', count, 'vertical') === start;
      }),
    );
  });
});

describe('typeaheadIndex', () => {
  const labels = ['TP/SL', 'Margin', 'Reverse', 'Modify'];
  it('jumps to the next item starting with the letter, wrapping, case-insensitive', () => {
    expect(typeaheadIndex(labels, 0, 'm')).toBe(1);
    expect(typeaheadIndex(labels, 1, 'M')).toBe(3);
    expect(typeaheadIndex(labels, 3, 'm')).toBe(1);
    expect(typeaheadIndex(labels, -1, 'r')).toBe(2);
  });
  it('ignores keys that are not one printable character, and letters no item starts with', () => {
    expect(typeaheadIndex(labels, 0, 'ArrowDown')).toBeNull();
    expect(typeaheadIndex(labels, 0, ' ')).toBeNull();
    expect(typeaheadIndex(labels, 0, 'z')).toBeNull();
    expect(typeaheadIndex([], 0, 'a')).toBeNull();
  });
});

describe('trapTarget', () => {
  it('wraps Tab from the last item to the first and Shift+Tab from the first to the last', () => {
    expect(trapTarget(3, 2, false)).toBe(0);
    expect(trapTarget(3, 0, true)).toBe(2);
  });
  it('lets the browser move between inner items', () => {
    expect(trapTarget(3, 0, false)).toBeNull();
    expect(trapTarget(3, 1, true)).toBeNull();
  });
  it('brings focus back in from the dialog itself or from outside, and stays on the dialog when nothing in it is focusable', () => {
    expect(trapTarget(3, -1, false)).toBe(0);
    expect(trapTarget(3, -1, true)).toBe(2);
    expect(trapTarget(0, -1, false)).toBe(-1);
    expect(trapTarget(1, 0, false)).toBe(0);
    expect(trapTarget(1, 0, true)).toBe(0);
  });
  it('never lets focus out: the next focus is always an item of the dialog (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: -1, max: 29 }), fc.boolean(), (count, active, shift) => {
        const a = Math.min(active, count - 1);
        const t = trapTarget(count, a, shift);
        // null: the browser moves one step inside, which must exist.
        const next = t === null ? a + (shift ? -1 : 1) : t;
        return next >= 0 && next < count;
      }),
    );
  });
});

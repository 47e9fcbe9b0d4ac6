/**
 * The keyboard rules of composite widgets, as pure functions so they are unit-tested apart from React:
 * which item an arrow key, Home or End moves to in a tab list, a radio group or a menu (WAI-ARIA APG:
 * one Tab stop per widget, arrows move inside it, wrapping at the ends), the item a typed letter jumps to
 * in a menu, and where Tab goes inside a modal dialog so focus never leaves it.
 */

/** Which arrows move: a tab list and a toolbar go left/right, a menu up/down, a radio group both. */
export type Orientation = 'horizontal' | 'vertical' | 'both';

const BACK: Record<Orientation, readonly string[]> = { horizontal: ['ArrowLeft'], vertical: ['ArrowUp'], both: ['ArrowLeft', 'ArrowUp'] };
const FORWARD: Record<Orientation, readonly string[]> = { horizontal: ['ArrowRight'], vertical: ['ArrowDown'], both: ['ArrowRight', 'ArrowDown'] };

/**
 * The index `key` moves to from `current` among `count` items, or null when the key is not one the widget
 * handles (the browser keeps it: Tab, letters, the other axis). Arrows wrap at the ends; Home and End go
 * to the first and last. A `current` of -1 (nothing focused inside yet) moves to the first or last item.
 * `enabled` (optional) skips disabled items, as the APG allows for radio groups and menus.
 */
export function rovingIndex(current: number, key: string, count: number, orientation: Orientation, enabled?: (i: number) => boolean): number | null {
  if (count <= 0) return null;
  const ok = enabled ?? (() => true);
  const firstFrom = (start: number, step: 1 | -1): number | null => {
    for (let k = 0, i = start; k < count; k++, i = (i + step + count) % count) if (ok(i)) return i;
    return null;
  };
  if (key === 'Home') return firstFrom(0, 1);
  if (key === 'End') return firstFrom(count - 1, -1);
  if (FORWARD[orientation].includes(key)) return firstFrom(current < 0 ? 0 : (current + 1) % count, 1);
  if (BACK[orientation].includes(key)) return firstFrom(current < 0 ? count - 1 : (current - 1 + count) % count, -1);
  return null;
}

/**
 * The menu item a typed character moves to: the next item after `current` whose label starts with it
 * (case-insensitive), wrapping; null when the key is not a single printable character or nothing matches.
 */
export function typeaheadIndex(labels: readonly string[], current: number, key: string): number | null {
  if (key.length !== 1 || key === ' ') return null;
  const ch = key.toLowerCase();
  for (let k = 1; k <= labels.length; k++) {
    const i = (current + k + labels.length) % labels.length;
    if (labels[i]?.trim().toLowerCase().startsWith(ch)) return i;
  }
  return null;
}

/**
 * Where Tab (or Shift+Tab) must send focus inside a modal dialog holding `count` focusable items, with
 * focus now on item `active` (-1: on the dialog itself or somewhere outside it). Null: the browser's own
 * move stays inside, let it happen. Otherwise the index to focus instead: from the last item Tab wraps to
 * the first, from the first Shift+Tab wraps to the last, and from outside the items focus comes back in.
 * With no focusable item at all, -1: keep focus on the dialog itself.
 */
export function trapTarget(count: number, active: number, shift: boolean): number | null {
  if (count === 0) return -1;
  if (active < 0 || active >= count) return shift ? count - 1 : 0;
  if (shift && active === 0) return count - 1;
  if (!shift && active === count - 1) return 0;
  return null;
}

/**
 * A table row's actions: the main one always as a button; the others as buttons beside it where the table
 * has room, and behind a "⋯" menu where it does not (a narrow panel: styles/components.css hides one form
 * or the other by the panel's width). The cell sits in the table's sticky right column, so the actions
 * stay in view while the rest of the row scrolls sideways.
 *
 * The menu opens in a layer of its own (a portal, fixed to the window) so no scrolling or clipping panel
 * cuts it off; it opens upward when the row is near the bottom of the window. Esc, Tab, a click elsewhere
 * or a choice closes it, and focus returns to the "⋯" button.
 *
 * From the keyboard it is a WAI-ARIA menu button: Enter, Space or ArrowDown on "⋯" opens the menu on its
 * first item, ArrowUp on its last; inside, ArrowDown/ArrowUp move (wrapping), Home/End go to the ends, a
 * letter jumps to the next item starting with it, Enter or Space chooses.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './Button';
import { rovingIndex, typeaheadIndex } from './rovingFocus';

export interface RowAction {
  /** The visible word ("Reverse"). */
  label: string;
  /** The accessible name, naming the row ("Reverse ETH position"). */
  name: string;
  onSelect: () => void;
  disabled?: boolean;
  title?: string;
}

const MENU_WIDTH = 180;

/**
 * `collapse`: 'narrow' (default) keeps the secondary actions as buttons unless the panel is narrow; 'wide'
 * moves them behind ⋯ until the panel is very wide, for tables whose columns need the room (positions).
 */
export function RowActions({ name, actions, primary, collapse = 'narrow' }: { name: string; actions: readonly RowAction[]; primary: ReactNode; collapse?: 'narrow' | 'wide' }) {
  const [open, setOpen] = useState(false);
  /** Which item the menu opens on: the first (a click, Enter, ArrowDown) or the last (ArrowUp). */
  const [openAt, setOpenAt] = useState<'first' | 'last'>('first');
  const [at, setAt] = useState<{ left: number; top?: number; bottom?: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    if (!open || !button.current) return;
    const r = button.current.getBoundingClientRect();
    const left = Math.max(8, Math.min(r.right - MENU_WIDTH, window.innerWidth - MENU_WIDTH - 8));
    const below = window.innerHeight - r.bottom;
    setAt(below >= actions.length * 30 + 16 ? { left, top: r.bottom + 4 } : { left, bottom: window.innerHeight - r.top + 4 });
  }, [open, actions.length]);

  useEffect(() => {
    if (!open) return;
    const items = () => Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
    const enabled = (i: number) => !items()[i]?.disabled;
    const close = () => {
      setOpen(false);
      button.current?.focus();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close();
        return;
      }
      const list = items();
      const at = list.indexOf(document.activeElement as HTMLButtonElement);
      if (e.key === 'Tab') {
        // A menu is not a Tab stop: Tab leaves it, back on its button (the row's next control is one Tab on).
        e.preventDefault();
        close();
        return;
      }
      if (at < 0 && !menu.current?.contains(document.activeElement)) return;
      const next = rovingIndex(at, e.key, list.length, 'vertical', enabled) ?? (e.ctrlKey || e.metaKey || e.altKey ? null : typeaheadIndex(list.map((b) => (b.disabled ? '' : (b.textContent ?? ''))), at, e.key));
      if (next === null) return;
      e.preventDefault();
      e.stopPropagation();
      list[next]?.focus();
    };
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    // A scroll moves the row away from where the menu was placed: close rather than float off it.
    const onScroll = (e: Event) => {
      if (!menu.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('mousedown', onDown, true);
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', close);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('mousedown', onDown, true);
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', close);
    };
  }, [open]);

  // Once the menu is placed (it renders only then), focus goes onto its first or last enabled item.
  const placed = at !== null;
  useEffect(() => {
    if (!open || !placed) return;
    const list = Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
    const start = rovingIndex(-1, openAt === 'last' ? 'End' : 'Home', list.length, 'vertical', (i) => !list[i]?.disabled);
    if (start !== null) list[start]?.focus();
  }, [open, placed, openAt]);

  return (
    <div className={`dt-actions${collapse === 'wide' ? ' dt-actions-collapse-wide' : ''}`}>
      {actions.map((a) => (
        <Button key={a.name} size="sm" className="dt-secondary" disabled={a.disabled} title={a.title} onClick={a.onSelect} aria-label={a.name}>
          {a.label}
        </Button>
      ))}
      <Button ref={button} size="sm" variant="ghost" className="dt-more" aria-label={`More actions: ${name}`} aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => {
          setOpenAt('first');
          setOpen((v) => !v);
        }}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
          e.preventDefault();
          setOpenAt(e.key === 'ArrowUp' ? 'last' : 'first');
          setOpen(true);
        }}
      >
        ⋯
      </Button>
      {primary}
      {open &&
        at &&
        createPortal(
          <div ref={menu} role="menu" aria-label={`Actions: ${name}`} className="row-menu" style={{ left: at.left, top: at.top, bottom: at.bottom, width: MENU_WIDTH }}>
            {actions.map((a) => (
              <button
                key={a.name}
                type="button"
                role="menuitem"
                tabIndex={-1}
                className="row-menu-item"
                disabled={a.disabled}
                title={a.title}
                aria-label={a.name}
                onClick={() => {
                  // Focus back on "⋯" before the action opens its dialog, so the dialog returns focus there.
                  button.current?.focus();
                  setOpen(false);
                  a.onSelect();
                }}
              >
                {a.label}
              </button>
            ))}
          </div>,
          document.body,
        )}
    </div>
  );
}

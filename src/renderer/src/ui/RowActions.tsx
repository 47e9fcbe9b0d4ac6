/**
 * A table row's actions: the main one always as a button; the others as buttons beside it where the table
 * has room, and behind a "⋯" menu where it does not (a narrow panel: styles/components.css hides one form
 * or the other by the panel's width). The cell sits in the table's sticky right column, so the actions
 * stay in view while the rest of the row scrolls sideways.
 *
 * The menu opens in a layer of its own (a portal, fixed to the window) so no scrolling or clipping panel
 * cuts it off; it opens upward when the row is near the bottom of the window. Esc, a click elsewhere or a
 * choice closes it, and focus returns to the "⋯" button.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './Button';

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

export function RowActions({ name, actions, primary }: { name: string; actions: readonly RowAction[]; primary: ReactNode }) {
  const [open, setOpen] = useState(false);
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
    menu.current?.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus();
    const close = () => {
      setOpen(false);
      button.current?.focus();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close();
      }
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

  return (
    <div className="dt-actions">
      {actions.map((a) => (
        <Button key={a.name} size="sm" className="dt-secondary" disabled={a.disabled} title={a.title} onClick={a.onSelect} aria-label={a.name}>
          {a.label}
        </Button>
      ))}
      <Button ref={button} size="sm" variant="ghost" className="dt-more" aria-label={`More actions: ${name}`} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
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
                className="row-menu-item"
                disabled={a.disabled}
                title={a.title}
                aria-label={a.name}
                onClick={() => {
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

import type { ReactNode } from 'react';
import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { trapTarget } from './rovingFocus';

/**
 * Open dialogs, innermost last, so Esc closes only the top one and focus returns where it came from.
 * Module-level because there is one document and dialogs open from anywhere.
 */
const stack: symbol[] = [];

/**
 * The element that last took focus. A dialog opened by a button that went busy meanwhile (a preview being
 * fetched disables it, and a disabled button drops focus to the page without a blur) still returns focus
 * to that button when it closes.
 */
let lastFocused: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (e) => {
    if (e.target instanceof HTMLElement && e.target !== document.body) lastFocused = e.target;
  });
}

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  /** Accessible name when the title is not plain text. */
  name?: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
  /** While true (a signature is in flight, say), Esc and the backdrop do not close. */
  locked?: boolean;
  tone?: 'default' | 'danger';
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

/** A modal dialog: role dialog, aria-modal, labelled by its title, focus trapped, Esc closes. */
export function Dialog({ open, title, name, onClose, children, footer, width = 520, locked = false, tone = 'default' }: DialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  const lockedRef = useRef(locked);
  useEffect(() => {
    closeRef.current = onClose;
    lockedRef.current = locked;
  });

  useEffect(() => {
    if (!open) return;
    const me = Symbol('dialog');
    stack.push(me);
    const active = document.activeElement as HTMLElement | null;
    const before = active && active !== document.body ? active : lastFocused;
    const node = ref.current;
    // Focus the first field (or the dialog itself) so keyboard users start inside.
    const first = node?.querySelector<HTMLElement>('input:not([disabled]), select:not([disabled]), textarea:not([disabled])') ?? node;
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (stack[stack.length - 1] !== me) return;
      if (e.key === 'Escape') {
        e.stopPropagation();
        if (!lockedRef.current) closeRef.current();
        return;
      }
      if (e.key === 'Tab' && node) {
        // Focus never leaves a modal dialog: Tab wraps at its ends (ui/rovingFocus.ts says where).
        const items = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0);
        const active = document.activeElement as HTMLElement | null;
        const at = active ? items.indexOf(active) : -1;
        // Focus on something inside that the list does not know (a widget's own stop): the browser's move stays inside.
        if (at < 0 && active && active !== node && node.contains(active)) return;
        const target = trapTarget(items.length, at, e.shiftKey);
        if (target === null) return;
        e.preventDefault();
        (target < 0 ? node : items[target])?.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    // A focused control that goes busy (disabled) or is replaced (a review step giving way to its result)
    // drops focus to the page: catch it on the dialog itself, so the next Tab starts inside it again.
    const keepFocus = new MutationObserver(() => {
      if (stack[stack.length - 1] !== me) return;
      const a = document.activeElement;
      if (node && (!a || a === document.body)) node.focus();
    });
    if (node) keepFocus.observe(node, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
    return () => {
      keepFocus.disconnect();
      document.removeEventListener('keydown', onKey, true);
      const i = stack.indexOf(me);
      if (i >= 0) stack.splice(i, 1);
      // Back where it was (the button that opened it); a menu item that opened it hands focus to its menu
      // button first (RowActions.tsx), so this is still in the page.
      if (before && document.contains(before)) before.focus();
    };
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget && !locked) onClose();
      }}
    >
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={name ? undefined : titleId}
        aria-label={name}
        tabIndex={-1}
        className={`dialog dialog-${tone}`}
        style={{ width }}
      >
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="dialog-x" aria-label="Close dialog" onClick={onClose} disabled={locked}>
            ×
          </button>
        </header>
        {/* Focusable so a keyboard can scroll a long body that holds no control (a review at 1024x680). */}
        <div className="dialog-body" tabIndex={0}>
          {children}
        </div>
        {footer && <footer className="dialog-footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}

/** True while any dialog is open (global shortcuts stand down). */
export function isDialogOpen(): boolean {
  return stack.length > 0;
}

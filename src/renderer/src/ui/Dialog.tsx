import type { ReactNode } from 'react';
import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';

/**
 * Open dialogs, innermost last, so Esc closes only the top one and focus returns where it came from.
 * Module-level because there is one document and dialogs open from anywhere.
 */
const stack: symbol[] = [];

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

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

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
    const before = document.activeElement as HTMLElement | null;
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
        const items = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
        const firstItem = items[0];
        const lastItem = items[items.length - 1];
        if (!firstItem || !lastItem) return;
        if (e.shiftKey && document.activeElement === firstItem) {
          e.preventDefault();
          lastItem.focus();
        } else if (!e.shiftKey && document.activeElement === lastItem) {
          e.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      const i = stack.indexOf(me);
      if (i >= 0) stack.splice(i, 1);
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

/**
 * The ticket's head (side toggle and order-type row) sticks to the top of the trading column while the
 * focus (or the wheel) moves down the ticket, so the trader always sees what they are about to send. On a
 * tall window the Account card is itself stuck at the column's top, so the head sticks right under it;
 * both heights change with the window and the card's More toggle, so they are measured, not guessed, and
 * given to the column's CSS as --acct-h and --ticket-head-h (styles/app.css: the head's `top` and the
 * column's scroll-padding-top, which keeps a field the keyboard focuses below them, never under them).
 */
import { useLayoutEffect, type RefObject } from 'react';

export function useStickyTicketHead(head: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const el = head.current;
    const column = el?.closest<HTMLElement>('.trade-side');
    if (!el || !column) return;
    const account = column.querySelector<HTMLElement>(':scope > .acct-panel');
    const write = () => {
      column.style.setProperty('--ticket-head-h', `${Math.ceil(el.getBoundingClientRect().height)}px`);
      column.style.setProperty('--acct-h', `${Math.ceil(account?.getBoundingClientRect().height ?? 0)}px`);
    };
    write();
    const observer = new ResizeObserver(write);
    observer.observe(el);
    if (account) observer.observe(account);
    return () => observer.disconnect();
  }, [head]);
}

/**
 * In-app toasts, the store: short confirmations and failures of actions (Toaster in toast.tsx draws them).
 * Native OS notifications are main's job (through IPC); these live inside the window, in a polite live
 * region.
 *
 * They never cover a panel: they sit in one place, the bottom strip of the window where the status bar
 * is, one line each, newest first, at most MAX_SHOWN at a time. The same message again (a burst of fills,
 * two identical confirmations) does not stack: it bumps the shown toast's count and restarts its time.
 * Each goes away by itself after a few seconds (errors stay longer); a long one opens upward on a click,
 * and stays while open, because the person asked to read it. One that holds the keyboard focus or the
 * pointer waits too (WCAG 2.2.1): a toast vanishing under the focus drops a keyboard user to the top of
 * the page, and one vanishing under the pointer takes away what was being read.
 */
import type { IpcError } from '../../../shared/ipc';
import { announce, type Politeness } from './announcer';

export type ToastTone = 'info' | 'success' | 'error' | 'warn';
export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  body?: string;
  error?: IpcError;
  /** How many times this same message arrived while shown. */
  count: number;
  /** Opened by a click to read in full: not dismissed by time while open. */
  expanded: boolean;
  /** Holds the focus or the pointer: not dismissed by time until both leave. */
  held?: boolean;
  /**
   * Spoken through the app's live region (announcer.ts) at this politeness: the events a screen-reader
   * user must hear (fills, order results, alerts, liquidation warnings). Such a toast is silent itself.
   */
  announce?: Politeness;
}
export type ToastInput = Omit<Toast, 'id' | 'count' | 'expanded' | 'held'>;

/** How many toasts the strip shows at once (the oldest gives way). */
export const MAX_SHOWN = 3;
const TTL_MS: Record<ToastTone, number> = { info: 4500, success: 4500, warn: 6000, error: 9000 };

/** How long a toast stays once closed after reading, or once the focus or pointer has left it. */
const RELEASED_TTL_MS = 2000;

let toasts: Toast[] = [];
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const subs = new Set<() => void>();
const notify = () => subs.forEach((f) => f());

const sameMessage = (a: ToastInput, b: ToastInput) => a.tone === b.tone && a.title === b.title && (a.body ?? '') === (b.body ?? '') && (a.error?.code ?? '') === (b.error?.code ?? '') && (a.error?.message ?? '') === (b.error?.message ?? '');

function arm(id: number, ttlMs: number): void {
  clearTimeout(timers.get(id));
  timers.set(
    id,
    setTimeout(() => dismissToast(id), ttlMs),
  );
}

/** Shows a toast (or counts a repeat of one already shown); returns its id. */
export function pushToast(t: ToastInput, ttlMs = TTL_MS[t.tone]): number {
  // Every arrival is spoken, a repeat too (a second fill is news even when its words are the same).
  if (t.announce) announce([t.title, t.body, t.error ? `${t.error.code} ${t.error.message}` : undefined].filter(Boolean).join('. '), t.announce);
  const same = toasts.find((x) => sameMessage(x, t));
  if (same) {
    // A held toast is counted where it stands: moving it to the top would move the DOM node that holds
    // the focus, and the browser drops the focus of a moved node.
    const counted = { ...same, count: same.count + 1 };
    toasts = same.held ? toasts.map((x) => (x.id === same.id ? counted : x)) : [counted, ...toasts.filter((x) => x.id !== same.id)];
    if (!same.expanded && !same.held) arm(same.id, ttlMs);
    notify();
    return same.id;
  }
  const id = nextId++;
  const shown: Toast[] = [{ ...t, id, count: 1, expanded: false }, ...toasts];
  // The oldest give way, but never one that holds the focus or the pointer (it leaves once released).
  for (let i = shown.length - 1; i > 0 && shown.length > MAX_SHOWN; i--) {
    const gone = shown[i]!;
    if (gone.held) continue;
    clearTimeout(timers.get(gone.id));
    timers.delete(gone.id);
    shown.splice(i, 1);
  }
  toasts = shown;
  arm(id, ttlMs);
  notify();
  return id;
}

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  const before = toasts.length;
  toasts = toasts.filter((t) => t.id !== id);
  if (toasts.length !== before) notify();
}

/** Opens a toast to read it whole (its timer stops), or closes it again (it leaves a moment later). */
export function toggleToast(id: number): void {
  const t = toasts.find((x) => x.id === id);
  if (!t) return;
  const expanded = !t.expanded;
  toasts = toasts.map((x) => (x.id === id ? { ...x, expanded } : x));
  if (expanded) {
    clearTimeout(timers.get(id));
    timers.delete(id);
  } else if (!t.held) arm(id, RELEASED_TTL_MS);
  notify();
}

/**
 * The focus or the pointer is on a toast (held), or has left it: a held toast's timer stops; on leaving
 * it gets the short time a closed one gets, unless it is open to read.
 */
export function holdToast(id: number, held: boolean): void {
  const t = toasts.find((x) => x.id === id);
  if (!t || (t.held ?? false) === held) return;
  toasts = toasts.map((x) => (x.id === id ? { ...x, held } : x));
  if (held) {
    clearTimeout(timers.get(id));
    timers.delete(id);
  } else if (!t.expanded) arm(id, RELEASED_TTL_MS);
  notify();
}

/** The toasts shown now, newest first. */
export function currentToasts(): readonly Toast[] {
  return toasts;
}

export function subscribeToasts(f: () => void): () => void {
  subs.add(f);
  return () => subs.delete(f);
}


/**
 * In-app toasts: short confirmations and failures of actions. Native OS notifications are main's job
 * (through IPC); these live inside the window, in a polite live region.
 */
import { useSyncExternalStore } from 'react';
import type { IpcError } from '../../../shared/ipc';

export type ToastTone = 'info' | 'success' | 'error' | 'warn';
export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  body?: string;
  error?: IpcError;
}

let toasts: Toast[] = [];
let nextId = 1;
const subs = new Set<() => void>();
const notify = () => subs.forEach((f) => f());

export function pushToast(t: Omit<Toast, 'id'>, ttlMs = t.tone === 'error' ? 9000 : 4500): number {
  const id = nextId++;
  toasts = [...toasts.slice(-4), { ...t, id }];
  notify();
  setTimeout(() => dismissToast(id), ttlMs);
  return id;
}

export function dismissToast(id: number): void {
  const before = toasts.length;
  toasts = toasts.filter((t) => t.id !== id);
  if (toasts.length !== before) notify();
}

function subscribe(f: () => void): () => void {
  subs.add(f);
  return () => subs.delete(f);
}

export function Toaster() {
  const list = useSyncExternalStore(subscribe, () => toasts);
  return (
    <div className="toaster" role="region" aria-label="Notifications" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`} role={t.tone === 'error' ? 'alert' : 'status'}>
          <div className="toast-main">
            <strong>{t.title}</strong>
            {t.body && <div className="toast-body">{t.body}</div>}
            {t.error && (
              <div className="toast-body">
                <code className="err-code">{t.error.code}</code> {t.error.message}
                {t.error.hint && <div className="state-hint">{t.error.hint}</div>}
              </div>
            )}
          </div>
          <button type="button" className="dialog-x" aria-label="Dismiss notification" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

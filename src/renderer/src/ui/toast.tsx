/** The strip that draws the toasts of toastStore.ts (see there for where they go and how long they stay). */
import { useSyncExternalStore } from 'react';
import { currentToasts, dismissToast, holdToast, subscribeToasts, toggleToast, type Toast } from './toastStore';

export { pushToast, dismissToast, type Toast, type ToastInput, type ToastTone } from './toastStore';

function fullText(t: Toast): string {
  return [t.title, t.body, t.error ? `${t.error.code} ${t.error.message}` : undefined, t.error?.hint].filter(Boolean).join('\n');
}

export function Toaster() {
  const list = useSyncExternalStore(subscribeToasts, currentToasts);
  return (
    <div className={`toaster${list.length > 0 ? ' has-toasts' : ''}`} role="region" aria-label="Notifications" aria-live="polite">
      {list.map((t) => (
        <div
          key={t.id}
          className={`toast toast-${t.tone}${t.expanded ? ' is-expanded' : ''}`}
          role={t.tone === 'error' ? 'alert' : 'status'}
          aria-live={t.announce ? 'off' : undefined}
          // The pointer or the focus on a toast keeps it (toastStore.holdToast): it never vanishes under them.
          onFocus={() => holdToast(t.id, true)}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget)) holdToast(t.id, false);
          }}
          onMouseEnter={() => holdToast(t.id, true)}
          onMouseLeave={(e) => {
            if (!e.currentTarget.contains(document.activeElement)) holdToast(t.id, false);
          }}
        >
          <button type="button" className="toast-main" aria-expanded={t.expanded} title={fullText(t)} onClick={() => toggleToast(t.id)}>
            <strong className="toast-title">{t.title}</strong>
            {t.count > 1 && <span className="toast-count" aria-label={`${t.count} times`}>×{t.count}</span>}
            {t.body && <span className="toast-body">{t.body}</span>}
            {t.error && (
              <span className="toast-body">
                <code className="err-code">{t.error.code}</code> {t.error.message}
              </span>
            )}
          </button>
          {t.expanded && (
            <div className="toast-detail">
              <strong>{t.title}</strong>
              {t.body && <div className="toast-detail-body">{t.body}</div>}
              {t.error && (
                <div className="toast-detail-body">
                  <code className="err-code">{t.error.code}</code> {t.error.message}
                  {t.error.hint && <div className="state-hint">{t.error.hint}</div>}
                </div>
              )}
            </div>
          )}
          <button type="button" className="toast-x" aria-label="Dismiss notification" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

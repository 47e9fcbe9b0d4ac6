import type { ReactNode } from 'react';
import type { IpcError } from '../../../shared/ipc';
import { asIpcError } from '../ipc/client';
import { trezorErrorTitle } from '../../../shared/trezorText';

export function Spinner({ size = 14 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />;
}

/** A loading placeholder with a name screen readers announce. */
export function Loading({ label = 'Loading', rows = 0 }: { label?: string; rows?: number }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite" aria-label={label}>
      {rows > 0 ? (
        <div className="skeleton-rows">
          {Array.from({ length: rows }, (_, i) => (
            <div key={i} className="skeleton" style={{ width: `${90 - ((i * 13) % 35)}%` }} />
          ))}
        </div>
      ) : (
        <>
          <Spinner />
          <span>{label}…</span>
        </>
      )}
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children && <div className="state-text">{children}</div>}
      {action && <div className="state-action">{action}</div>}
    </div>
  );
}

/** An error as main reported it: the code, the message, and the hint when there is one. */
export function ErrorState({ error, title = 'Something went wrong', onRetry, compact = false }: { error: unknown; title?: string; onRetry?: () => void; compact?: boolean }) {
  const e: IpcError = asIpcError(error);
  return (
    <div className={`state state-error${compact ? ' state-compact' : ''}`} role="alert">
      <p className="state-title">
        {title} <code className="err-code">{e.code}</code>
        {e.reason && <code className="err-code err-reason">{e.reason}</code>}
      </p>
      <p className="state-text">{e.message}</p>
      {e.hint && <p className="state-hint">{e.hint}</p>}
      {onRetry && (
        <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** Inline error line (inside forms and dialogs). */
export function ErrorLine({ error }: { error: unknown }) {
  const e = asIpcError(error);
  const title = trezorErrorTitle(e.code);
  return (
    <div className="error-line" role="alert">
      {title && <strong className="error-title">{title}</strong>}
      <code className="err-code">{e.code}</code>
      {e.reason && <code className="err-code err-reason">{e.reason}</code>} {e.message}
      {e.hint && <div className="state-hint">{e.hint}</div>}
    </div>
  );
}

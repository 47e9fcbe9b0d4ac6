import type { ReactNode } from 'react';
import { useId } from 'react';

/** A titled region of the terminal; the title names the region for assistive tech and Playwright. */
/**
 * A titled panel. `scrollable`: the body may scroll with nothing focusable in it (a read-only table), so
 * it takes focus itself and scrolls from the keyboard.
 */
export function Panel({ title, actions, children, className, bodyClassName, name, scrollable }: { title?: ReactNode; name?: string; actions?: ReactNode; children: ReactNode; className?: string; bodyClassName?: string; scrollable?: boolean }) {
  const id = useId();
  return (
    <section className={`panel${className ? ' ' + className : ''}`} aria-labelledby={title && !name ? id : undefined} aria-label={name}>
      {(title || actions) && (
        <header className="panel-header">
          {title && (
            <h2 id={id} className="panel-title">
              {title}
            </h2>
          )}
          {actions && <div className="panel-actions">{actions}</div>}
        </header>
      )}
      <div className={`panel-body${bodyClassName ? ' ' + bodyClassName : ''}`} tabIndex={scrollable ? 0 : undefined}>
        {children}
      </div>
    </section>
  );
}

/** A label/value row used in previews and summaries. */
export function KV({ k, children, tone }: { k: ReactNode; children: ReactNode; tone?: string }) {
  return (
    <div className="kv">
      <dt>{k}</dt>
      <dd className={tone}>{children}</dd>
    </div>
  );
}

export function KVList({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <dl className="kv-list" aria-label={label}>
      {children}
    </dl>
  );
}

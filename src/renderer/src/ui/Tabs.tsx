import type { KeyboardEvent, ReactNode } from 'react';
import { useId, useRef } from 'react';
import { rovingIndex } from './rovingFocus';

export interface TabDef<T extends string> {
  id: T;
  label: ReactNode;
  /** Accessible name when the label holds more than text (a count badge, say). */
  name?: string;
  /**
   * The label where the tab bar is narrow (styles/components.css), so no tab is ever cut to "Ale…"; the
   * tab's accessible name stays `name` (give it whenever `short` is given).
   */
  short?: ReactNode;
}

export interface TabsProps<T extends string> {
  label: string;
  tabs: TabDef<T>[];
  value: T;
  onChange: (id: T) => void;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
}

/** WAI-ARIA tabs: a tablist with one Tab stop (roving tabindex), arrows, Home and End, and one tabpanel labelled by the selected tab. */
export function Tabs<T extends string>({ label, tabs, value, onChange, children, actions, className }: TabsProps<T>) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  // Arrows move (and select: automatic activation), Home and End go to the ends; Tab leaves the list.
  const onKey = (e: KeyboardEvent) => {
    const n = rovingIndex(tabs.findIndex((t) => t.id === value), e.key, tabs.length, 'horizontal');
    if (n === null) return;
    e.preventDefault();
    const next = tabs[n];
    if (next) {
      onChange(next.id);
      refs.current[n]?.focus();
    }
  };
  return (
    <div className={`tabs${className ? ' ' + className : ''}`}>
      <div className="tabs-bar">
        <div role="tablist" aria-label={label} className="tablist" onKeyDown={onKey}>
          {tabs.map((t, i) => {
            const selected = t.id === value;
            return (
              <button
                key={t.id}
                ref={(el) => {
                  refs.current[i] = el;
                }}
                type="button"
                role="tab"
                id={`${base}-tab-${t.id}`}
                aria-selected={selected}
                aria-controls={`${base}-panel`}
                aria-label={t.name}
                tabIndex={selected ? 0 : -1}
                className={`tab${selected ? ' is-on' : ''}`}
                onClick={() => onChange(t.id)}
              >
                {t.short === undefined ? (
                  t.label
                ) : (
                  <>
                    <span className="tab-long">{t.label}</span>
                    <span className="tab-short">{t.short}</span>
                  </>
                )}
              </button>
            );
          })}
        </div>
        {actions && <div className="tabs-actions">{actions}</div>}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${value}`} className="tabpanel">
        {children}
      </div>
    </div>
  );
}

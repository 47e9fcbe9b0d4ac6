import type { KeyboardEvent, ReactNode } from 'react';
import { useRef } from 'react';
import { rovingIndex } from './rovingFocus';

export interface SegmentOption<T extends string> {
  value: T;
  label: ReactNode;
  /** Accessible name when the label is not plain text. */
  name?: string;
  disabled?: boolean;
  tone?: 'buy' | 'sell';
}

export interface SegmentedProps<T extends string> {
  label: string;
  value: T;
  options: SegmentOption<T>[];
  onChange: (value: T) => void;
  size?: 'sm' | 'md';
  className?: string;
}

/** A radio group drawn as a segmented control; arrow keys (and Home, End) move the choice, as a radio group should. */
export function Segmented<T extends string>({ label, value, options, onChange, size = 'md', className }: SegmentedProps<T>) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: KeyboardEvent) => {
    const n = rovingIndex(
      options.findIndex((o) => o.value === value),
      e.key,
      options.length,
      'both',
      (i) => !options[i]?.disabled,
    );
    if (n === null) return;
    e.preventDefault();
    const next = options[n];
    if (next && next.value !== value) onChange(next.value);
    refs.current[n]?.focus();
  };
  return (
    <div role="radiogroup" aria-label={label} className={`segmented segmented-${size}${className ? ' ' + className : ''}`} onKeyDown={onKey}>
      {options.map((o, i) => {
        const checked = o.value === value;
        return (
          <button
            key={o.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={o.name}
            tabIndex={checked ? 0 : -1}
            disabled={o.disabled}
            className={`segment${checked ? ' is-on' : ''}${o.tone ? ' segment-' + o.tone : ''}`}
            onClick={() => onChange(o.value)}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}

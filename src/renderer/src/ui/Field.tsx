import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { forwardRef, useId } from 'react';

interface FieldShellProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  warning?: ReactNode;
  id: string;
  children: ReactNode;
  inline?: boolean;
}

/**
 * Label, control, then one line of error, warning or hint (error wins). The label names the control; the
 * line describes it (the control's aria-describedby points at it, and an error also sets aria-invalid), so
 * a screen reader reads the error with the field, not somewhere else on the page.
 */
function FieldShell({ label, hint, error, warning, id, children, inline }: FieldShellProps) {
  return (
    <div className={`field${inline ? ' field-inline' : ''}${error ? ' field-error' : warning ? ' field-warning' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
      {error ? (
        <div className="field-msg field-msg-error" id={`${id}-msg`} role="alert">
          {error}
        </div>
      ) : warning ? (
        <div className="field-msg field-msg-warn" id={`${id}-msg`} role="status">
          {warning}
        </div>
      ) : hint ? (
        <div className="field-msg" id={`${id}-msg`}>
          {hint}
        </div>
      ) : null}
    </div>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'prefix'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  warning?: ReactNode;
  suffix?: ReactNode;
  prefix?: ReactNode;
  inline?: boolean;
}

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, hint, error, warning, suffix, prefix, id, className, inline, ...rest },
  ref,
) {
  const auto = useId();
  const fid = id ?? auto;
  const described = error || warning || hint ? `${fid}-msg` : undefined;
  return (
    <FieldShell label={label} hint={hint} error={error} warning={warning} id={fid} inline={inline}>
      <div className={`input-wrap${className ? ' ' + className : ''}`}>
        {prefix && <span className="input-affix">{prefix}</span>}
        <input
          ref={ref}
          id={fid}
          className="input"
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          autoComplete="off"
          spellCheck={false}
          {...rest}
        />
        {suffix && <span className="input-affix input-suffix">{suffix}</span>}
      </div>
    </FieldShell>
  );
});

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
}

/** A multi-line text field, labelled and described like TextField. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField({ label, hint, error, id, className, ...rest }, ref) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <FieldShell label={label} hint={hint} error={error} id={fid}>
      <textarea
        ref={ref}
        id={fid}
        className={`input textarea${className ? ' ' + className : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${fid}-msg` : undefined}
        spellCheck
        {...rest}
      />
    </FieldShell>
  );
});

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  options: { value: string; label: string; disabled?: boolean }[];
  inline?: boolean;
}

export function SelectField({ label, hint, error, options, id, inline, ...rest }: SelectFieldProps) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <FieldShell label={label} hint={hint} error={error} id={fid} inline={inline}>
      <select id={fid} className="input select" aria-invalid={error ? true : undefined} aria-describedby={error || hint ? `${fid}-msg` : undefined} {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  hint?: ReactNode;
}

export function Checkbox({ label, hint, id, ...rest }: CheckboxProps) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <div className="checkbox">
      <input type="checkbox" id={fid} {...rest} />
      <label htmlFor={fid}>{label}</label>
      {hint && <span className="checkbox-hint">{hint}</span>}
    </div>
  );
}

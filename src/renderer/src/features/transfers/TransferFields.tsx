/**
 * Fields and notices the Bridge and Swap forms (and their reviews) have in common: the optional USD value
 * of a side, which the points estimate needs, and the notice for a source chain with no JSON-RPC URL.
 */
import type { ReactNode } from 'react';
import { editRpcUrl } from '../../app/uiStore';
import { isDecimalText } from '../../lib/decimal';
import { TextField } from '../../ui/Field';

/** Why a typed USD value cannot be used, or undefined when it can (empty is fine: the values are optional). */
export function usdProblem(text: string): string | undefined {
  return text.trim() === '' || isDecimalText(text) ? undefined : 'A USD amount such as 250.5';
}

/** One side's optional USD value: checked as typed; `error` is what main said of it. */
export function UsdValueField({ label, value, onChange, hint, error, warning }: { label: string; value: string; onChange: (v: string) => void; hint: string; error?: string; warning?: string }) {
  return (
    <TextField
      label={label}
      value={value}
      inputMode="decimal"
      prefix="$"
      placeholder="optional"
      onChange={(e) => onChange(e.target.value)}
      error={usdProblem(value) ?? error}
      warning={warning}
      hint={hint}
    />
  );
}

/**
 * A chain with no JSON-RPC URL: what that stops (`consequence`), and a link to set one in Settings.
 * `onLeave` runs first when the notice sits in a dialog that must close before the view changes.
 */
export function MissingRpcNotice({ chain, consequence, role = 'status', onLeave }: { chain: string; consequence: ReactNode; role?: 'status' | 'alert'; onLeave?: () => void }) {
  return (
    <div className="notice notice-warn" role={role}>
      {chain} has no JSON-RPC URL set: {consequence}{' '}
      <button
        type="button"
        className="link-btn"
        onClick={() => {
          onLeave?.();
          editRpcUrl(chain);
        }}
      >
        Set the RPC URL for {chain}
      </button>
    </div>
  );
}

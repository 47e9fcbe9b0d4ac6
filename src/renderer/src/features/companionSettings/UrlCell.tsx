/**
 * The URL cell of the companion settings' tables (chain JSON-RPC URLs, service URLs) and the badge of where
 * a URL comes from. Both tables show and edit one URL per row the same way: the URL as it is, or, while
 * its row is edited, an inline form that checks the URL as it is typed and applies it.
 */
import { useState } from 'react';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorLine } from '../../ui/States';
import { httpUrlProblem, SOURCE_TEXT, SOURCE_TONE } from './urls';

export function UrlSourceBadge({ source }: { source: keyof typeof SOURCE_TEXT }) {
  return <Badge tone={SOURCE_TONE[source]}>{SOURCE_TEXT[source]}</Badge>;
}

export function UrlCell({
  url,
  editing,
  label,
  applyLabel,
  initial,
  onApply,
  onCancel,
  onType,
  applying,
  error,
}: {
  url: string | null;
  editing: boolean;
  /** Names the input ("JSON-RPC URL for base") and the Apply button ("Apply RPC URL for base") for assistive tech. */
  label: string;
  applyLabel: string;
  /** What the editor starts with (a stored URL; empty for one that comes from elsewhere). */
  initial: string;
  onApply: (url: string) => void;
  onCancel: () => void;
  /** Each keystroke: a refusal of the previous URL no longer applies. */
  onType: () => void;
  applying: boolean;
  /** Main's refusal of this row's URL. */
  error: Error | null;
}) {
  if (editing) return <UrlEditor label={label} applyLabel={applyLabel} initial={initial} onApply={onApply} onCancel={onCancel} onType={onType} applying={applying} error={error} />;
  return url ? <span className="addr">{url}</span> : <span className="warn">not set</span>;
}

function UrlEditor({ label, applyLabel, initial, onApply, onCancel, onType, applying, error }: Omit<Parameters<typeof UrlCell>[0], 'url' | 'editing'>) {
  const [draft, setDraft] = useState(initial);
  const problem = httpUrlProblem(draft);
  return (
    <form
      className="inline-edit"
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem) onApply(draft.trim());
      }}
    >
      <input
        // The editor opens on the user's request (Edit, or a link from another view): focusing it is expected.
        autoFocus
        className="cell-input url-input"
        aria-label={label}
        aria-invalid={problem || error ? true : undefined}
        value={draft}
        placeholder="https://…"
        spellCheck={false}
        autoComplete="off"
        onChange={(e) => {
          onType();
          setDraft(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <Button type="submit" size="sm" variant="primary" disabled={!!problem} busy={applying} aria-label={applyLabel}>
        Apply
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      {draft.trim() !== '' && problem ? (
        <span className="field-msg field-msg-error" role="alert">
          {problem}
        </span>
      ) : error ? (
        <div className="inline-error">
          <ErrorLine error={error} />
        </div>
      ) : null}
    </form>
  );
}

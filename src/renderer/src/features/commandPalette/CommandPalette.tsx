/**
 * The command palette (Ctrl+K, Cmd+K on macOS): one field and the list of what it matches. The field is
 * an ARIA combobox whose listbox holds the matches; the arrow keys move the active match (the field keeps
 * the focus, aria-activedescendant follows), Enter runs it, Escape closes and gives the focus back. A
 * trade phrase is read by the shared command reader and offered as "Review: ..." — running it opens the
 * ticket's own review (CommandPaletteHost.tsx); nothing is signed here.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { parsePhrase } from '../../../../shared/commands';
import { useMarkets } from '../../ipc/queries';
import { Dialog } from '../../ui/Dialog';
import { paletteItems, paletteStatus, type PaletteItem } from './paletteItems';

export interface CommandPaletteProps {
  onClose: () => void;
  onRun: (item: PaletteItem) => void;
  /** A review is being prepared: the field and Enter wait. */
  busy: boolean;
  /** Why the last run could not open its review (main's refusal, no such position). */
  error: string | null;
  onEdit: () => void;
}

export function CommandPalette({ onClose, onRun, busy, error, onEdit }: CommandPaletteProps) {
  const markets = useMarkets();
  const list = useMemo(() => markets.data?.markets ?? [], [markets.data]);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const statusId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const parsed = useMemo(() => parsePhrase(text, list), [text, list]);
  const items = useMemo(() => paletteItems(text, list, parsed), [text, list, parsed]);
  const status = error ?? paletteStatus(parsed, items);
  const current = items[Math.min(active, items.length - 1)];

  useEffect(() => {
    if (current) document.getElementById(current.id)?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const move = (to: number): void => setActive(items.length === 0 ? 0 : (to + items.length) % items.length);
  return (
    <Dialog open title="Command palette" onClose={onClose} width={600} locked={busy}>
      <div className="palette">
        <input
          className="input palette-input"
          role="combobox"
          aria-label="Command, view, market or setting"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current?.id}
          aria-describedby={statusId}
          placeholder="buy 0.1 BTC · close ETH 50% · history · BTC"
          autoComplete="off"
          spellCheck={false}
          maxLength={400}
          value={text}
          readOnly={busy}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            onEdit();
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              move(active + (e.key === 'ArrowDown' ? 1 : -1));
            } else if ((e.key === 'Home' || e.key === 'End') && e.ctrlKey) {
              e.preventDefault();
              move(e.key === 'Home' ? 0 : items.length - 1);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              if (current && !busy) onRun(current);
            }
          }}
        />
        <p id={statusId} className={`palette-status${error || (parsed.status !== 'ok' && parsed.status !== 'empty' && status) ? ' palette-status-problem' : ''}`} role="status">
          {busy ? 'Preparing the review…' : status}
        </p>
        <ul ref={listRef} id={listId} role="listbox" aria-label="Matches" className="palette-list">
          {items.map((item, i) => (
            <li
              key={item.id}
              id={item.id}
              role="option"
              aria-selected={item === current}
              className={`palette-option palette-${item.kind}${item === current ? ' is-active' : ''}`}
              // The field keeps the focus: a click picks without blurring it.
              onMouseDown={(e) => e.preventDefault()}
              onMouseMove={() => setActive(i)}
              onClick={() => !busy && onRun(item)}
            >
              <span className="palette-label">{item.label}</span>
              <span className="palette-detail">{item.detail}</span>
            </li>
          ))}
        </ul>
      </div>
    </Dialog>
  );
}

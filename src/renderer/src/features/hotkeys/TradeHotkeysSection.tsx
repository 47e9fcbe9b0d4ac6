/**
 * Settings → Trade hotkeys: off until turned on; each action's key is recorded by pressing it (Esc
 * cancels the recording). A key that is an app shortcut or already bound is refused here as it is
 * typed, and by main when saved (the same rules, src/shared/tradeHotkeys.ts).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import { TRADE_HOTKEY_ACTIONS, TRADE_HOTKEY_LABELS, hotkeyConflicts, hotkeyOf, type TradeHotkeyAction, type TradeHotkeys } from '../../../../shared/tradeHotkeys';
import { perps, unwrap } from '../../ipc/client';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Field';
import { Panel } from '../../ui/Panel';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { hotkeysKey, useTradeHotkeys } from './hotkeyQueries';

export function TradeHotkeysSection() {
  const hotkeys = useTradeHotkeys();
  return (
    <Panel title="Trade hotkeys">
      <div className="section">
        {hotkeys.isPending && <Loading />}
        {hotkeys.error && <ErrorState error={hotkeys.error} onRetry={() => void hotkeys.refetch()} />}
        {hotkeys.data && <HotkeysForm key={JSON.stringify(hotkeys.data)} saved={hotkeys.data} />}
      </div>
    </Panel>
  );
}

function HotkeysForm({ saved }: { saved: TradeHotkeys }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<TradeHotkeys>(saved);
  const [recording, setRecording] = useState<TradeHotkeyAction | null>(null);
  const save = useMutation({
    mutationFn: (h: TradeHotkeys) => unwrap(perps().settings.setHotkeys(h)),
    onSuccess: (h) => {
      client.setQueryData(hotkeysKey, h);
      pushToast({ tone: 'success', title: 'Trade hotkeys saved', body: h.enabled ? 'On: they act in the Trade view.' : 'Off.' });
    },
  });
  const conflicts = hotkeyConflicts(draft.bindings);
  const conflictOf = (a: TradeHotkeyAction) => conflicts.find((c) => c.action === a)?.message;
  const bind = (action: TradeHotkeyAction, key: string | null) => {
    setDraft((d) => ({ ...d, bindings: { ...d.bindings, [action]: key } }));
    if (save.error) save.reset();
  };
  const onRecordKey = (action: TradeHotkeyAction) => (e: KeyboardEvent) => {
    if (e.key === 'Tab') return;
    e.preventDefault();
    e.stopPropagation();
    if (e.key === 'Escape') return setRecording(null);
    const key = hotkeyOf(e.nativeEvent);
    if (key === null) return; // a lone modifier: wait for the key
    bind(action, key);
    setRecording(null);
  };
  return (
    <form
      className="stack"
      aria-label="Trade hotkeys"
      onSubmit={(e) => {
        e.preventDefault();
        if (conflicts.length === 0) save.mutate(draft);
      }}
    >
      <Checkbox label="Enable trade hotkeys" checked={draft.enabled} onChange={(e) => setDraft((d) => ({ ...d, enabled: e.target.checked }))} />
      <p className="muted" style={{ fontSize: 'var(--fs-sm)' }}>
        They act in the Trade view on the selected market, never while you type in a field. Each goes through the order review unless “Review the exact signing preview before every order” is off (Orders and keys).
      </p>
      <table className="dt hotkey-table" aria-label="Trade hotkey keys">
        <tbody>
          {TRADE_HOTKEY_ACTIONS.map((a) => (
            <tr key={a}>
              <td>{TRADE_HOTKEY_LABELS[a]}</td>
              <td className="r">
                <button
                  type="button"
                  className={`hotkey-capture${recording === a ? ' is-recording' : ''}${conflictOf(a) ? ' is-bad' : ''}`}
                  aria-label={`Key for ${TRADE_HOTKEY_LABELS[a]}`}
                  aria-invalid={conflictOf(a) ? true : undefined}
                  onClick={() => setRecording(recording === a ? null : a)}
                  onKeyDown={recording === a ? onRecordKey(a) : undefined}
                  onBlur={() => recording === a && setRecording(null)}
                >
                  {recording === a ? 'Press a key…' : (draft.bindings[a] ?? 'None')}
                </button>{' '}
                <Button size="sm" variant="ghost" onClick={() => bind(a, null)} disabled={draft.bindings[a] === null} aria-label={`Clear the key for ${TRADE_HOTKEY_LABELS[a]}`}>
                  Clear
                </Button>
                {conflictOf(a) && (
                  <div className="field-msg field-msg-error hotkey-error" role="alert">
                    {conflictOf(a)}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {save.error && <ErrorLine error={save.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" busy={save.isPending} disabled={conflicts.length > 0}>
          Save trade hotkeys
        </Button>
      </div>
    </form>
  );
}

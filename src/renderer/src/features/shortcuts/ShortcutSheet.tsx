import { Fragment } from 'react';
import { setUi, useUi } from '../../app/uiStore';
import { Kbd } from '../../ui/Badge';
import { Dialog } from '../../ui/Dialog';
import { SHORTCUTS } from './shortcuts';
import { TRADE_HOTKEY_ACTIONS, TRADE_HOTKEY_LABELS } from '../../../../shared/tradeHotkeys';
import { useTradeHotkeys } from '../hotkeys/hotkeyQueries';

export function ShortcutSheet() {
  const open = useUi((s) => s.shortcutSheet);
  const hotkeys = useTradeHotkeys();
  const trade = hotkeys.data;
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={() => setUi({ shortcutSheet: false })} width={440}>
      <dl className="shortcut-list">
        {SHORTCUTS.map((s) => (
          <Fragment key={s.description}>
            <dt>
              {s.keys.map((k, i) => (
                <Fragment key={k}>
                  {i > 0 && ' + '}
                  <Kbd>{k}</Kbd>
                </Fragment>
              ))}
            </dt>
            <dd>{s.description}</dd>
          </Fragment>
        ))}
      </dl>
      <h3 className="shortcut-head">Trade hotkeys {trade && !trade.enabled && <span className="faint">(off: turn them on in Settings)</span>}</h3>
      <dl className={`shortcut-list${trade?.enabled ? '' : ' is-off'}`} aria-label="Trade hotkeys">
        {trade &&
          TRADE_HOTKEY_ACTIONS.filter((a) => trade.bindings[a] !== null).map((a) => (
            <Fragment key={a}>
              <dt>
                {trade.bindings[a]!.split('+').map((k, i) => (
                  <Fragment key={k}>
                    {i > 0 && ' + '}
                    <Kbd>{k}</Kbd>
                  </Fragment>
                ))}
              </dt>
              <dd>{TRADE_HOTKEY_LABELS[a]}</dd>
            </Fragment>
          ))}
      </dl>
      <p className="muted" style={{ fontSize: 'var(--fs-sm)' }}>
        Single-key shortcuts are ignored while you type in a field.
      </p>
    </Dialog>
  );
}

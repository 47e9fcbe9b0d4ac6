import { Fragment } from 'react';
import { setUi, useUi } from '../../app/uiStore';
import { Kbd } from '../../ui/Badge';
import { Dialog } from '../../ui/Dialog';
import { SHORTCUTS } from './shortcuts';

export function ShortcutSheet() {
  const open = useUi((s) => s.shortcutSheet);
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
      <p className="muted" style={{ fontSize: 'var(--fs-sm)' }}>
        Single-key shortcuts are ignored while you type in a field.
      </p>
    </Dialog>
  );
}

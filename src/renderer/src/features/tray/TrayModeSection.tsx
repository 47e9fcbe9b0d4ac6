/**
 * Settings → Running in the background: whether closing the window while a TWAP (or an alert, a trailing
 * stop, an OCO pair, a chase) is active keeps the app running in the system tray (settings:getTray / setTray). Main
 * reads it at every window close, so a change applies at once.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TraySettings } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { Checkbox } from '../../ui/Field';
import { Panel } from '../../ui/Panel';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';

export const trayKey = ['settings', 'tray'] as const;

export function TrayModeSection() {
  const tray = useQuery({ queryKey: trayKey, queryFn: () => unwrap(perps().settings.getTray()) });
  const client = useQueryClient();
  // Optimistic like the notification switches: the box follows the click, then main's answer takes over.
  const [pending, setPending] = useState<TraySettings | null>(null);
  const save = useMutation({
    mutationFn: (next: TraySettings) => unwrap(perps().settings.setTray(next)),
    onError: () => setPending(null),
    onSuccess: (saved) => {
      client.setQueryData(trayKey, saved);
      setPending(null);
    },
  });
  const shown = pending ?? tray.data;
  return (
    <Panel title="Running in the background">
      <div className="section">
        {tray.isPending && <Loading />}
        {tray.error && <ErrorState error={tray.error} onRetry={() => void tray.refetch()} />}
        {shown && (
          <Checkbox
            label="Keep running in the tray while work is active"
            checked={shown.keep_running_in_tray}
            onChange={(e) => {
              const next = { keep_running_in_tray: e.target.checked };
              setPending(next);
              save.mutate(next);
            }}
          />
        )}
        <p className="muted">
          {shown?.keep_running_in_tray === false
            ? 'Closing the window while a TWAP, an alert, a trailing stop, an OCO pair or a chase is active quits the app, after asking: that work then stops, and what rests at the service (a trailing stop’s level, both legs of an OCO pair, a chase’s order unless it is set to cancel at its limit) stays there, unwatched (on macOS the app stays in the Dock, as there).'
            : 'Closing the window while a TWAP, an alert, a trailing stop, an OCO pair or a chase is active keeps the app running in the system tray, still watching them; the tray icon’s menu shows what is running, opens the window and quits. With nothing active, closing the window quits.'}
        </p>
        {save.error && <ErrorLine error={save.error} />}
      </div>
    </Panel>
  );
}

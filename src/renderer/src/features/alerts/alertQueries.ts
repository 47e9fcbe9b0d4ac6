/**
 * The profile's alerts in the query cache: alerts:list once, then main's `alerts` events (the whole list
 * whenever it changes: an add in a terminal, a firing, a dragged line). Main stores and evaluates them;
 * the page lists, adds, removes and re-levels them, and announces each firing main pushes (`alertFired`):
 * a toast spoken through the polite live region (ui/announcer.ts), and the alert sound when it is switched on.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AlertAddRequest, AlertFiring, AlertList, AlertView, DamagedAlertView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { pushToast } from '../../ui/toast';
import { playIfEnabled } from '../notifications/sounds';

export const alertsKey = ['alerts', 'list'] as const;

export function useAlerts() {
  return useQuery({ queryKey: alertsKey, queryFn: () => unwrap(perps().alerts.list()), staleTime: 30_000 });
}

/** The whole list from an `alerts` event (the damaged ones apart); the recent firings are kept until the next read. */
export function putAlerts(client: QueryClient, alerts: AlertView[], damaged: DamagedAlertView[]): void {
  client.setQueryData<AlertList>(alertsKey, (prev) => ({ alerts, damaged, recent: prev?.recent ?? [] }));
}

/** A firing main pushed: the toast (spoken through the polite live region), the sound, the recent list. */
export function announceAlertFiring(client: QueryClient, f: AlertFiring): void {
  // A failed stop leaves a position open and unprotected: said at once (assertive), as an error, and held.
  const urgent = f.kind === 'stop_failed';
  pushToast({ tone: urgent ? 'error' : 'info', title: f.title, body: f.note ? `${f.message} · ${f.note}` : f.message, announce: urgent ? 'assertive' : 'polite' });
  playIfEnabled(client, 'alert');
  client.setQueryData<AlertList>(alertsKey, (prev) => (prev ? { ...prev, recent: [f, ...prev.recent].slice(0, 20) } : prev));
}

export function useAddAlert() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (r: AlertAddRequest) => unwrap(perps().alerts.add(r)), onSuccess: () => void client.invalidateQueries({ queryKey: alertsKey }) });
}

export function useRemoveAlert() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: string) => unwrap(perps().alerts.remove({ id })), onSuccess: () => void client.invalidateQueries({ queryKey: alertsKey }) });
}

/** A new level for an alert (its line dragged on the chart); main checks it as it checks a new alert. */
export function useSetAlertLevel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (r: { id: string; level: string }) => unwrap(perps().alerts.setLevel(r)),
    onSuccess: (v) => client.setQueryData<AlertList>(alertsKey, (prev) => (prev ? { ...prev, alerts: prev.alerts.map((a) => (a.id === v.id ? v : a)) } : prev)),
  });
}

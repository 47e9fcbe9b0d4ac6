/**
 * The wallet's chases in the query cache: chase:list once, then main's `chase` events (each chase's latest
 * view on every re-price) merged in by id. Main runs the chases; the renderer shows them and asks to stop.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ChaseList, ChaseView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { ledgeredList, mergeViews, viewLedger } from '../../lib/mergeViews';

export const chaseKey = ['chase', 'list'] as const;

/**
 * The list query: main's answer, with the views the page was told of while it travelled (or before) that
 * are newer (lib/mergeViews.ts, ViewLedger: a refetch must not put back a chase without its new order).
 */
export function chaseListQuery(client: QueryClient, list: () => Promise<ChaseList> = () => unwrap(perps().chase.list())) {
  return { queryKey: chaseKey, queryFn: ledgeredList<ChaseView, ChaseList>(client, 'chase', list, (l) => l.chases, (l, chases) => ({ ...l, chases })), staleTime: 30_000 };
}

export function useChases() {
  const client = useQueryClient();
  return useQuery(chaseListQuery(client));
}

/** Merges views from a `chase` event (or an action's answer): the newest update per id wins; newest chase first. */
export function putChases(client: QueryClient, views: readonly ChaseView[]): void {
  viewLedger<ChaseView>(client, 'chase').note(views);
  // Damaged chases come only from main's list (they never run, so no event carries them); before it, nothing.
  client.setQueryData<ChaseList | undefined>(chaseKey, (prev) => (prev ? { chases: mergeViews(prev.chases, views), damaged: prev.damaged } : prev));
}

/** Stops a chase, leaving its order resting or cancelling it; the answer goes into the cache at once. */
export function useChaseStop() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (r: { id: string; order: 'leave' | 'cancel' }) => unwrap(perps().chase.stop(r)),
    onSuccess: (v) => putChases(client, [v]),
  });
}

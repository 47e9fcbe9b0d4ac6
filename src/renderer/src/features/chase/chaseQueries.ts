/**
 * The wallet's chases in the query cache: chase:list once, then main's `chase` events (each chase's latest
 * view on every re-price) merged in by id. Main runs the chases; the renderer shows them and asks to stop.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ChaseList, ChaseView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { ledgeredList } from '../../lib/mergeViews';

export const chaseKey = ['chase', 'list'] as const;
const chases = ledgeredList<ChaseView, ChaseList>('chase', chaseKey, (l) => l.chases, (l, views) => ({ ...l, chases: views }));

/**
 * The list query: main's answer, with the views the page was told of while it travelled (or before) that
 * are newer (lib/mergeViews.ts, ViewLedger: a refetch must not put back a chase without its new order).
 */
export function chaseListQuery(client: QueryClient, list: () => Promise<ChaseList> = () => unwrap(perps().chase.list())) {
  return { queryKey: chaseKey, queryFn: chases.listFn(client, list), staleTime: 30_000 };
}

export function useChases() {
  const client = useQueryClient();
  return useQuery(chaseListQuery(client));
}

/** Merges views from a `chase` event (or an action's answer): the newest update per id wins; newest chase first. */
export function putChases(client: QueryClient, views: readonly ChaseView[]): void {
  chases.put(client, views);
}

/** Stops a chase, leaving its order resting or cancelling it; the answer goes into the cache at once. */
export function useChaseStop() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (r: { id: string; order: 'leave' | 'cancel' }) => unwrap(perps().chase.stop(r)),
    onSuccess: (v) => putChases(client, [v]),
  });
}

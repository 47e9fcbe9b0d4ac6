/**
 * The wallet's OCO pairs in the query cache: oco:list once, then main's `oco` events (each pair's latest
 * view when it changes) merged in by id. Main runs the pairs; the renderer shows them and asks to cancel.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { OcoList, OcoView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { ledgeredList } from '../../lib/mergeViews';

export const ocoKey = ['oco', 'list'] as const;
const pairs = ledgeredList<OcoView, OcoList>('oco', ocoKey, (l) => l.pairs, (l, views) => ({ ...l, pairs: views }));

/** The list query: main's answer, with newer views the page was told of (see chaseListQuery). */
export function ocoListQuery(client: QueryClient, list: () => Promise<OcoList> = () => unwrap(perps().oco.list())) {
  return { queryKey: ocoKey, queryFn: pairs.listFn(client, list), staleTime: 30_000 };
}

export function useOcos() {
  const client = useQueryClient();
  return useQuery(ocoListQuery(client));
}

/** Merges views from an `oco` event (or an action's answer): the newest update per id wins; newest pair first. */
export function putOcos(client: QueryClient, views: readonly OcoView[]): void {
  pairs.put(client, views);
}

/** Cancels a pair (both resting legs); the answer goes into the cache at once. */
export function useOcoCancel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(perps().oco.cancel({ id })),
    onSuccess: (v) => putOcos(client, [v]),
  });
}

/**
 * The wallet's TWAPs in the query cache: twap:list once, then main's `twap` events (each TWAP's latest
 * view when it changes) merged in by id, so the panel, the chart's fill markers and the restart prompt
 * read one list. Main runs the TWAPs; the renderer only shows them and asks for pause, resume, cancel, stop.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TwapList, TwapView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { ledgeredList } from '../../lib/mergeViews';

export const twapKey = ['twap', 'list'] as const;
const twaps = ledgeredList<TwapView, TwapList>('twap', twapKey, (l) => l.twaps, (l, views) => ({ ...l, twaps: views }));
const twapAtMountKey = ['twap', 'list-at-mount'] as const;

const listTwaps = () => unwrap(perps().twap.list());

/**
 * The list query: main's answer, with the views the page was told of while it travelled (or before) that
 * are newer (lib/mergeViews.ts, ViewLedger), as the chase and OCO lists do: a refetch (the list is stale
 * after 30 s and asked again when a panel mounts) read before a slice was written must not put back the
 * TWAP without it.
 */
export function twapListQuery(client: QueryClient, list: () => Promise<TwapList> = listTwaps) {
  return { queryKey: twapKey, queryFn: twaps.listFn(client, list), staleTime: 30_000 };
}

export function useTwaps() {
  const client = useQueryClient();
  return useQuery(twapListQuery(client));
}

/**
 * Main's list as it answered when the caller mounted, under a key of its own: `twap` events and actions
 * write twapKey, never this, so it is main's word. What is decided once from main's list reads it (the
 * restart prompt): an event that lands first (the last one of a TWAP let go at quit says `running`) must
 * not decide. Asked again at each mount (gcTime 0), never refreshed meanwhile.
 */
export function useTwapsAtMount() {
  return useQuery({ queryKey: twapAtMountKey, queryFn: listTwaps, staleTime: Infinity, gcTime: 0, refetchOnWindowFocus: false, refetchOnReconnect: false });
}

/**
 * Merges views from a `twap` event (or an action's answer): newest update per id wins; newest TWAP first.
 * Before main's list has come there is nothing to merge into: the ledger keeps the view for it. (A list
 * made of the event alone stood for the whole list, without the damaged TWAPs, for 30 s.)
 */
export function putTwaps(client: QueryClient, views: readonly TwapView[]): void {
  twaps.put(client, views);
}

export type TwapAction = 'pause' | 'resume' | 'cancel' | 'stop';

/** pause / resume / cancel / stop of one TWAP; the answer goes into the cache at once. */
export function useTwapAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: TwapAction }) => unwrap(perps().twap[action]({ id })),
    onSuccess: (v) => putTwaps(client, [v]),
  });
}

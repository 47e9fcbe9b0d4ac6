/**
 * The wallet's TWAPs in the query cache: twap:list once, then main's `twap` events (each TWAP's latest
 * view when it changes) merged in by id, so the panel, the chart's fill markers and the restart prompt
 * read one list. Main runs the TWAPs; the renderer only shows them and asks for pause, resume, cancel, stop.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TwapList, TwapView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';

export const twapKey = ['twap', 'list'] as const;
const twapAtMountKey = ['twap', 'list-at-mount'] as const;

const listTwaps = () => unwrap(perps().twap.list());

export function useTwaps() {
  return useQuery({ queryKey: twapKey, queryFn: listTwaps, staleTime: 30_000 });
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

/** Merges views from a `twap` event (or an action's answer): newest update per id wins; newest TWAP first. */
export function putTwaps(client: QueryClient, views: readonly TwapView[]): void {
  client.setQueryData<TwapList>(twapKey, (prev) => {
    const byId = new Map((prev?.twaps ?? []).map((t) => [t.id, t]));
    for (const v of views) {
      const old = byId.get(v.id);
      if (!old || old.updated_at <= v.updated_at) byId.set(v.id, v);
    }
    // Damaged TWAPs come only from main's list (they never run, so no event carries them).
    return { twaps: [...byId.values()].sort((a, b) => b.created_at - a.created_at), damaged: prev?.damaged ?? [] };
  });
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

/**
 * The wallet's OCO pairs in the query cache: oco:list once, then main's `oco` events (each pair's latest
 * view when it changes) merged in by id. Main runs the pairs; the renderer shows them and asks to cancel.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { OcoList, OcoView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';

export const ocoKey = ['oco', 'list'] as const;

export function useOcos() {
  return useQuery({ queryKey: ocoKey, queryFn: () => unwrap(perps().oco.list()), staleTime: 30_000 });
}

/** Merges views from an `oco` event (or an action's answer): the newest update per id wins; newest pair first. */
export function putOcos(client: QueryClient, views: readonly OcoView[]): void {
  client.setQueryData<OcoList>(ocoKey, (prev) => {
    const byId = new Map((prev?.pairs ?? []).map((p) => [p.id, p]));
    for (const v of views) {
      const old = byId.get(v.id);
      if (!old || old.updated_at <= v.updated_at) byId.set(v.id, v);
    }
    // Damaged pairs come only from main's list (they never run, so no event carries them).
    return { pairs: [...byId.values()].sort((a, b) => b.created_at - a.created_at), damaged: prev?.damaged ?? [] };
  });
}

/** Cancels a pair (both resting legs); the answer goes into the cache at once. */
export function useOcoCancel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(perps().oco.cancel({ id })),
    onSuccess: (v) => putOcos(client, [v]),
  });
}

/**
 * The wallet's chases in the query cache: chase:list once, then main's `chase` events (each chase's latest
 * view on every re-price) merged in by id. Main runs the chases; the renderer shows them and asks to stop.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ChaseList, ChaseView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';

export const chaseKey = ['chase', 'list'] as const;

export function useChases() {
  return useQuery({ queryKey: chaseKey, queryFn: () => unwrap(perps().chase.list()), staleTime: 30_000 });
}

/** Merges views from a `chase` event (or an action's answer): the newest update per id wins; newest chase first. */
export function putChases(client: QueryClient, views: readonly ChaseView[]): void {
  client.setQueryData<ChaseList | undefined>(chaseKey, (prev) => {
    // Not listed yet: chase:list brings these and the damaged ones. An event put first would stand for the
    // whole list (with no damaged ones) until it went stale.
    if (!prev) return prev;
    const byId = new Map(prev.chases.map((c) => [c.id, c]));
    for (const v of views) {
      const old = byId.get(v.id);
      if (!old || old.updated_at <= v.updated_at) byId.set(v.id, v);
    }
    // Damaged chases come only from main's list (they never run, so no event carries them).
    return { chases: [...byId.values()].sort((a, b) => b.created_at - a.created_at), damaged: prev.damaged };
  });
}

/** Stops a chase, leaving its order resting or cancelling it; the answer goes into the cache at once. */
export function useChaseStop() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (r: { id: string; order: 'leave' | 'cancel' }) => unwrap(perps().chase.stop(r)),
    onSuccess: (v) => putChases(client, [v]),
  });
}

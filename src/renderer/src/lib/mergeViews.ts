/**
 * Views of running algorithms (OCO pairs, chases) merged from main's events into the list main answered:
 * the newest update per id wins, newest first. Before the list has come there is nothing to merge into:
 * an event put first would stand for the whole list (without its damaged records) until it went stale.
 */
export interface MergeableView {
  id: string;
  created_at: number;
  updated_at: number;
}

export function mergeViews<V extends MergeableView>(listed: readonly V[], views: readonly V[]): V[] {
  const byId = new Map(listed.map((v) => [v.id, v]));
  for (const v of views) {
    const old = byId.get(v.id);
    if (!old || old.updated_at <= v.updated_at) byId.set(v.id, v);
  }
  return [...byId.values()].sort((a, b) => b.created_at - a.created_at);
}

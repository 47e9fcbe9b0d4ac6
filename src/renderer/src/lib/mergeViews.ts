import type { QueryClient } from '@tanstack/react-query';

/**
 * Views of running algorithms (OCO pairs, chases, TWAPs) merged from main's events into the list main answered:
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

/**
 * The newest view of each algorithm the page has been told of (events, actions' answers), so that a list
 * main answered never puts an older one back. A list is read from the records when it is asked; an event
 * sent while it travels (the chase's first order, placed just after Start) is newer than it, and without
 * this the list's answer replaced it in the cache: the panel showed the chase without its order until the
 * next re-price. Bounded by the algorithms of one session (a few a day), as the cache is.
 */
export class ViewLedger<V extends MergeableView> {
  private readonly latest = new Map<string, { view: V; seq: number }>();
  private seq = 0;

  /** Remembers views as they arrive; an older update of one already seen is ignored. */
  note(views: readonly V[]): void {
    for (const v of views) {
      const old = this.latest.get(v.id);
      if (!old || old.view.updated_at <= v.updated_at) this.latest.set(v.id, { view: v, seq: ++this.seq });
    }
  }

  /** A mark taken just before a list is asked for (`over` takes it back). */
  mark(): number {
    return this.seq;
  }

  /**
   * The list main answered, asked at `asked`, with what the page has been told since or before that is
   * newer: a listed id takes a view updated after main's (on a tie main's answer stands: what it derives
   * rather than writes, a TWAP interrupted by the end of its process, carries the time of the last write,
   * which the quitting process's last event carries too); an id the list lacks is added only when its
   * view came while the list travelled (it was started meanwhile) and it is not among `excluded` (listed
   * as damaged).
   */
  over(listed: readonly V[], asked: number, excluded: ReadonlySet<string> = new Set()): V[] {
    const listedAt = new Map(listed.map((v) => [v.id, v.updated_at]));
    const newer: V[] = [];
    for (const [id, { view, seq }] of this.latest) {
      if (excluded.has(id)) continue;
      const at = listedAt.get(id);
      if (at !== undefined ? view.updated_at > at : seq > asked) newer.push(view);
    }
    return mergeViews(listed, newer);
  }
}

/** One ledger per query cache (per window), keyed by what it is of (`chase`, `oco`, `twap`). */
const ledgers = new WeakMap<object, Map<string, ViewLedger<MergeableView>>>();

export function viewLedger<V extends MergeableView>(cache: object, of: string): ViewLedger<V> {
  let byKind = ledgers.get(cache);
  if (!byKind) ledgers.set(cache, (byKind = new Map()));
  let ledger = byKind.get(of);
  if (!ledger) byKind.set(of, (ledger = new ViewLedger<MergeableView>()));
  return ledger as unknown as ViewLedger<V>;
}

/**
 * One kind of algorithm's list in a window's query cache (under `queryKey`), as the list query and the
 * events both write it: `views` reads the list's views, `withViews` gives the list with others.
 *  - listFn: the list query's function: main's answer with the newer views the page was told of while it
 *    travelled or before (ViewLedger.over); the damaged records it lists are not brought back.
 *  - put: views from an event (or an action's answer) noted and merged in. Damaged records come only from
 *    main's list (they never run, so no event carries them); before it, nothing is written.
 */
export function ledgeredList<V extends MergeableView, L extends { damaged: readonly { id: string }[] }>(
  of: string,
  queryKey: readonly unknown[],
  views: (list: L) => readonly V[],
  withViews: (list: L, views: V[]) => L,
) {
  return {
    listFn(cache: QueryClient, list: () => Promise<L>): () => Promise<L> {
      return async () => {
        const ledger = viewLedger<V>(cache, of);
        const asked = ledger.mark();
        const answer = await list();
        return withViews(answer, ledger.over(views(answer), asked, new Set(answer.damaged.map((d) => d.id))));
      };
    },
    put(cache: QueryClient, incoming: readonly V[]): void {
      viewLedger<V>(cache, of).note(incoming);
      cache.setQueryData<L | undefined>(queryKey, (prev) => (prev ? withViews(prev, mergeViews(views(prev), incoming)) : prev));
    },
  };
}

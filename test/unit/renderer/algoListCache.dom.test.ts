/**
 * The chase, OCO and TWAP lists in the page's query cache (features/chase/chaseQueries.ts,
 * features/oco/ocoQueries.ts, features/twap/twapQueries.ts, lib/mergeViews.ts): a list main answered never puts back a view older than
 * one an event already brought. The race it guards: Start returns a chase without its order, the Chase tab
 * refetches the list (stale after 30 s), the runner places the first order and its event arrives while
 * the list travels; the list, read before the order was written, replaced the cache and the panel showed
 * the chase without its order (no price now) until the next re-price.
 * (A .dom.test: typechecked with the renderer's DOM types, tsconfig.web.json.)
 */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { chaseListQuery, chaseKey, putChases } from '../../../src/renderer/src/features/chase/chaseQueries.js';
import { ocoListQuery, ocoKey, putOcos } from '../../../src/renderer/src/features/oco/ocoQueries.js';
import { putTwaps, twapKey, twapListQuery } from '../../../src/renderer/src/features/twap/twapQueries.js';
import { ViewLedger } from '../../../src/renderer/src/lib/mergeViews.js';
import type { ChaseList, ChaseView, OcoList, OcoView, TwapList, TwapView } from '../../../src/shared/ipc/index.js';

const WALLET = '0x8ef131Be2587CE068CD6F5dfB6DFe30a2837F387';

function chase(id: string, updatedAt: number, order: ChaseView['order'], moves = 0): ChaseView {
  return {
    id,
    wallet: WALLET,
    market: 'ETH',
    side: 'BUY',
    size: '0.05',
    filled: '0',
    leverage: 5,
    order,
    start_price: '3399.8',
    distance_used: null,
    max_distance: '2%',
    max_distance_price: '3467.796',
    moves,
    offset_ticks: 0,
    on_limit: 'cancel',
    timeout_ms: null,
    taker_after_ms: null,
    status: 'working',
    end_reason: null,
    runner: { pid: 1, this_process: true },
    last_note: null,
    created_at: 1_000,
    updated_at: updatedAt,
  };
}

function pair(id: string, updatedAt: number, status: OcoView['status']): OcoView {
  const leg = { side: 'BUY', price: '3300', size: '0.1', order_id: 'o1', status: 'open' };
  return { id, wallet: WALLET, market: 'ETH', leverage: 5, status, winner: null, legs: [leg, { ...leg, side: 'SELL', price: '3500', order_id: 'o2' }], runner: null, last_note: null, created_at: 1_000, updated_at: updatedAt } as unknown as OcoView;
}

/** A TWAP's view with what the list's merge reads (id, times) and what the panel shows of its progress. */
function twap(id: string, updatedAt: number, slicesSent: number, status: TwapView['status'] = 'running'): TwapView {
  return { id, wallet: WALLET, market: 'ETH', side: 'BUY', status, slices_total: 4, slices_sent: slicesSent, slices: [], notes: [], created_at: 1_000, updated_at: updatedAt } as unknown as TwapView;
}

/** A list answer the test releases when it chooses (main read the records, the answer is on its way). */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The query as the panel's mount runs it once the cached list is stale: main is asked again. */
function stale<Q extends { staleTime: number }>(q: Q): Q {
  return { ...q, staleTime: 0 };
}

const placed = { order_id: '77', price: '3399.8', size: '0.05', kind: 'post' as const };

describe('chase list: a refetch keeps the newer views events brought', () => {
  it("an event that arrives while the list travels is kept: the chase's first order stays in the panel", async () => {
    const client = new QueryClient();
    // The list the app read at its start, and Start's answer (no order yet: the runner places it next).
    client.setQueryData<ChaseList>(chaseKey, { chases: [], damaged: [] });
    putChases(client, [chase('c1', 2_000, null)]);
    // The Chase tab mounts, the list is stale: it is asked again and read before the first order is written.
    const answer = deferred<ChaseList>();
    const fetching = client.fetchQuery(stale(chaseListQuery(client, () => answer.promise)));
    // The runner places the order; its event comes while the list travels.
    putChases(client, [chase('c1', 2_050, placed)]);
    answer.resolve({ chases: [chase('c1', 2_000, null)], damaged: [] });
    await fetching;
    const list = client.getQueryData<ChaseList>(chaseKey)!;
    expect(list.chases).toHaveLength(1);
    expect(list.chases[0]!.order).toEqual(placed);
    expect(list.chases[0]!.updated_at).toBe(2_050);
  });

  it('an event before the first list is kept too (it had nothing to merge into)', async () => {
    const client = new QueryClient();
    const answer = deferred<ChaseList>();
    const fetching = client.fetchQuery(stale(chaseListQuery(client, () => answer.promise)));
    putChases(client, [chase('c2', 3_000, placed, 1)]);
    answer.resolve({ chases: [], damaged: [] });
    await fetching;
    expect(client.getQueryData<ChaseList>(chaseKey)!.chases.map((c) => [c.id, c.moves])).toEqual([['c2', 1]]);
  });

  it("main's newer answer wins over an older event; one it lists as damaged is not brought back; one gone before the ask stays gone", async () => {
    const client = new QueryClient();
    putChases(client, [chase('old', 1_500, null), chase('c3', 4_000, placed, 2), chase('bad', 4_000, placed)]);
    const answer = deferred<ChaseList>();
    const fetching = client.fetchQuery(stale(chaseListQuery(client, () => answer.promise)));
    answer.resolve({ chases: [chase('c3', 5_000, null, 3)], damaged: [{ id: 'bad', status: 'damaged', damage: 'edited by hand', market: 'ETH', updated_at: 4_500 }] });
    await fetching;
    const list = client.getQueryData<ChaseList>(chaseKey)!;
    expect(list.chases.map((c) => [c.id, c.moves, c.updated_at])).toEqual([['c3', 3, 5_000]]);
    expect(list.damaged.map((d) => d.id)).toEqual(['bad']);
  });

  it('each query cache (window) has its own ledger', async () => {
    const a = new QueryClient();
    const b = new QueryClient();
    putChases(a, [chase('only-a', 9_000, placed)]);
    const answer = deferred<ChaseList>();
    const fetching = b.fetchQuery(stale(chaseListQuery(b, () => answer.promise)));
    putChases(a, [chase('only-a', 9_001, placed)]);
    answer.resolve({ chases: [], damaged: [] });
    await fetching;
    expect(b.getQueryData<ChaseList>(chaseKey)!.chases).toEqual([]);
  });
});

describe('OCO list: the same rule', () => {
  it("a pair's end that arrives while the list travels is kept", async () => {
    const client = new QueryClient();
    client.setQueryData<OcoList>(ocoKey, { pairs: [pair('p1', 2_000, 'working')], damaged: [] });
    const answer = deferred<OcoList>();
    const fetching = client.fetchQuery(stale(ocoListQuery(client, () => answer.promise)));
    putOcos(client, [pair('p1', 2_100, 'done')]);
    answer.resolve({ pairs: [pair('p1', 2_000, 'working')], damaged: [] });
    await fetching;
    expect(client.getQueryData<OcoList>(ocoKey)!.pairs.map((p) => p.status)).toEqual(['done']);
  });
});

describe('TWAP list: the same rule', () => {
  it('a slice sent while the list travels is kept: the panel does not go back a slice', async () => {
    const client = new QueryClient();
    client.setQueryData<TwapList>(twapKey, { twaps: [twap('t1', 2_000, 1)], damaged: [] });
    const answer = deferred<TwapList>();
    const fetching = client.fetchQuery(stale(twapListQuery(client, () => answer.promise)));
    putTwaps(client, [twap('t1', 2_100, 2)]);
    answer.resolve({ twaps: [twap('t1', 2_000, 1)], damaged: [] });
    await fetching;
    expect(client.getQueryData<TwapList>(twapKey)!.twaps.map((t) => [t.id, t.slices_sent, t.updated_at])).toEqual([['t1', 2, 2_100]]);
  });

  it("an event before main's list makes no list of its own (which would hide the damaged TWAPs); the list, when it comes, has both", async () => {
    const client = new QueryClient();
    const answer = deferred<TwapList>();
    const fetching = client.fetchQuery(stale(twapListQuery(client, () => answer.promise)));
    putTwaps(client, [twap('t2', 3_000, 1)]);
    expect(client.getQueryData<TwapList>(twapKey)).toBeUndefined();
    answer.resolve({ twaps: [], damaged: [{ id: 'twap_bad', status: 'damaged', damage: 'edited by hand', market: 'ETH', side: 'BUY', total_size: '1', created_at: 500, updated_at: 2_500 }] });
    await fetching;
    const list = client.getQueryData<TwapList>(twapKey)!;
    expect(list.twaps.map((t) => t.id)).toEqual(['t2']);
    expect(list.damaged.map((d) => d.id)).toEqual(['twap_bad']);
  });

  it("on a tie main's answer stands: a TWAP let go at quit is listed interrupted, not running as its process's last event said", async () => {
    const client = new QueryClient();
    client.setQueryData<TwapList>(twapKey, { twaps: [twap('t4', 6_000, 2)], damaged: [] });
    // The quitting core lets the TWAP go; its last event says running, at the time of the last write.
    putTwaps(client, [twap('t4', 6_000, 2, 'running')]);
    const answer = deferred<TwapList>();
    const fetching = client.fetchQuery(stale(twapListQuery(client, () => answer.promise)));
    // Main, started again, derives interrupted from the free run lock: same record, same updated_at.
    answer.resolve({ twaps: [twap('t4', 6_000, 2, 'interrupted')], damaged: [] });
    await fetching;
    expect(client.getQueryData<TwapList>(twapKey)!.twaps.map((t) => t.status)).toEqual(['interrupted']);
  });

  it("main's newer answer wins, and a TWAP it lists as damaged is not brought back by an older event", async () => {
    const client = new QueryClient();
    putTwaps(client, [twap('t3', 4_000, 2), twap('bad', 4_000, 1)]);
    const answer = deferred<TwapList>();
    const fetching = client.fetchQuery(stale(twapListQuery(client, () => answer.promise)));
    answer.resolve({ twaps: [twap('t3', 5_000, 4, 'completed')], damaged: [{ id: 'bad', status: 'damaged', damage: 'edited by hand', market: 'ETH', side: 'BUY', total_size: '1', created_at: 1_000, updated_at: 4_500 }] });
    await fetching;
    const list = client.getQueryData<TwapList>(twapKey)!;
    expect(list.twaps.map((t) => [t.id, t.slices_sent, t.status])).toEqual([['t3', 4, 'completed']]);
    expect(list.damaged.map((d) => d.id)).toEqual(['bad']);
  });
});

describe('ViewLedger', () => {
  it('keeps the newest view per id and ignores an older one arriving late', () => {
    const ledger = new ViewLedger<{ id: string; created_at: number; updated_at: number; v: number }>();
    const asked = ledger.mark();
    ledger.note([{ id: 'a', created_at: 1, updated_at: 10, v: 2 }]);
    ledger.note([{ id: 'a', created_at: 1, updated_at: 5, v: 1 }]);
    expect(ledger.over([], asked)).toEqual([{ id: 'a', created_at: 1, updated_at: 10, v: 2 }]);
    expect(ledger.over([], ledger.mark())).toEqual([]);
    expect(ledger.over([{ id: 'a', created_at: 1, updated_at: 11, v: 3 }], ledger.mark())).toEqual([{ id: 'a', created_at: 1, updated_at: 11, v: 3 }]);
  });
});

/**
 * One market's order book, live: the markets:book snapshot first, then main's `book` events for the
 * watched market. Main follows one market at a time (markets:watchBook); the hook asks it to follow this
 * market and grouping while mounted, and to stop (market null) when the book leaves the screen.
 *
 * Events arrive at most ten a second, but each is kept in a plain variable and handed to React on the
 * next live frame (ipc/liveFrame.ts: with the marks and the tape, in one render), so a burst never
 * renders the book more than once a frame, and the latest book is always the one shown.
 */
import { useEffect, useState } from 'react';
import type { BookView, IpcRequest, IpcResponse } from '../../../../shared/ipc';
import type { BookGrouping } from '../../app/uiStore';
import { perps, unwrap } from '../../ipc/client';
import { onNextLiveFrame } from '../../ipc/liveFrame';
import { useBookSnapshot } from '../../ipc/queries';
import { latestBook } from './bookModel';

/**
 * markets:watchBook calls go one after another, each after the previous answered: main keeps one watch,
 * so "stop" and "watch the next market" must reach it in the order they were made.
 */
let watchQueue: Promise<unknown> = Promise.resolve();
export function watchBook(request: IpcRequest<'markets:watchBook'>): Promise<IpcResponse<'markets:watchBook'>> {
  const call = watchQueue.then(() => unwrap(perps().markets.watchBook(request)));
  watchQueue = call.catch(() => undefined);
  return call;
}

export interface LiveBook {
  /** The newest book of this market and grouping (or, while another grouping loads, the previous one). */
  book: BookView | undefined;
  /** The book shown is the previous grouping's, kept while this one loads. */
  stale: boolean;
  isPending: boolean;
  /** The snapshot failed (and no live book came either). */
  error: unknown;
  /** Main could not follow the book: the snapshot stays, without updates. */
  watchError: unknown;
  /** A live feed serves the book (false: main polls it). */
  live: boolean | null;
  retry: () => void;
}

export function useLiveBook(market: string, grouping: BookGrouping): LiveBook {
  const snapshot = useBookSnapshot(market, grouping);
  const [live, setLive] = useState<BookView | null>(null);
  const [watch, setWatch] = useState<{ market: string; grouping: BookGrouping; live: boolean; error: unknown } | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const api = perps();
    let alive = true;
    let frame: (() => void) | null = null;
    let latest: BookView | null = null;
    const flush = () => {
      frame = null;
      if (alive && latest) setLive(latest);
    };
    const offBook = api.on('book', (b) => {
      // Another market's book, or this market's in the previous grouping, can still be on its way.
      if (b.market !== market || b.n_sig_figs !== grouping) return;
      latest = b;
      frame ??= onNextLiveFrame(flush);
    });
    const start = () => {
      watchBook({ market, n_sig_figs: grouping }).then(
        (w) => {
          if (alive) setWatch({ market, grouping, live: w.live, error: null });
        },
        (error: unknown) => {
          if (alive) setWatch({ market, grouping, live: false, error });
        },
      );
    };
    start();
    // Another profile or wallet is another session in main, which watches nothing yet.
    const offSession = api.on('session', start);
    return () => {
      alive = false;
      offBook();
      offSession();
      frame?.();
    };
  }, [market, grouping, attempt]);

  // Out of sight: main stops following the venue's feed.
  useEffect(
    () => () => {
      watchBook({ market: null }).catch(() => undefined);
    },
    [],
  );

  const current = (b: BookView | null | undefined) => (b && b.market === market && b.n_sig_figs === grouping ? b : null);
  const snap = snapshot.data && snapshot.data.market === market ? snapshot.data : undefined;
  // This grouping's newest book; else the previous grouping's snapshot, kept while this one loads.
  const book = latestBook(current(snap) ?? undefined, current(live)) ?? snap;
  const w = watch && watch.market === market && watch.grouping === grouping ? watch : null;
  return {
    book,
    stale: book !== undefined && book.n_sig_figs !== grouping,
    isPending: book === undefined && snapshot.isPending,
    error: book === undefined ? snapshot.error : null,
    watchError: w?.error ?? null,
    live: w && !w.error ? w.live : null,
    retry: () => {
      void snapshot.refetch();
      setAttempt((n) => n + 1);
    },
  };
}

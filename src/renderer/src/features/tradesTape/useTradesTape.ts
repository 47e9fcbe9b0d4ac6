/**
 * The selected market's trades tape, live: main follows the venue's `trades` channel of one market
 * (markets:watchTrades) and sends the latest trades, newest first, on the `trades` event. The hook asks
 * it to follow this market while mounted and to stop (market null) when the tape leaves the screen; a
 * burst of events is handed to React on the next live frame (ipc/liveFrame.ts: with the marks and the
 * book, in one render). Each event is the whole tape, so keeping only the latest loses no trade.
 */
import { useEffect, useState } from 'react';
import type { IpcRequest, IpcResponse, TradesEvent } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { onNextLiveFrame } from '../../ipc/liveFrame';

/** markets:watchTrades calls go one after another: main keeps one watch, so a stop and the next watch must arrive in order. */
let watchQueue: Promise<unknown> = Promise.resolve();
function watchTrades(request: IpcRequest<'markets:watchTrades'>): Promise<IpcResponse<'markets:watchTrades'>> {
  const call = watchQueue.then(() => unwrap(perps().markets.watchTrades(request)));
  watchQueue = call.catch(() => undefined);
  return call;
}

export interface LiveTape {
  trades: TradesEvent['trades'] | null;
  /** null while connecting; false when no live feed serves the tape. */
  live: boolean | null;
  error: unknown;
}

export function useTradesTape(market: string): LiveTape {
  const [tape, setTape] = useState<TradesEvent | null>(null);
  const [watch, setWatch] = useState<{ market: string; live: boolean; error: unknown } | null>(null);

  useEffect(() => {
    const api = perps();
    let alive = true;
    let frame: (() => void) | null = null;
    let latest: TradesEvent | null = null;
    const flush = () => {
      frame = null;
      if (alive && latest) setTape(latest);
    };
    const off = api.on('trades', (t) => {
      // The previous market's trades can still be on their way after a switch.
      if (t.market !== market) return;
      latest = t;
      frame ??= onNextLiveFrame(flush);
    });
    const start = () => {
      watchTrades({ market }).then(
        (w) => alive && setWatch({ market, live: w.live, error: null }),
        (error: unknown) => alive && setWatch({ market, live: false, error }),
      );
    };
    start();
    // Another profile or wallet is another session in main, which follows nothing yet.
    const offSession = api.on('session', start);
    return () => {
      alive = false;
      off();
      offSession();
      frame?.();
    };
  }, [market]);

  // Out of sight: main stops following the venue's trades.
  useEffect(
    () => () => {
      watchTrades({ market: null }).catch(() => undefined);
    },
    [],
  );

  const w = watch && watch.market === market ? watch : null;
  return { trades: tape && tape.market === market ? tape.trades : null, live: w && !w.error ? w.live : null, error: w?.error ?? null };
}

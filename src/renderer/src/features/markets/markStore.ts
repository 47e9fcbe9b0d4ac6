/**
 * Live marks, outside React and outside the query cache. Mark events can arrive in bursts (a thousand a
 * second in the benchmark); writing each one into React state or the query cache would re-render the
 * terminal a thousand times a second. Instead every event only writes into a Map (latest mark per
 * market), and on the next live frame (ipc/liveFrame.ts: at most ten a second, on an animation frame,
 * together with the book and the tape) the subscribers learn which symbols changed. A component reading
 * one symbol re-renders at most ten times a second, and only when its own mark moved: as often as main
 * delivers marks, and more than a person can read.
 */
import { useSyncExternalStore } from 'react';
import { LIVE_FRAME_MS, onNextLiveFrame } from '../../ipc/liveFrame';

export interface MarkTick {
  /** Decimal text as main sent it. */
  mark: string;
  /** Unix ms of the mark. */
  at: number;
}

const marks = new Map<string, MarkTick>();
const dirty = new Set<string>();
const bySymbol = new Map<string, Set<() => void>>();
const anySubs = new Set<(changed: ReadonlySet<string>) => void>();
/** Minimum time between two notifications. */
export const MARK_FLUSH_MS = LIVE_FRAME_MS;
let pending = false;
let version = 0;

function flush(): void {
  pending = false;
  if (dirty.size === 0) return;
  const changed = new Set(dirty);
  dirty.clear();
  version++;
  for (const s of changed) bySymbol.get(s)?.forEach((f) => f());
  anySubs.forEach((f) => f(changed));
}

function schedule(): void {
  if (pending) return;
  pending = true;
  onNextLiveFrame(flush);
}

/** Records marks (latest wins) and schedules one notification for this frame. */
export function putMarks(entries: Iterable<[string, MarkTick]>): void {
  for (const [symbol, tick] of entries) {
    const prev = marks.get(symbol);
    if (prev && prev.at > tick.at) continue;
    if (prev && prev.mark === tick.mark && prev.at === tick.at) continue;
    marks.set(symbol, tick);
    dirty.add(symbol);
  }
  if (dirty.size > 0) schedule();
}

export function getMark(symbol: string | null | undefined): MarkTick | undefined {
  return symbol ? marks.get(symbol) : undefined;
}

/** Subscribe to frames in which any mark changed (the chart and the market list use it). */
export function onMarkFrame(f: (changed: ReadonlySet<string>) => void): () => void {
  anySubs.add(f);
  return () => anySubs.delete(f);
}

/** The live mark of one symbol, re-rendering at most once per animation frame. */
export function useMark(symbol: string | null | undefined): MarkTick | undefined {
  return useSyncExternalStore(
    (cb) => {
      if (!symbol) return () => undefined;
      let set = bySymbol.get(symbol);
      if (!set) {
        set = new Set();
        bySymbol.set(symbol, set);
      }
      set.add(cb);
      return () => set.delete(cb);
    },
    () => (symbol ? marks.get(symbol) : undefined),
  );
}

/**
 * Whether any live mark has arrived yet. Changes once: a component showing it (the status bar) is not
 * re-rendered by every frame of marks after that.
 */
export function useHasLiveMarks(): boolean {
  return useSyncExternalStore(
    (cb) => {
      const f = () => cb();
      anySubs.add(f);
      return () => anySubs.delete(f);
    },
    () => version > 0,
  );
}

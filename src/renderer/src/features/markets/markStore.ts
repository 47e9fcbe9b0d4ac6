/**
 * Live marks, outside React and outside the query cache. Mark events can arrive in bursts (a thousand a
 * second in the benchmark); writing each one into React state or the query cache would re-render the
 * terminal a thousand times a second. Instead every event only writes into a Map, and at most ten times
 * a second (on an animation frame, so never mid-frame) the subscribers learn which symbols changed. A
 * component reading one symbol re-renders at most ten times a second, and only when its own mark moved:
 * as often as main delivers marks, and more than a person can read.
 */
import { useSyncExternalStore } from 'react';

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
export const MARK_FLUSH_MS = 100;
let pending = false;
let lastFlush = 0;
let version = 0;

function flush(): void {
  pending = false;
  lastFlush = performance.now();
  if (dirty.size === 0) return;
  const changed = new Set(dirty);
  dirty.clear();
  version++;
  for (const s of changed) bySymbol.get(s)?.forEach((f) => f());
  anySubs.forEach((f) => f(changed));
}

function onFrame(): void {
  // rAF pauses in a hidden window, which is what we want (nothing to paint); a timer is the fallback
  // for environments without rAF.
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  else flush();
}

function schedule(): void {
  if (pending) return;
  pending = true;
  const wait = Math.max(0, lastFlush + MARK_FLUSH_MS - performance.now());
  if (wait === 0) onFrame();
  else setTimeout(onFrame, wait);
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

/** A counter that changes once per frame with any mark change (for lists showing every symbol). */
export function useMarkVersion(): number {
  return useSyncExternalStore(
    (cb) => {
      const f = () => cb();
      anySubs.add(f);
      return () => anySubs.delete(f);
    },
    () => version,
  );
}

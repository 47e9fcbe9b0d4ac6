/** The time of the shared `periodMs` clock (sharedClock.ts), re-rendering at each of its ticks. */
import { useCallback, useSyncExternalStore } from 'react';
import { clockNow, watchClock } from './sharedClock';

export function useNow(periodMs = 1000): number {
  const subscribe = useCallback((onTick: () => void) => watchClock(periodMs, onTick), [periodMs]);
  return useSyncExternalStore(subscribe, () => clockNow(periodMs));
}

/**
 * The latest status of every order this session has heard about (from orderStatus events and from
 * placement results), newest first. The activity panel and the order ticket read it; the open-orders
 * lists stay the authority for what is resting.
 */
import { useSyncExternalStore } from 'react';
import type { OrderStatusUpdate } from '../../../shared/ipc';

export interface ActivityEntry extends OrderStatusUpdate {
  /** When the renderer learned of this status (local clock, for ordering only). */
  seen_at: number;
  /** "entry", "tp", "sl" or "order" when the order was placed here. */
  label?: string;
  side?: string;
}

const MAX = 200;
let entries: ActivityEntry[] = [];
const subs = new Set<() => void>();

export function recordActivity(updates: readonly (OrderStatusUpdate & { label?: string; side?: string })[]): void {
  if (updates.length === 0) return;
  const byId = new Map(entries.map((e) => [e.order_id, e]));
  const now = Date.now();
  for (const u of updates) {
    const prev = byId.get(u.order_id);
    byId.set(u.order_id, { ...prev, ...u, label: u.label ?? prev?.label, side: u.side ?? prev?.side, seen_at: now } as ActivityEntry);
  }
  entries = [...byId.values()].sort((a, b) => b.seen_at - a.seen_at).slice(0, MAX);
  subs.forEach((f) => f());
}

export function useActivity(): ActivityEntry[] {
  return useSyncExternalStore(
    (f) => {
      subs.add(f);
      return () => subs.delete(f);
    },
    () => entries,
  );
}

/** Forgets the session's activity (another wallet or profile: those orders are not this account's). */
export function clearActivity(): void {
  entries = [];
  subs.forEach((f) => f());
}

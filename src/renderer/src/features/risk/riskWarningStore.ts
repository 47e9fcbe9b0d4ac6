/**
 * The latest riskWarning event from main (positions whose mark is within the user's distance of their
 * liquidation estimate), for the trade view's banner, and which of its warnings to announce (toast and
 * sound).
 *
 * Main sends the whole current set with every re-pricing while any position is in the zone (up to ten a
 * second), and an empty set once the last one leaves. The banner shows the latest set as it is; the
 * announcement is made once when a position ENTERS the set, and a position that drops out and comes back
 * (a mark wobbling across the line) is announced again only after REANNOUNCE_MS, so a wobble does not
 * sound an alarm on every tick.
 */
import { useSyncExternalStore } from 'react';
import type { RiskWarning, RiskWarningEvent } from '../../../../shared/ipc';

/** A position re-entering the zone within this long of its last announcement is not announced again. */
export const REANNOUNCE_MS = 60_000;

export interface AnnounceState {
  /** Positions (by id) in the last set seen. */
  inZone: ReadonlySet<string>;
  /** When each position was last announced (Unix ms). */
  announcedAt: ReadonlyMap<string, number>;
}

export const EMPTY_ANNOUNCE_STATE: AnnounceState = { inZone: new Set(), announcedAt: new Map() };

/**
 * The warnings of `event` to announce now and the state after it: a position announces when it was not in
 * the previous set and was not announced within REANNOUNCE_MS. Pure, so the rule is unit-tested.
 */
export function nextAnnouncements(state: AnnounceState, event: RiskWarningEvent, now: number): { announce: RiskWarning[]; state: AnnounceState } {
  const announce: RiskWarning[] = [];
  const announcedAt = new Map(state.announcedAt);
  for (const w of event.warnings) {
    if (state.inZone.has(w.position_id)) continue;
    const last = announcedAt.get(w.position_id);
    if (last !== undefined && now - last < REANNOUNCE_MS) continue;
    announcedAt.set(w.position_id, now);
    announce.push(w);
  }
  // Forget announcements old enough not to hold anything back any more.
  for (const [id, at] of announcedAt) if (now - at >= REANNOUNCE_MS) announcedAt.delete(id);
  return { announce, state: { inZone: new Set(event.warnings.map((w) => w.position_id)), announcedAt } };
}

let latest: RiskWarningEvent | null = null;
let announceState: AnnounceState = EMPTY_ANNOUNCE_STATE;
const subs = new Set<() => void>();

/** Takes a riskWarning event; returns the warnings to announce. */
export function putRiskWarnings(event: RiskWarningEvent, now = Date.now()): RiskWarning[] {
  latest = event.warnings.length > 0 ? event : null;
  const next = nextAnnouncements(announceState, event, now);
  announceState = next.state;
  subs.forEach((f) => f());
  return next.announce;
}

/** Another account or profile: its warnings are not this one's. */
export function clearRiskWarnings(): void {
  latest = null;
  announceState = EMPTY_ANNOUNCE_STATE;
  subs.forEach((f) => f());
}

function subscribe(f: () => void): () => void {
  subs.add(f);
  return () => subs.delete(f);
}

/** The warnings in force now (null when none). */
export function useRiskWarnings(): RiskWarningEvent | null {
  return useSyncExternalStore(subscribe, () => latest);
}

/**
 * What a screen reader is told without the person looking: fills, order results, alert firings and
 * liquidation warnings, through one live region (LiveRegion.tsx, mounted once in the Shell). Polite by
 * default: it waits for the reader to finish; a liquidation warning is assertive: it interrupts, because
 * money is about to be lost.
 *
 * The toasts (toastStore.ts) show the same events to the eye; a toast the announcer already spoke is
 * silent itself (pushToast's `announce`), so nothing is read twice.
 *
 * The same words twice in a row (two identical fills) must be read twice: a live region announces a
 * change of its text, so the second copy carries an invisible marker that makes it differ.
 */
export type Politeness = 'polite' | 'assertive';

export interface Announcement {
  polite: string;
  assertive: string;
}

let current: Announcement = { polite: '', assertive: '' };
const subs = new Set<() => void>();

/** The text to put in the region so a repeat of `last` still changes it (a zero-width space toggled). */
export function nextText(last: string, text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return last === clean ? `${clean}\u200b` : clean;
}

/** Announces `text` (whitespace folded) to assistive technology. */
export function announce(text: string, politeness: Politeness = 'polite'): void {
  if (!text.trim()) return;
  current = { ...current, [politeness]: nextText(current[politeness], text) };
  subs.forEach((f) => f());
}

export function currentAnnouncement(): Announcement {
  return current;
}

export function subscribeAnnouncements(f: () => void): () => void {
  subs.add(f);
  return () => subs.delete(f);
}

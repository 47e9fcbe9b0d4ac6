/**
 * The trading day of the risk limits: it starts at the trader's reset time (HH:MM UTC, 00:00 by default)
 * and lasts until the same time the next day. Pure, on Unix ms of the service's clock.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

/** Minutes after midnight UTC of "HH:MM" (already validated by ResetTimeSchema). */
export function resetMinutes(resetTime: string): number {
  const [h, m] = resetTime.split(':').map(Number);
  return h! * 60 + m!;
}

/** The latest reset at or before `now`. */
export function dayStartOf(now: number, resetTime: string): number {
  const offset = resetMinutes(resetTime) * 60_000;
  return Math.floor((now - offset) / DAY_MS) * DAY_MS + offset;
}

/** The first reset after `now` (a lockout lasts until then). */
export function nextResetAfter(now: number, resetTime: string): number {
  return dayStartOf(now, resetTime) + DAY_MS;
}

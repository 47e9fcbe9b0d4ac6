/**
 * The inference API's rate limit. Spec: 429 rate_limited is "too many requests from the address", so the
 * limit is a sliding window per client address, applied before the key is looked at: requests with a
 * wrong, disabled or missing key fill the window like any other (a client guessing keys is limited too).
 *
 * Sim choices: the window is `inference.rateLimit` (60 requests a minute by default; the spec gives no
 * numbers); a request answered 429 is not counted (nothing was done for it), every other request to a
 * known endpoint is, including ones then refused with 401 or another 4xx. The windows are not part of the
 * saved state: a restarted simulator starts every address afresh.
 */
import type { SimClock } from '../../runtime/clock.js';

export interface RateLimit {
  max: number;
  windowMs: number;
}

/** `recent` without the times outside the window (kept in arrival order). */
export function inWindow(recent: readonly number[], limit: RateLimit, now: number): number[] {
  return recent.filter((t) => t > now - limit.windowMs);
}

/** The ms until a slot frees when `recent` (already inside the window) is full, else null. */
export function waitFor(recent: readonly number[], limit: RateLimit, now: number): number | null {
  if (recent.length < limit.max) return null;
  const oldest = recent[0] ?? now;
  return oldest + limit.windowMs - now;
}

/** IPv4 clients reach a dual-stack socket as `::ffff:a.b.c.d`: one client, one address. */
export function normalizeAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}

/** Request times per client address. */
export class AddressWindows {
  private recent = new Map<string, number[]>();

  constructor(private readonly clock: SimClock) {}

  /** The ms until `address` may send again under `limit`, or null when it may now (nothing is counted). */
  wait(address: string, limit: RateLimit): number | null {
    const now = this.clock.now();
    const times = inWindow(this.recent.get(address) ?? [], limit, now);
    // An address whose window emptied is forgotten, so the map holds only recent clients.
    if (times.length === 0) this.recent.delete(address);
    else this.recent.set(address, times);
    return waitFor(times, limit, now);
  }

  /** Counts a request of `address` (after `wait` said it may send). */
  record(address: string): void {
    const times = this.recent.get(address) ?? [];
    times.push(this.clock.now());
    this.recent.set(address, times);
  }
}

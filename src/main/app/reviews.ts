/**
 * "What you review is what gets signed." A review (keys:review, orders:preview, withdraw:preview) is a
 * services Prepared (the exact EIP-712 typed data, nonces reserved) kept under a short-lived id; the acting
 * channel takes only that id and submits exactly that Prepared, whose submit step signs only its own typed
 * data (services/signing/prepared.ts refuses anything else, REVIEW_MISMATCH). A review is used once, and
 * never crosses to another wallet or profile.
 */
import { randomUUID } from 'node:crypto';
import { OperationError } from '../services/errors.js';

export interface ReviewEntry<K extends string = string, P = unknown> {
  id: string;
  kind: K;
  /** The wallet the review was made for: a review never crosses to another wallet or profile. */
  scope: string;
  validUntil: number;
  payload: P;
}

export class ReviewStore {
  private readonly entries = new Map<string, ReviewEntry>();

  constructor(
    private readonly now: () => number = Date.now,
    /** How many reviews are kept at most (old ones are dropped first). */
    private readonly max = 50,
  ) {}

  put<K extends string, P>(kind: K, scope: string, ttlMs: number, payload: P): ReviewEntry<K, P> {
    this.prune();
    while (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    const entry: ReviewEntry<K, P> = { id: randomUUID(), kind, scope, validUntil: this.now() + ttlMs, payload };
    this.entries.set(entry.id, entry);
    return entry;
  }

  /** Removes and returns the review; an unknown, expired, other-kind or other-scope id is REVIEW_EXPIRED. */
  take<K extends string, P>(id: string, kind: K, scope: string): ReviewEntry<K, P> {
    const entry = this.peek<K, P>(id, kind, scope);
    // One use: a confirmed review cannot be confirmed twice (it would sign the same nonce again).
    this.entries.delete(id);
    return entry;
  }

  /**
   * Returns the review without using it up (same refusals as take): for checks that may still send the
   * person back to the same review, such as a confirmation it needs and the request did not give.
   */
  peek<K extends string, P>(id: string, kind: K, scope: string): ReviewEntry<K, P> {
    const entry = this.entries.get(id);
    if (!entry || entry.kind !== kind || entry.scope !== scope || entry.validUntil < this.now()) {
      if (entry && entry.validUntil < this.now()) this.entries.delete(id);
      throw new OperationError('REVIEW_EXPIRED', `review ${id} is unknown or has expired`, { hint: 'Review (preview) it again, then confirm within the time shown.' });
    }
    return entry as ReviewEntry<K, P>;
  }

  clear(): void {
    this.entries.clear();
  }

  private prune(): void {
    const now = this.now();
    for (const [id, e] of this.entries) if (e.validUntil < now) this.entries.delete(id);
  }
}

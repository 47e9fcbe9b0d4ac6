/**
 * "What you review is what gets signed." A review (keys:review, orders:preview, withdraw:preview) builds
 * the exact EIP-712 typed data, nonce included, and keeps it under a short-lived id; the acting channel
 * takes only that id. The service then runs as usual, but with two constraints:
 *  - its nonce source hands out exactly the nonces reserved at review time, and
 *  - its signer is wrapped so that it signs only typed data whose digest equals the next reviewed one.
 * If a service ever built something else, the wrapper refuses (REVIEW_MISMATCH) and nothing is signed.
 */
import { randomUUID } from 'node:crypto';
import { bytesToHex, digestOf, type TypedData } from '../../shared/eip712/index.js';
import type { Signer } from '../signers/signer.js';
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
    const entry = this.entries.get(id);
    if (!entry || entry.kind !== kind || entry.scope !== scope || entry.validUntil < this.now()) {
      if (entry && entry.validUntil < this.now()) this.entries.delete(id);
      throw new OperationError('REVIEW_EXPIRED', `review ${id} is unknown or has expired`, { hint: 'Review (preview) it again, then confirm within the time shown.' });
    }
    // One use: a confirmed review cannot be confirmed twice (it would sign the same nonce again).
    this.entries.delete(id);
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

export function digestHex(data: TypedData): string {
  return bytesToHex(digestOf(data));
}

/** A signer that signs only the reviewed digests, in order. */
export function guardedSigner(inner: Signer, expectedDigests: readonly string[]): Signer {
  const queue = [...expectedDigests];
  return {
    kind: inner.kind,
    address: inner.address,
    async signTypedData(data: TypedData): Promise<string> {
      const expected = queue.shift();
      const actual = digestHex(data);
      if (expected === undefined || expected.toLowerCase() !== actual.toLowerCase()) {
        throw new OperationError('REVIEW_MISMATCH', `the ${data.primaryType} to sign differs from the one reviewed; nothing was signed`, {
          hint: 'Review it again and confirm the new review.',
        });
      }
      return inner.signTypedData(data);
    },
  };
}

/** A nonce source that hands out exactly the reserved nonces, in order, for the reviewed wallet. */
export function reservedNonces(wallet: string, nonces: readonly number[]): { next(wallet: string): Promise<number> } {
  const queue = [...nonces];
  return {
    async next(w: string): Promise<number> {
      const n = queue.shift();
      if (n === undefined || w.toLowerCase() !== wallet.toLowerCase()) {
        throw new OperationError('REVIEW_MISMATCH', 'the action needs more signatures than were reviewed; nothing more was signed', { hint: 'Review it again.' });
      }
      return n;
    },
  };
}

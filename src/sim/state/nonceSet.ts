/**
 * The used nonces of one wallet and scope, compactly. The spec makes a nonce single use per wallet with
 * no expiry ("A replayed nonce answers 409"; no accepted window is given), so none can ever be
 * forgotten: pruning old ones would let a captured request be replayed. What can shrink is how each is
 * held. Nonces are canonical integers (Unix ms in practice), so those that fit a double exactly are
 * kept as 8 bytes each in a sorted Float64Array, with a small set of recent ones merged into it in
 * batches (each merge is linear, and merges grow with the array, so adding stays amortised constant
 * even when nonces arrive out of order). Anything else (a uint256 beyond 2^53) stays a string.
 */

/** Canonical decimal integers that survive a round trip through a double. */
const SAFE = /^[1-9]\d{0,15}$/;

function numeric(nonce: string): number | null {
  if (!SAFE.test(nonce)) return null;
  const n = Number(nonce);
  return Number.isSafeInteger(n) ? n : null;
}

export class NonceSet {
  private sorted = new Float64Array(0);
  private readonly recent = new Set<number>();
  private readonly other = new Set<string>();

  get size(): number {
    return this.sorted.length + this.recent.size + this.other.size;
  }

  has(nonce: string): boolean {
    const n = numeric(nonce);
    if (n === null) return this.other.has(nonce);
    return this.recent.has(n) || this.indexOf(n) >= 0;
  }

  add(nonce: string): void {
    const n = numeric(nonce);
    if (n === null) {
      this.other.add(nonce);
      return;
    }
    if (this.recent.has(n) || this.indexOf(n) >= 0) return;
    this.recent.add(n);
    if (this.recent.size >= Math.max(256, this.sorted.length >> 3)) this.merge();
  }

  /** Every nonce as text, ascending where numeric (the state file). */
  *values(): Generator<string> {
    this.merge();
    for (const n of this.sorted) yield String(n);
    yield* this.other;
  }

  private indexOf(n: number): number {
    const a = this.sorted;
    let lo = 0;
    let hi = a.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = a[mid]!;
      if (v < n) lo = mid + 1;
      else if (v > n) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  private merge(): void {
    if (this.recent.size === 0) return;
    const add = Float64Array.from(this.recent).sort();
    this.recent.clear();
    const a = this.sorted;
    const out = new Float64Array(a.length + add.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < a.length && j < add.length) out[k++] = a[i]! < add[j]! ? a[i++]! : add[j++]!;
    while (i < a.length) out[k++] = a[i++]!;
    while (j < add.length) out[k++] = add[j++]!;
    this.sorted = out;
  }
}

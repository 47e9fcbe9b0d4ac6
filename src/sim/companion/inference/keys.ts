/**
 * Inference API keys: balance, spending limit, disabled / deleted flags and an optional per-key rate window.
 *
 * Sim choices: balance and spending limit are per key (the spec mentions "key's or account's" limit; the
 * simulator has no account layer); the spending limit applies per period of `spendingPeriodMs` aligned to
 * the Unix epoch (daily by default) and resets when a new period starts. The service's rate limit is per
 * client address (rateLimit.ts); a key's own `rateLimit` (set through the control module) is a test knob
 * that adds a tighter window for requests presenting that key, so a test can force 429 for its key alone.
 * It counts the same requests as the address window (not the ones answered 429).
 */
import type { SimClock } from '../../runtime/clock.js';
import type { CompanionConfig } from '../config.js';
import { Dec } from '../common/amounts.js';
import { inWindow, waitFor } from './rateLimit.js';

export interface KeyState {
  key: string;
  balance: string;
  disabled: boolean;
  deleted: boolean;
  spendingLimit: string | null;
  /** Spent in the current spending period. */
  spent: string;
  periodStart: number;
  /** Extra rate window for requests presenting this key (a test knob); null for none. */
  rateLimit: { max: number; windowMs: number } | null;
  /** SimClock times of recent counted requests. */
  recent: number[];
}

export interface KeyUpdate {
  key: string;
  balance?: string;
  disabled?: boolean;
  deleted?: boolean;
  spendingLimit?: string | null;
  spent?: string;
  rateLimit?: { max: number; windowMs: number } | null;
}

export class KeyStore {
  private keys = new Map<string, KeyState>();

  constructor(
    private readonly config: CompanionConfig,
    private readonly clock: SimClock,
  ) {
    for (const k of config.inference.keys) this.upsert({ key: k.key, balance: k.balance, disabled: k.disabled, spendingLimit: k.spendingLimit });
  }

  get(key: string): KeyState | undefined {
    return this.keys.get(key);
  }

  upsert(u: KeyUpdate): KeyState {
    const existing = this.keys.get(u.key);
    const k: KeyState = existing ?? { key: u.key, balance: '0', disabled: false, deleted: false, spendingLimit: null, spent: '0', periodStart: this.periodStart(), rateLimit: null, recent: [] };
    if (u.balance !== undefined) k.balance = u.balance;
    if (u.disabled !== undefined) k.disabled = u.disabled;
    if (u.deleted !== undefined) k.deleted = u.deleted;
    if (u.spendingLimit !== undefined) k.spendingLimit = u.spendingLimit;
    if (u.spent !== undefined) {
      k.spent = u.spent;
      k.periodStart = this.periodStart();
    }
    if (u.rateLimit !== undefined) k.rateLimit = u.rateLimit;
    this.keys.set(u.key, k);
    return k;
  }

  private periodStart(): number {
    const p = this.config.inference.spendingPeriodMs;
    return Math.floor(this.clock.now() / p) * p;
  }

  /** Spent in the current period (a new period starts from zero). */
  spent(k: KeyState): Dec {
    const start = this.periodStart();
    if (k.periodStart !== start) {
      k.periodStart = start;
      k.spent = '0';
    }
    return new Dec(k.spent);
  }

  /** The ms until the key's own window (when it has one) frees a slot, or null (nothing is counted). */
  rateWait(k: KeyState): number | null {
    if (k.rateLimit === null) return null;
    const now = this.clock.now();
    k.recent = inWindow(k.recent, k.rateLimit, now);
    return waitFor(k.recent, k.rateLimit, now);
  }

  /** Counts a request against the key's own window (after `rateWait` let it through). */
  recordRate(k: KeyState): void {
    if (k.rateLimit !== null) k.recent.push(this.clock.now());
  }

  charge(k: KeyState, amount: Dec): void {
    if (amount.lte(0)) return;
    const spent = this.spent(k);
    k.balance = new Dec(k.balance).sub(amount).toFixed();
    k.spent = spent.add(amount).toFixed();
  }

  view(k: KeyState): Record<string, unknown> {
    return { key: k.key, balance: k.balance, disabled: k.disabled, deleted: k.deleted, spendingLimit: k.spendingLimit, spent: this.spent(k).toFixed(), rateLimit: k.rateLimit };
  }

  exportState(): KeyState[] {
    return [...this.keys.values()].map((k) => structuredClone(k));
  }

  importState(s: KeyState[]): void {
    this.keys = new Map(s.map((k) => [k.key, structuredClone(k)]));
  }
}

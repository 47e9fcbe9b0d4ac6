/**
 * Inference API keys: balance, spending limit, disabled / deleted flags and the per-key rate window.
 *
 * Sim choices: balance and spending limit are per key (the spec mentions "key's or account's" limit; the
 * simulator has no account layer); the spending limit applies per period of `spendingPeriodMs` aligned to
 * the Unix epoch (daily by default) and resets when a new period starts; the rate limit counts every
 * authenticated request (including ones later refused with 4xx) but not requests answered 429.
 */
import type { SimClock } from '../../runtime/clock.js';
import type { CompanionConfig } from '../config.js';
import { Dec } from '../common/amounts.js';

export interface KeyState {
  key: string;
  balance: string;
  disabled: boolean;
  deleted: boolean;
  spendingLimit: string | null;
  /** Spent in the current spending period. */
  spent: string;
  periodStart: number;
  /** Per-key override of the default rate limit; null uses the default. */
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

  /** Counts a request against the key's window; returns the ms until a slot frees when over the limit. */
  takeRateSlot(k: KeyState): number | null {
    const limit = k.rateLimit ?? this.config.inference.rateLimit;
    const now = this.clock.now();
    k.recent = k.recent.filter((t) => t > now - limit.windowMs);
    if (k.recent.length >= limit.max) {
      const oldest = k.recent[0] ?? now;
      return oldest + limit.windowMs - now;
    }
    k.recent.push(now);
    return null;
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

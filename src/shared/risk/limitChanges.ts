/**
 * Changing limits: tightening applies at once, loosening waits a cool-down (issue 39 item 4). Pure: a
 * wallet's record and a request in, the new record and the change-log lines out.
 *
 *  - Tighter: a limit set where none was, or a lower value; a longer cool-down. Applies now, and drops a
 *    pending loosening of the same limit (the trader changed their mind the safe way).
 *  - Looser: a higher value, a removal ("none"), a shorter cool-down, a different reset time (it moves the
 *    day, and so the lockout's end and the daily loss), and ending a lockout early. Waits until
 *    now + the cool-down in force, shown as pending with that time; a newer loosening of the same limit
 *    replaces the older one and waits its own cool-down from now.
 *  - The cool-down is chosen with the first limit (24 h unless given) and then follows the same rule.
 *  - With no limit set and no lockout there is nothing to protect, so every change applies at once.
 */
import { Decimal } from '../decimal/index.js';
import { DEFAULT_COOLDOWN_MS, NO_LIMITS, hasAnyLimit, type LimitLogEntry, type LimitName, type MarketLimitName, type PendingChange, type WalletRisk } from './riskLimits.js';

export interface LimitChangeRequest {
  /** Limits to change: text of the value, or null to remove it. */
  limits?: Partial<Record<LimitName, string | null>>;
  /** Apply max_position_notional and max_leverage to this market instead of all markets. */
  market?: string;
  reset_time?: string;
  cooldown_ms?: number;
  /** End the lockout before the next reset (a loosening). */
  end_lockout?: boolean;
}

export function newWalletRisk(profile: string, wallet: string, now: number): WalletRisk {
  return { profile, wallet, limits: structuredClone(NO_LIMITS), reset_time: '00:00', cooldown_ms: null, pending: [], lockout: null, peak: null, updated_at: now };
}

const INTEGER_LIMITS = new Set(['max_leverage', 'max_orders_per_minute']);

/** The value in force of a change key, as text (null: unset). */
export function currentValue(r: WalletRisk, key: string): string | null {
  if (key === 'reset_time') return r.reset_time;
  if (key === 'cooldown') return r.cooldown_ms === null ? null : String(r.cooldown_ms);
  if (key === 'lockout') return r.lockout ? String(r.lockout.until) : null;
  const m = /^markets\.(.+)\.(max_position_notional|max_leverage)$/.exec(key);
  const v = m ? r.limits.markets[m[1]!]?.[m[2] as MarketLimitName] : r.limits[key as LimitName];
  return v === null || v === undefined ? null : String(v);
}

function withValue(r: WalletRisk, key: string, value: string | null): WalletRisk {
  const next: WalletRisk = structuredClone(r);
  if (key === 'reset_time') next.reset_time = value ?? '00:00';
  else if (key === 'cooldown') next.cooldown_ms = value === null ? null : Number(value);
  else if (key === 'lockout') next.lockout = null;
  else {
    const m = /^markets\.(.+)\.(max_position_notional|max_leverage)$/.exec(key);
    const name = (m ? m[2] : key) as LimitName;
    const typed = value === null ? null : INTEGER_LIMITS.has(name) ? Number(value) : value;
    if (m) {
      const entry = next.limits.markets[m[1]!] ?? { max_position_notional: null, max_leverage: null };
      (entry as Record<string, unknown>)[name] = typed;
      if (entry.max_position_notional === null && entry.max_leverage === null) delete next.limits.markets[m[1]!];
      else next.limits.markets[m[1]!] = entry;
    } else (next.limits as Record<string, unknown>)[name] = typed;
  }
  return next;
}

/** Whether moving `key` from `old` to `value` loosens it (needs the cool-down). */
export function isLoosening(key: string, old: string | null, value: string | null): boolean {
  if (key === 'lockout') return true;
  if (key === 'reset_time') return old !== value;
  if (key === 'cooldown') return old !== null && (value === null || new Decimal(value).lt(old));
  if (old === null) return false;
  if (value === null) return true;
  return new Decimal(value).gt(old);
}

export interface ChangeOutcome {
  record: WalletRisk;
  log: Omit<LimitLogEntry, 'profile' | 'wallet'>[];
}

/** The request as change keys and values, in a stable order. */
export function changesOf(req: LimitChangeRequest): [string, string | null][] {
  const out: [string, string | null][] = [];
  for (const [name, value] of Object.entries(req.limits ?? {}) as [LimitName, string | null | undefined][]) {
    if (value === undefined) continue;
    const perMarket = req.market !== undefined && (name === 'max_position_notional' || name === 'max_leverage');
    out.push([perMarket ? `markets.${req.market}.${name}` : name, value]);
  }
  if (req.reset_time !== undefined) out.push(['reset_time', req.reset_time]);
  if (req.cooldown_ms !== undefined) out.push(['cooldown', String(req.cooldown_ms)]);
  if (req.end_lockout === true) out.push(['lockout', null]);
  return out;
}

/** Applies what is due (pending changes whose time came, a lockout whose reset came). */
export function settle(record: WalletRisk, now: number): ChangeOutcome {
  let r = record;
  const log: ChangeOutcome['log'] = [];
  if (r.lockout && r.lockout.until <= now) {
    log.push({ at: now, limit: 'lockout', old: String(r.lockout.until), new: null, action: 'unlocked', effective_at: r.lockout.until });
    r = { ...r, lockout: null };
  }
  const due = r.pending.filter((p) => p.effective_at <= now);
  if (due.length === 0) return { record: r === record ? record : { ...r, updated_at: now }, log };
  r = { ...r, pending: r.pending.filter((p) => p.effective_at > now) };
  for (const p of due) {
    const old = currentValue(r, p.limit);
    r = withValue(r, p.limit, p.value);
    log.push({ at: now, limit: p.limit, old, new: p.value, action: p.limit === 'lockout' ? 'unlocked' : 'applied', effective_at: p.effective_at });
  }
  return { record: { ...r, updated_at: now }, log };
}

/** Applies a request at `now` (after settling what is due). */
export function requestChange(record: WalletRisk, req: LimitChangeRequest, now: number): ChangeOutcome {
  const settled = settle(record, now);
  let r = settled.record;
  const log = [...settled.log];
  const changes = changesOf(req);
  const protecting = hasAnyLimit(r.limits) || r.lockout !== null;
  // The cool-down: chosen with the first limit.
  const cooldownAsked = changes.find(([k]) => k === 'cooldown');
  if (r.cooldown_ms === null && !cooldownAsked && changes.some(([k, v]) => k !== 'reset_time' && k !== 'lockout' && v !== null)) {
    r = { ...r, cooldown_ms: DEFAULT_COOLDOWN_MS };
    log.push({ at: now, limit: 'cooldown', old: null, new: String(DEFAULT_COOLDOWN_MS), action: 'applied', effective_at: null });
  }
  for (const [key, value] of changes) {
    const old = currentValue(r, key);
    if (key === 'lockout' && r.lockout === null) continue;
    if (old === value && key !== 'lockout') {
      // Asking for the value in force drops a loosening that was waiting.
      const dropped = r.pending.filter((p) => p.limit === key);
      if (dropped.length > 0) {
        r = { ...r, pending: r.pending.filter((p) => p.limit !== key) };
        for (const d of dropped) log.push({ at: now, limit: key, old: d.value, new: value, action: 'cancelled', effective_at: d.effective_at });
      }
      continue;
    }
    if (protecting && isLoosening(key, old, value)) {
      const wait = r.cooldown_ms ?? DEFAULT_COOLDOWN_MS;
      const p: PendingChange = { limit: key, value, requested_at: now, effective_at: now + wait };
      r = { ...r, pending: [...r.pending.filter((x) => x.limit !== key), p] };
      log.push({ at: now, limit: key, old, new: value, action: 'pending', effective_at: p.effective_at });
    } else {
      const dropped = r.pending.filter((p) => p.limit === key);
      r = { ...withValue(r, key, value), pending: r.pending.filter((p) => p.limit !== key) };
      for (const d of dropped) log.push({ at: now, limit: key, old: d.value, new: value, action: 'cancelled', effective_at: d.effective_at });
      log.push({ at: now, limit: key, old, new: value, action: 'applied', effective_at: null });
    }
  }
  return { record: { ...r, updated_at: now }, log };
}

/**
 * Trading keys (agents): one record per (wallet, agent). ACTIVE means not revoked and not expired;
 * expiry is read against the SimClock on every use, so advancing the clock past expires_at makes the
 * key stop listing and stop authorizing at once.
 */
import type { SimContext } from '../context.js';
import type { TradingKeyRecord } from '../state/model.js';

const keyOf = (wallet: string, agent: string): string => `${wallet.toLowerCase()}|${agent.toLowerCase()}`;

export function isActive(key: TradingKeyRecord, now: number): boolean {
  return key.revoked_at === null && key.expires_at > now;
}

export function activeKey(ctx: SimContext, wallet: string, agent: string): TradingKeyRecord | null {
  const key = ctx.store.keys.get(keyOf(wallet, agent));
  return key && isActive(key, ctx.clock.now()) ? key : null;
}

/** Registers or refreshes: re-registering an active agent updates its expiry, never adds a second key. */
export function upsertKey(
  ctx: SimContext,
  wallet: string,
  agent: string,
  expiresAt: number,
  name: string | null,
  keyHint: string | null,
): TradingKeyRecord {
  const now = ctx.clock.now();
  const id = keyOf(wallet, agent);
  const existing = ctx.store.keys.get(id);
  if (existing && isActive(existing, now)) {
    existing.expires_at = expiresAt;
    if (name !== null) existing.name = name;
    if (keyHint !== null) existing.key_hint = keyHint;
    return existing;
  }
  // A revoked or expired agent registered again starts a new life (new created_at).
  const record: TradingKeyRecord = { wallet: wallet.toLowerCase(), agent, created_at: now, expires_at: expiresAt, revoked_at: null, name, key_hint: keyHint };
  ctx.store.keys.set(id, record);
  return record;
}

/** Revokes immediately. Returns false when the agent had no active key for the wallet (revoking is idempotent). */
export function revokeKey(ctx: SimContext, wallet: string, agent: string): boolean {
  const key = ctx.store.keys.get(keyOf(wallet, agent));
  if (!key || !isActive(key, ctx.clock.now())) return false;
  key.revoked_at = ctx.clock.now();
  return true;
}

export function activeKeysOf(ctx: SimContext, wallet: string): TradingKeyRecord[] {
  const now = ctx.clock.now();
  const w = wallet.toLowerCase();
  return [...ctx.store.keys.values()].filter((k) => k.wallet === w && isActive(k, now)).sort((a, b) => a.created_at - b.created_at);
}

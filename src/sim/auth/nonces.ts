/**
 * Single-use nonces per wallet: custody actions (register, revoke, withdraw) use the main wallet's set;
 * trading actions (order legs, cancels, modifies, margin) use the set of the wallet the account derives
 * from — the account's wallet, not the agent, so two agents of one account cannot reuse each other's
 * nonces. The two kinds are separate sets: a register and an order signed in the same millisecond do
 * not collide (they are different signed types, so neither can replay the other anyway).
 *
 * Nonces are consumed only once the request has passed validation and signature checks, so a forged
 * request can never burn a genuine nonce. A replay answers 409.
 */
import { nonceReplayed } from '../core/response.js';
import type { SimContext } from '../context.js';

/** Throws 409 when any nonce was used before or repeats within the request; otherwise consumes all. */
export type NonceScope = 'custody' | 'trading';

const key = (scope: NonceScope, wallet: string): string => `${scope}:${wallet}`;

/** Throws 409 when a nonce was used before, without consuming (for checks that must precede a later 400). */
export function assertFreshNonce(ctx: SimContext, scope: NonceScope, wallet: string, nonce: string): void {
  if (ctx.store.nonceUsed(key(scope, wallet), nonce)) throw nonceReplayed(nonce);
}

export function consumeNonces(ctx: SimContext, scope: NonceScope, wallet: string, nonces: readonly string[]): void {
  const k = key(scope, wallet);
  const seen = new Set<string>();
  for (const n of nonces) {
    if (seen.has(n) || ctx.store.nonceUsed(k, n)) throw nonceReplayed(n);
    seen.add(n);
  }
  for (const n of nonces) ctx.store.useNonce(k, n);
}

/** For per-item checks (cancel-batch legs): true when the nonce was free and is now consumed. */
export function tryConsumeNonce(ctx: SimContext, scope: NonceScope, wallet: string, nonce: string): boolean {
  const k = key(scope, wallet);
  if (ctx.store.nonceUsed(k, nonce)) return false;
  ctx.store.useNonce(k, nonce);
  return true;
}

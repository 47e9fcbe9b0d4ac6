/**
 * Authorization of trading-key actions (Order, Cancel, Modify, UpdateIsolatedMargin): the recovered
 * signer must be an ACTIVE, unexpired agent of the account's wallet. Anything else (unrecoverable
 * signature, a payload that differs from the signed one, an unknown, revoked or expired agent, the main
 * wallet signing directly) is the same 403 with the same message.
 */
import { forbidden } from '../core/response.js';
import type { SimContext } from '../context.js';
import { activeKey } from '../keys/registry.js';

export function isAuthorizedAgent(ctx: SimContext, wallet: string, recovered: string | null): boolean {
  return recovered !== null && activeKey(ctx, wallet, recovered) !== null;
}

export function requireAgent(ctx: SimContext, wallet: string, recovered: string | null): string {
  if (!isAuthorizedAgent(ctx, wallet, recovered)) throw forbidden();
  return recovered!;
}

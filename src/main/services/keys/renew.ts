/**
 * Renewal: re-registering an agent refreshes its expiry (spec, "Trading key" states: "Re-registering the
 * same agent refreshes expiry; no second key"). A key should be renewed before it expires, since an
 * expired key stops authorizing orders at once.
 */
import type { TradingKeyMetadata } from '../../vault/tradingKeyVault.js';
import type { ServiceContext } from '../serviceContext.js';
import { ValidationError } from '../errors.js';
import { authorizeTradingKey, type AuthorizeInput, type AuthorizeResult } from './authorize.js';
import { DAY_MS, checkAddress } from './common.js';

export interface RenewResult extends AuthorizeResult {
  /** The expiry recorded before the renewal (null when unknown here). */
  previous_expires_at: number | null;
}

/** Renews a key stored in this data folder (refusing a key this folder does not hold: nothing to renew). */
export async function renewTradingKey(ctx: ServiceContext, input: AuthorizeInput): Promise<RenewResult> {
  const wallet = checkAddress(input.wallet, 'wallet');
  const agent = checkAddress(input.agent, 'agent');
  const local = ctx.vault.get({ environment: ctx.profile.name, wallet, agent });
  if (!local) {
    throw new ValidationError(`no trading key ${agent} for ${wallet} on profile '${ctx.profile.name}' in this data folder`, {
      field: 'agent',
      code: 'KEY_NOT_FOUND',
      hint: 'Run `perps keys list --wallet ADDR` to see the keys stored here.',
    });
  }
  const result = await authorizeTradingKey(ctx, { ...input, wallet, agent });
  return { ...result, previous_expires_at: local.expires_at };
}

/** Authorized local keys of `wallet` whose expiry falls within `withinDays` (by the service's clock). */
export async function keysDueForRenewal(ctx: ServiceContext, walletInput: string, withinDays = 14): Promise<TradingKeyMetadata[]> {
  const wallet = checkAddress(walletInput, 'wallet');
  const now = await ctx.clock.now();
  return ctx.vault.list({ environment: ctx.profile.name, wallet }).filter((k) => k.expires_at !== null && k.expires_at - now <= withinDays * DAY_MS);
}

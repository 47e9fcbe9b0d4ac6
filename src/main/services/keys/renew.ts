/**
 * Renewal: re-registering an agent refreshes its expiry (spec, "Trading key" states: "Re-registering the
 * same agent refreshes expiry; no second key"). A key should be renewed before it expires, since an
 * expired key stops authorizing orders at once.
 *
 * Only a key stored in this data folder is renewed (there is nothing here to renew otherwise), so a
 * renewal never hands trading rights to a key held elsewhere. prepareRenew / submitRenew are the two
 * steps (signing/prepared.ts); the review carries the expiry recorded before.
 */
import type { TradingKeyMetadata } from '../../vault/tradingKeyVault.js';
import type { Signer } from '../../signers/signer.js';
import type { ServiceContext } from '../serviceContext.js';
import { ValidationError } from '../errors.js';
import { prepareRegister, submitAuthorize, type AuthorizeInput, type AuthorizeResult, type KeysContext, type PrepareAuthorizeInput, type PreparedRenew } from './authorize.js';
import { DAY_MS, checkAddress, checkSignerIsWallet } from './common.js';

export interface RenewResult extends AuthorizeResult {
  /** The expiry recorded before the renewal (null when unknown here). */
  previous_expires_at: number | null;
}

export type PrepareRenewInput = Omit<PrepareAuthorizeInput, 'agentOrigin'>;

/** Checks the key is stored here and builds its re-registration for review; nothing is signed or sent. */
export async function prepareRenew(ctx: KeysContext, input: PrepareRenewInput): Promise<PreparedRenew> {
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
  return prepareRegister(ctx, 'renew', { ...input, wallet, agent, agentOrigin: 'local' }, local.expires_at);
}

/** Signs the prepared renewal with the main wallet and registers it; the new expiry is stored with the key. */
export async function submitRenew(ctx: ServiceContext, prepared: PreparedRenew, signer: Signer): Promise<RenewResult> {
  const result = await submitAuthorize(ctx, prepared, signer);
  return { ...result, previous_expires_at: prepared.view.previous_expires_at };
}

/** Renews a key stored in this data folder, in one go (refusing a key this folder does not hold: nothing to renew). */
export async function renewTradingKey(ctx: ServiceContext, input: AuthorizeInput): Promise<RenewResult> {
  checkSignerIsWallet(input.signer, checkAddress(input.wallet, 'wallet'));
  return submitRenew(ctx, await prepareRenew(ctx, input), input.signer);
}

/** Authorized local keys of `wallet` whose expiry falls within `withinDays` (by the service's clock). */
export async function keysDueForRenewal(ctx: ServiceContext, walletInput: string, withinDays = 14): Promise<TradingKeyMetadata[]> {
  const wallet = checkAddress(walletInput, 'wallet');
  const now = await ctx.clock.now();
  return ctx.vault.list({ environment: ctx.profile.name, wallet }).filter((k) => k.expires_at !== null && k.expires_at - now <= withinDays * DAY_MS);
}

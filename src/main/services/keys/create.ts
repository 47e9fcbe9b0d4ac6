/** `perps keys new`: a fresh trading key, generated here and stored only in the OS keychain. */
import type { TradingKeyMetadata } from '../../vault/tradingKeyVault.js';
import type { ServiceContext } from '../serviceContext.js';
import { ValidationError } from '../errors.js';
import { checkAddress } from './common.js';

export interface CreateTradingKeyInput {
  wallet: string;
  /** Label shown in lists and sent as the register body's `name` (at most 64 characters). */
  name?: string;
}

/**
 * Generates a trading key for `wallet` on the context's profile. The key is not usable until the main
 * wallet authorizes it (`perps keys authorize`); until then it lists as NOT_AUTHORIZED.
 */
export async function createTradingKey(ctx: ServiceContext, input: CreateTradingKeyInput): Promise<TradingKeyMetadata> {
  const wallet = checkAddress(input.wallet, 'wallet');
  if (input.name !== undefined && (input.name.trim().length === 0 || input.name.trim().length > 64)) {
    throw new ValidationError('must be 1 to 64 characters', { field: 'name' });
  }
  return ctx.vault.create({ environment: ctx.profile.name, wallet, ...(input.name !== undefined ? { name: input.name } : {}) });
}

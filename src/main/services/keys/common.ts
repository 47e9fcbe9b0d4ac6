/** Checks shared by the trading-key use cases. All run before anything is signed. */
import { sameAddress, toChecksumAddress } from '../../../shared/identity/index.js';
import type { Signer } from '../../signers/signer.js';
import type { ServiceContext } from '../serviceContext.js';
import { ValidationError } from '../errors.js';

export const DAY_MS = 86_400_000;
/** Spec, "Key lifetime": expiry is at most 180 days over the API. */
export const MAX_KEY_LIFETIME_DAYS = 180;
export const DEFAULT_KEY_LIFETIME_DAYS = 90;
/**
 * Our estimate of the server's clock is good to a round trip, so an expiry of exactly 180 days could land
 * a few milliseconds past the server's limit; a full-length key is shortened by this margin instead.
 */
export const EXPIRY_SAFETY_MARGIN_MS = 60_000;

export function checkAddress(value: string, field: string): string {
  try {
    return toChecksumAddress(value, field);
  } catch (err) {
    throw new ValidationError((err as Error).message, { cause: err, hint: 'An address is 0x followed by 40 hex characters.' });
  }
}

/** A custody action must be signed by the wallet it acts for: refuse a signer for another wallet up front. */
export function checkSignerIsWallet(signer: Signer, wallet: string): void {
  if (!sameAddress(signer.address, wallet)) {
    throw new ValidationError(`the signer is ${signer.address}, not the wallet ${wallet}`, {
      field: 'signer',
      code: 'SIGNER_NOT_WALLET',
      hint: 'Custody actions (authorize, revoke, withdraw) are signed by the main wallet itself: use its keystore or key.',
    });
  }
}

/** Days of key lifetime: positive, at most 180. Fractions are allowed (they are just shorter keys). */
export function checkLifetimeDays(days: number | undefined): number {
  const d = days ?? DEFAULT_KEY_LIFETIME_DAYS;
  if (!Number.isFinite(d) || d <= 0) {
    throw new ValidationError(`must be a positive number of days, got ${String(days)}`, { field: 'expires-in-days', code: 'INVALID_EXPIRY' });
  }
  if (d > MAX_KEY_LIFETIME_DAYS) {
    throw new ValidationError(`${d} days is more than the ${MAX_KEY_LIFETIME_DAYS} days the service allows`, {
      field: 'expires-in-days',
      code: 'INVALID_EXPIRY',
      hint: `Choose at most ${MAX_KEY_LIFETIME_DAYS} days; renew the key before it expires.`,
    });
  }
  return d;
}

/** The chain id signed into a custody action: any positive integer the body repeats; default the profile's. */
export function checkChainId(ctx: Pick<ServiceContext, 'profile'>, chainId: number | undefined): number {
  const id = chainId ?? ctx.profile.tradingChainId;
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new ValidationError(`must be a positive integer, got ${String(chainId)}`, { field: 'chain-id', code: 'INVALID_CHAIN_ID' });
  }
  return id;
}

export function checkOptionalText(value: string | undefined, max: number, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.length > max) throw new ValidationError(`at most ${max} characters (got ${value.length})`, { field });
  return value;
}

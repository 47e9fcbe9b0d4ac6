/**
 * Authorizing a trading key (spec, "POST /auth/register"): the main wallet signs AuthorizeAgent over the
 * register body, the signature is checked to recover the wallet, the body is registered and the expiry
 * the service answers is stored with the key. The same body can instead be written out (offline
 * ceremony: sign on the machine holding the wallet, submit later from the machine holding the key) and
 * submitted with submitRegisterBody. Re-registering an agent refreshes its expiry (renewal).
 */
import { authorizeAgentTypedData, digestOf, recoverDigestSigner, type RegisterBodyForSigning } from '../../../shared/eip712/index.js';
import { sameAddress } from '../../../shared/identity/index.js';
import { ApiError, DecodeError, RegisterBodySchema, parseWith, type RegisterBody } from '../../../shared/protocol/index.js';
import { WriteLandedUnknownResultError } from '../../api/errors.js';
import type { Signer } from '../../signers/signer.js';
import type { ServiceContext } from '../serviceContext.js';
import { OperationError, ValidationError } from '../errors.js';
import {
  DAY_MS,
  EXPIRY_SAFETY_MARGIN_MS,
  MAX_KEY_LIFETIME_DAYS,
  checkAddress,
  checkChainId,
  checkLifetimeDays,
  checkOptionalText,
  checkSignerIsWallet,
} from './common.js';

export interface AuthorizeInput {
  wallet: string;
  agent: string;
  /** The main wallet's signer (keystore, env key, offline, Ledger). */
  signer: Signer;
  /** Default 90, at most 180. */
  expiresInDays?: number;
  /** signature_chain_id; default the profile's chain id. */
  chainId?: number;
  /** Register body `name` (<= 64); defaults to the local key's name when the key is stored here. */
  name?: string;
  /** Register body `key_hint` (<= 32). */
  keyHint?: string;
  /**
   * Unix ms the expiry counts from; default the service's clock. The offline half of the ceremony passes
   * its own clock instead: the machine holding the main wallet may have no network at all.
   */
  now?: number;
}

export interface AuthorizeResult {
  wallet: string;
  agent: string;
  environment: string;
  /** Unix ms, as the service answered (or as listed after a lost answer). */
  expires_at: number;
  /** True when the key is in this data folder's vault (and can sign orders here). */
  stored_locally: boolean;
  /** The body had already been registered (a resubmitted offline body, or a lost answer). */
  already_registered: boolean;
}

/** Signs AuthorizeAgent with the main wallet and returns the ready register body; nothing is sent. */
export async function buildRegisterBody(ctx: ServiceContext, input: AuthorizeInput): Promise<RegisterBody> {
  const wallet = checkAddress(input.wallet, 'wallet');
  const agent = checkAddress(input.agent, 'agent');
  if (sameAddress(wallet, agent)) throw new ValidationError('the trading key must be a separate key, not the main wallet', { field: 'agent' });
  checkSignerIsWallet(input.signer, wallet);
  const days = checkLifetimeDays(input.expiresInDays);
  const chainId = checkChainId(ctx, input.chainId);
  const local = ctx.vault.get({ environment: ctx.profile.name, wallet, agent });
  const name = checkOptionalText(input.name ?? local?.name, 64, 'name');
  const keyHint = checkOptionalText(input.keyHint, 32, 'key-hint');

  // Expiry is judged by the server's clock, so it is computed from it (not from a possibly skewed local one).
  const now = input.now ?? (await ctx.clock.now());
  const lifetime = Math.min(Math.round(days * DAY_MS), MAX_KEY_LIFETIME_DAYS * DAY_MS - EXPIRY_SAFETY_MARGIN_MS);
  const unsigned: RegisterBodyForSigning = {
    wallet_address: wallet,
    agent_wallet_address: agent,
    service_environment: ctx.profile.environment,
    signature_chain_id: chainId,
    expires_at: now + lifetime,
    nonce: await ctx.nonces.next(wallet),
  };
  const typed = authorizeAgentTypedData(unsigned);
  const signature = await input.signer.signTypedData(typed);
  // Every signer verifies its own output, but a custody signature is checked here too, against the typed
  // data built from this very body: what is sent is exactly what was signed.
  const recovered = recoverDigestSigner(digestOf(typed), signature);
  if (!sameAddress(recovered, wallet)) {
    throw new OperationError('SIGNATURE_MISMATCH', `the AuthorizeAgent signature recovers ${recovered}, not ${wallet}; nothing was sent`);
  }
  const body: RegisterBody = { ...unsigned, signature };
  if (name !== undefined) body.name = name;
  if (keyHint !== undefined) body.key_hint = keyHint;
  return body;
}

/** Signs and registers; stores the answered expiry with the local key. */
export async function authorizeTradingKey(ctx: ServiceContext, input: AuthorizeInput): Promise<AuthorizeResult> {
  return registerAndRecord(ctx, await buildRegisterBody(ctx, input));
}

/**
 * Submits a register body signed earlier (the offline ceremony). It is checked before sending: the
 * shape, the environment of this profile, the signature recovering wallet_address, and an expiry still
 * in the future by the server's clock.
 */
export async function submitRegisterBody(ctx: ServiceContext, raw: unknown): Promise<AuthorizeResult> {
  let body: RegisterBody;
  try {
    body = parseWith(RegisterBodySchema, raw, 'register body');
  } catch (err) {
    if (err instanceof DecodeError) throw new ValidationError(err.message, { code: 'INVALID_REGISTER_BODY', hint: 'Submit the file written by `perps keys authorize --out FILE`, unchanged.' });
    throw err;
  }
  if (body.service_environment !== ctx.profile.environment) {
    throw new ValidationError(`the body was signed for ${body.service_environment}, but profile '${ctx.profile.name}' is ${ctx.profile.environment}`, {
      field: 'service_environment',
      code: 'ENVIRONMENT_MISMATCH',
      hint: 'Submit it with the --profile it was signed for, or sign a new one for this profile.',
    });
  }
  const recovered = recoverDigestSigner(digestOf(authorizeAgentTypedData(body)), body.signature);
  if (!sameAddress(recovered, body.wallet_address)) {
    throw new ValidationError(`the signature recovers ${recovered}, not wallet_address ${body.wallet_address}`, {
      field: 'signature',
      code: 'SIGNATURE_MISMATCH',
      hint: 'The file was changed after signing, or signed by another wallet. Sign a new one.',
    });
  }
  const now = await ctx.clock.now();
  if (body.expires_at <= now) {
    throw new ValidationError(`expires_at ${new Date(body.expires_at).toISOString()} has already passed`, {
      field: 'expires_at',
      code: 'BODY_EXPIRED',
      hint: 'Sign a new register body with `perps keys authorize --out FILE`.',
    });
  }
  return registerAndRecord(ctx, body);
}

async function registerAndRecord(ctx: ServiceContext, body: RegisterBody): Promise<AuthorizeResult> {
  const wallet = body.wallet_address;
  const agent = body.agent_wallet_address;
  let expiresAt: number;
  let alreadyRegistered = false;
  try {
    expiresAt = (await ctx.api.register(body)).expires_at;
  } catch (err) {
    // A 409 means this nonce was already used: after a resend, the first copy landed; on a first attempt,
    // this exact body was submitted before (an offline body submitted twice). Either way the listing says
    // whether the registration it carries is in force.
    const landed = err instanceof WriteLandedUnknownResultError;
    if (!landed && !(err instanceof ApiError && err.status === 409)) throw err;
    const listed = (await ctx.api.tradingKeys(wallet)).find((k) => sameAddress(k.agent_wallet_address, agent));
    if (!listed || (!landed && listed.expires_at !== body.expires_at)) {
      throw new OperationError('NONCE_REPLAYED', `the register body's nonce ${body.nonce} was already used and ${agent} is ${listed ? 'listed with another expiry' : 'not listed'}`, {
        status: 409,
        cause: err,
        hint: 'Sign a new register body (a fresh nonce) with `perps keys authorize`.',
      });
    }
    expiresAt = listed.expires_at;
    alreadyRegistered = !landed;
  }
  const ref = { environment: ctx.profile.name, wallet, agent };
  const local = ctx.vault.get(ref);
  if (local) ctx.vault.setExpiry(ref, expiresAt);
  return { wallet, agent, environment: ctx.profile.environment, expires_at: expiresAt, stored_locally: local !== undefined, already_registered: alreadyRegistered };
}

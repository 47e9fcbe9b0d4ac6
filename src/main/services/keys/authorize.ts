/**
 * Authorizing a trading key (spec, "POST /auth/register"), in the two public steps of every signed action
 * (signing/prepared.ts):
 *
 *  - prepareAuthorize checks the input, reserves the nonce, computes the expiry (from the service's clock,
 *    or the caller's `now` on an offline machine) and builds the exact AuthorizeAgent typed data and a view
 *    of what the main wallet is about to sign. Nothing is signed or sent.
 *  - submitAuthorize signs exactly that with the main wallet (the signature must recover it), registers the
 *    body and stores the expiry the service answers with the local key. signAuthorize is its offline half:
 *    it signs and returns the ready register body, which submitRegisterBody sends later from the machine
 *    holding the key (the key ceremony). Re-registering an agent refreshes its expiry (renew.ts).
 *
 * Which agents may be authorized: by default only a key held in this profile's vault (`agentOrigin:
 * 'local'`), so nothing that merely names an address (the renderer, a pasted value) can hand trading rights
 * to a key this machine does not hold. Authorizing a key created elsewhere is the key ceremony's explicit
 * flow (`agentOrigin: 'foreign'`), and its review says plainly what it does.
 */
import { authorizeAgentTypedData, digestOf, recoverDigestSigner, type RegisterBodyForSigning, type ServiceEnvironment } from '../../../shared/eip712/index.js';
import { sameAddress } from '../../../shared/identity/index.js';
import { ApiError, DecodeError, RegisterBodySchema, parseWith, type RegisterBody } from '../../../shared/protocol/index.js';
import { WriteLandedUnknownResultError } from '../../api/errors.js';
import { summarizeTypedData } from '../../signers/offlineSigner.js';
import type { Signer } from '../../signers/signer.js';
import type { ServiceContext } from '../serviceContext.js';
import { OperationError, ValidationError } from '../errors.js';
import { assertPreparedFor, reserveNonces, signPrepared, signRequest, type PreparedBase } from '../signing/prepared.js';
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

/** Where the agent's private key lives: this profile's vault, or another machine (the key ceremony). */
export type AgentOrigin = 'local' | 'foreign';

/** What a key authorization or renewal reads: the profile, the vault, the service's clock, the nonces. */
export type KeysContext = Pick<ServiceContext, 'profile' | 'vault' | 'clock' | 'nonces'>;

export interface PrepareAuthorizeInput {
  wallet: string;
  agent: string;
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
  /**
   * 'local' (the default): the agent must be a key stored in this profile's vault, else AGENT_NOT_LOCAL and
   * nothing is reserved or signed. 'foreign': a key created on another machine may be authorized (the key
   * ceremony); the view then warns that trading rights go to a key this machine does not hold.
   */
  agentOrigin?: AgentOrigin;
}

export interface AuthorizeInput extends PrepareAuthorizeInput {
  /** The main wallet's signer (keystore, env key, offline, Ledger). */
  signer: Signer;
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

/** The register body as it will be sent, minus the signature. */
export interface UnsignedRegisterBody extends RegisterBodyForSigning {
  name?: string;
  key_hint?: string;
}

/** What a person reviews before the main wallet signs AuthorizeAgent. */
export interface AuthorizeView {
  action: 'authorize' | 'renew';
  wallet: string;
  agent: string;
  /** The service environment signed (Testnet, Mainnet). */
  environment: ServiceEnvironment;
  /** The profile it is for ('sim', 'mainnet'). */
  profile: string;
  /** signature_chain_id, the signed domain's chainId. */
  chain_id: number;
  nonce: number;
  /** Unix ms the key stops authorizing orders. */
  expires_at: number;
  /** The lifetime asked for, in days (a full 180 is shortened by a minute: see common.ts). */
  lifetime_days: number;
  /** Which clock the expiry counts from: the service's, or this machine's (offline signing). */
  clock: 'service' | 'local';
  key_name: string | null;
  key_hint: string | null;
  /** The agent's private key is in this profile's vault (it can sign orders here). */
  stored_locally: boolean;
  /** Renewal: the expiry recorded here before it (null when unknown, and for an authorization). */
  previous_expires_at: number | null;
  /** The signing request in words (the lines an offline device shows). */
  summary: string[];
  warnings: string[];
}

interface PreparedRegister<A extends 'authorize' | 'renew'> extends PreparedBase<A> {
  readonly body: UnsignedRegisterBody;
  readonly view: AuthorizeView;
}
export type PreparedAuthorize = PreparedRegister<'authorize'>;
export type PreparedRenew = PreparedRegister<'renew'>;

/** Checks an authorization's input and builds it (shared by authorize and renew). */
export async function prepareRegister<A extends 'authorize' | 'renew'>(
  ctx: KeysContext,
  action: A,
  input: PrepareAuthorizeInput,
  previousExpiresAt: number | null = null,
): Promise<PreparedRegister<A>> {
  const wallet = checkAddress(input.wallet, 'wallet');
  const agent = checkAddress(input.agent, 'agent');
  if (sameAddress(wallet, agent)) throw new ValidationError('the trading key must be a separate key, not the main wallet', { field: 'agent' });
  const days = checkLifetimeDays(input.expiresInDays);
  const chainId = checkChainId(ctx, input.chainId);
  const local = ctx.vault.get({ environment: ctx.profile.name, wallet, agent });
  const origin = input.agentOrigin ?? 'local';
  if (origin !== 'local' && origin !== 'foreign') throw new ValidationError(`must be 'local' or 'foreign', got ${JSON.stringify(origin)}`, { field: 'agentOrigin' });
  if (!local && origin === 'local') {
    throw new ValidationError(`trading key ${agent} is not stored for ${wallet} on profile '${ctx.profile.name}' on this machine; nothing was signed`, {
      field: 'agent',
      code: 'AGENT_NOT_LOCAL',
      hint: 'Create a trading key here first (`perps keys new`, or the Keys page). A key made on another machine is authorized through the key ceremony (`perps keys authorize`, README "Key ceremony").',
    });
  }
  const name = checkOptionalText(input.name ?? local?.name, 64, 'name');
  const keyHint = checkOptionalText(input.keyHint, 32, 'key-hint');

  // Expiry is judged by the server's clock, so it is computed from it (not from a possibly skewed local one).
  const now = input.now ?? (await ctx.clock.now());
  if (!Number.isSafeInteger(now) || now <= 0) throw new ValidationError(`must be a Unix-ms time, got ${String(input.now)}`, { field: 'now' });
  const lifetime = Math.min(Math.round(days * DAY_MS), MAX_KEY_LIFETIME_DAYS * DAY_MS - EXPIRY_SAFETY_MARGIN_MS);
  const [nonce] = await reserveNonces(ctx.nonces, wallet, 1);
  const body: UnsignedRegisterBody = {
    wallet_address: wallet,
    agent_wallet_address: agent,
    service_environment: ctx.profile.environment,
    signature_chain_id: chainId,
    expires_at: now + lifetime,
    nonce: nonce!,
  };
  if (name !== undefined) body.name = name;
  if (keyHint !== undefined) body.key_hint = keyHint;
  const request = signRequest('AuthorizeAgent', authorizeAgentTypedData(body));
  const warnings: string[] = [];
  if (!local) {
    warnings.push(
      `${agent} is not a key held on this machine: signing this hands trading rights for ${wallet} to a key this machine does not hold, until ${new Date(body.expires_at).toISOString()}. Go on only if you created that key yourself, on your other machine.`,
    );
  }
  return {
    action,
    profile: ctx.profile.name,
    wallet,
    signer: { role: 'main-wallet', address: wallet },
    requests: [request],
    body,
    view: {
      action,
      wallet,
      agent,
      environment: ctx.profile.environment,
      profile: ctx.profile.name,
      chain_id: chainId,
      nonce: body.nonce,
      expires_at: body.expires_at,
      lifetime_days: days,
      clock: input.now === undefined ? 'service' : 'local',
      key_name: name ?? null,
      key_hint: keyHint ?? null,
      stored_locally: local !== undefined,
      previous_expires_at: previousExpiresAt,
      summary: summarizeTypedData(request.typedData),
      warnings,
    },
  };
}

/** Checks the input and builds AuthorizeAgent for review (module comment); nothing is signed or sent. */
export function prepareAuthorize(ctx: KeysContext, input: PrepareAuthorizeInput): Promise<PreparedAuthorize> {
  return prepareRegister(ctx, 'authorize', input);
}

/**
 * Signs a prepared authorization (or renewal) with the main wallet and returns the ready register body;
 * nothing is sent. The signer must be the wallet, and the signature must recover it (signPrepared).
 */
export async function signAuthorize(prepared: PreparedAuthorize | PreparedRenew, signer: Signer): Promise<RegisterBody> {
  const [signature] = await signPrepared(prepared, signer);
  return { ...prepared.body, signature: signature! };
}

/**
 * Signs a prepared authorization (or renewal: renew.ts adds the previous expiry) with the main wallet and
 * registers it; stores the answered expiry with the local key.
 */
export async function submitAuthorize(ctx: ServiceContext, prepared: PreparedAuthorize | PreparedRenew, signer: Signer): Promise<AuthorizeResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  return registerAndRecord(ctx, await signAuthorize(prepared, signer));
}

/**
 * Prepares and signs in one go, returning the register body; nothing is sent (the offline half of the
 * ceremony, where the agent is normally held by the other machine: `agentOrigin` defaults to 'foreign').
 */
export async function buildRegisterBody(ctx: KeysContext, input: AuthorizeInput): Promise<RegisterBody> {
  // A signer of another wallet is refused before a nonce is taken.
  checkSignerIsWallet(input.signer, checkAddress(input.wallet, 'wallet'));
  return signAuthorize(await prepareAuthorize(ctx, { ...input, agentOrigin: input.agentOrigin ?? 'foreign' }), input.signer);
}

/** Prepares, signs and registers in one go; the agent must be stored here unless `agentOrigin` is 'foreign'. */
export async function authorizeTradingKey(ctx: ServiceContext, input: AuthorizeInput): Promise<AuthorizeResult> {
  checkSignerIsWallet(input.signer, checkAddress(input.wallet, 'wallet'));
  return submitAuthorize(ctx, await prepareAuthorize(ctx, input), input.signer);
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

/**
 * `perps keys revoke` (spec, "POST /auth/trading-keys/revoke"): the main wallet signs RevokeAgent; the
 * revocation is immediate. prepareRevoke builds the exact typed data and a view for review (nothing signed
 * or sent); submitRevoke signs it and sends. The local copy of the key is deleted only after the service
 * accepted it, so a failed revoke never leaves a live key the user can no longer find.
 *
 * Any agent of the wallet may be revoked, stored here or not: revoking the key of a lost machine is the
 * point of revoking.
 */
import { revokeAgentTypedData, type RevokeBodyForSigning, type ServiceEnvironment } from '../../../shared/eip712/index.js';
import type { RevokeBody } from '../../../shared/protocol/index.js';
import { WriteLandedUnknownResultError } from '../../api/errors.js';
import { summarizeTypedData } from '../../signers/offlineSigner.js';
import type { Signer } from '../../signers/signer.js';
import type { ServiceContext } from '../serviceContext.js';
import { assertPreparedFor, reserveNonces, signPrepared, signRequest, type PreparedBase } from '../signing/prepared.js';
import type { KeysContext } from './authorize.js';
import { checkAddress, checkChainId, checkSignerIsWallet } from './common.js';

export interface PrepareRevokeInput {
  wallet: string;
  agent: string;
  /** signature_chain_id; default the profile's chain id. */
  chainId?: number;
}

export interface RevokeInput extends PrepareRevokeInput {
  signer: Signer;
}

export interface RevokeResult {
  wallet: string;
  agent: string;
  environment: string;
  revoked: true;
  /** The local key and its metadata were deleted. */
  deleted_locally: boolean;
}

/** What a person reviews before the main wallet signs RevokeAgent. */
export interface RevokeView {
  action: 'revoke';
  wallet: string;
  agent: string;
  environment: ServiceEnvironment;
  profile: string;
  chain_id: number;
  nonce: number;
  /** The key is in this profile's vault: its local copy is deleted once the service accepts. */
  stored_locally: boolean;
  key_name: string | null;
  /** The expiry recorded here (null when not stored here, or never authorized from here). */
  expires_at: number | null;
  summary: string[];
  warnings: string[];
}

export interface PreparedRevoke extends PreparedBase<'revoke'> {
  readonly body: RevokeBodyForSigning;
  readonly view: RevokeView;
}

/** Checks the input and builds RevokeAgent for review; nothing is signed or sent. */
export async function prepareRevoke(ctx: KeysContext, input: PrepareRevokeInput): Promise<PreparedRevoke> {
  const wallet = checkAddress(input.wallet, 'wallet');
  const agent = checkAddress(input.agent, 'agent');
  const chainId = checkChainId(ctx, input.chainId);
  const local = ctx.vault.get({ environment: ctx.profile.name, wallet, agent });
  const [nonce] = await reserveNonces(ctx.nonces, wallet, 1);
  const body: RevokeBodyForSigning = {
    wallet_address: wallet,
    agent_wallet_address: agent,
    service_environment: ctx.profile.environment,
    signature_chain_id: chainId,
    nonce: nonce!,
  };
  const request = signRequest('RevokeAgent', revokeAgentTypedData(body));
  return {
    action: 'revoke',
    profile: ctx.profile.name,
    wallet,
    signer: { role: 'main-wallet', address: wallet },
    requests: [request],
    body,
    view: {
      action: 'revoke',
      wallet,
      agent,
      environment: ctx.profile.environment,
      profile: ctx.profile.name,
      chain_id: chainId,
      nonce: body.nonce,
      stored_locally: local !== undefined,
      key_name: local?.name ?? null,
      expires_at: local?.expires_at ?? null,
      summary: [...summarizeTypedData(request.typedData), 'Orders signed by this key are refused from the moment the service accepts the revocation.'],
      warnings: [],
    },
  };
}

/** Signs the prepared revocation with the main wallet, sends it, then deletes the local copy of the key. */
export async function submitRevoke(ctx: ServiceContext, prepared: PreparedRevoke, signer: Signer): Promise<RevokeResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  const [signature] = await signPrepared(prepared, signer);
  const body: RevokeBody = { ...prepared.body, signature: signature! };
  try {
    await ctx.api.revoke(body);
  } catch (err) {
    // The resend met 409: the first copy landed, so the revocation is in force. Anything else failed.
    if (!(err instanceof WriteLandedUnknownResultError)) throw err;
  }
  const { wallet_address: wallet, agent_wallet_address: agent } = prepared.body;
  const deleted = await ctx.vault.delete({ environment: ctx.profile.name, wallet, agent });
  return { wallet, agent, environment: ctx.profile.environment, revoked: true, deleted_locally: deleted };
}

/** Prepares, signs and sends in one go. */
export async function revokeTradingKey(ctx: ServiceContext, input: RevokeInput): Promise<RevokeResult> {
  // A signer of another wallet is refused before a nonce is taken.
  checkSignerIsWallet(input.signer, checkAddress(input.wallet, 'wallet'));
  return submitRevoke(ctx, await prepareRevoke(ctx, input), input.signer);
}

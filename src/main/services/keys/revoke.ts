/**
 * `perps keys revoke` (spec, "POST /auth/trading-keys/revoke"): the main wallet signs RevokeAgent; the
 * revocation is immediate. The local copy of the key is deleted only after the service accepted it, so a
 * failed revoke never leaves a live key the user can no longer find.
 */
import { digestOf, recoverDigestSigner, revokeAgentTypedData, type RevokeBodyForSigning } from '../../../shared/eip712/index.js';
import { sameAddress } from '../../../shared/identity/index.js';
import type { RevokeBody } from '../../../shared/protocol/index.js';
import { WriteLandedUnknownResultError } from '../../api/errors.js';
import type { Signer } from '../../signers/signer.js';
import type { ServiceContext } from '../serviceContext.js';
import { OperationError } from '../errors.js';
import { checkAddress, checkChainId, checkSignerIsWallet } from './common.js';

export interface RevokeInput {
  wallet: string;
  agent: string;
  signer: Signer;
  chainId?: number;
}

export interface RevokeResult {
  wallet: string;
  agent: string;
  environment: string;
  revoked: true;
  /** The local key and its metadata were deleted. */
  deleted_locally: boolean;
}

export async function revokeTradingKey(ctx: ServiceContext, input: RevokeInput): Promise<RevokeResult> {
  const wallet = checkAddress(input.wallet, 'wallet');
  const agent = checkAddress(input.agent, 'agent');
  checkSignerIsWallet(input.signer, wallet);
  const unsigned: RevokeBodyForSigning = {
    wallet_address: wallet,
    agent_wallet_address: agent,
    service_environment: ctx.profile.environment,
    signature_chain_id: checkChainId(ctx, input.chainId),
    nonce: await ctx.nonces.next(wallet),
  };
  const typed = revokeAgentTypedData(unsigned);
  const signature = await input.signer.signTypedData(typed);
  const recovered = recoverDigestSigner(digestOf(typed), signature);
  if (!sameAddress(recovered, wallet)) {
    throw new OperationError('SIGNATURE_MISMATCH', `the RevokeAgent signature recovers ${recovered}, not ${wallet}; nothing was sent`);
  }
  const body: RevokeBody = { ...unsigned, signature };
  try {
    await ctx.api.revoke(body);
  } catch (err) {
    // The resend met 409: the first copy landed, so the revocation is in force. Anything else failed.
    if (!(err instanceof WriteLandedUnknownResultError)) throw err;
  }
  const deleted = await ctx.vault.delete({ environment: ctx.profile.name, wallet, agent });
  return { wallet, agent, environment: ctx.profile.environment, revoked: true, deleted_locally: deleted };
}

/**
 * Explaining a 403 FORBIDDEN on a trading-key route. The service sends the same message for both causes,
 * and the spec gives the way to tell them apart (GET /auth/trading-keys): if the agent is listed and
 * unexpired, the signed payload differs from the sent one (a client bug: a string signed differently
 * from how it was sent); if it is not listed, the key was registered for another wallet or environment,
 * or it expired (or was revoked).
 */
import { sameAddress } from '../../../shared/identity/index.js';
import { ApiError } from '../../../shared/protocol/index.js';
import type { ServiceContext } from '../serviceContext.js';
import { OperationError } from '../errors.js';
import { checkAddress } from './common.js';

/** What explaining a 403 reads: the key listing, the server's clock and the local key record. */
export type ExplainContext = Pick<ServiceContext, 'api' | 'clock' | 'profile' | 'vault'>;

export type ForbiddenCause = 'PAYLOAD_MISMATCH' | 'KEY_NOT_ACTIVE';

export interface ForbiddenExplanation {
  cause: ForbiddenCause;
  wallet: string;
  agent: string;
  environment: string;
  /** The service lists the agent for this wallet. */
  listed: boolean;
  /** The listed expiry, else the one recorded locally, else null. */
  expires_at: number | null;
  message: string;
  hint: string;
}

export async function explainForbidden(ctx: ExplainContext, input: { wallet: string; agent: string }): Promise<ForbiddenExplanation> {
  const wallet = checkAddress(input.wallet, 'wallet');
  const agent = checkAddress(input.agent, 'agent');
  const [keys, now] = await Promise.all([ctx.api.tradingKeys(wallet), ctx.clock.now()]);
  const listed = keys.find((k) => sameAddress(k.agent_wallet_address, agent) && k.expires_at > now);
  const environment = ctx.profile.environment;
  if (listed) {
    return {
      cause: 'PAYLOAD_MISMATCH',
      wallet,
      agent,
      environment,
      listed: true,
      expires_at: listed.expires_at,
      message: `trading key ${agent} is active for ${wallet}, so the signed payload differs from the sent one`,
      hint: 'A signed string differs byte for byte from the one sent (a non-canonical decimal, a changed field). This is a client bug: report it with the request.',
    };
  }
  const local = ctx.vault.get({ environment: ctx.profile.name, wallet, agent });
  let evidence = '';
  if (local?.expires_at !== null && local?.expires_at !== undefined && local.expires_at <= now) {
    evidence = ` (it expired at ${new Date(local.expires_at).toISOString()})`;
  } else if (local && local.expires_at === null) {
    evidence = ' (it was never authorized from this data folder)';
  }
  return {
    cause: 'KEY_NOT_ACTIVE',
    wallet,
    agent,
    environment,
    listed: false,
    expires_at: local?.expires_at ?? null,
    message: `trading key ${agent} is not listed for ${wallet} in ${environment}${evidence}: it was registered for another wallet or environment, it expired, or it was revoked`,
    hint: `Run \`perps keys list --wallet ${wallet}\`; renew it with \`perps keys renew\` or create and authorize a new one (\`perps keys new\`, \`perps keys authorize\`).`,
  };
}

/**
 * For callers that just got a 403: an OperationError FORBIDDEN carrying the explanation. Any other
 * error comes back unchanged.
 */
export async function explainIfForbidden(ctx: ExplainContext, err: unknown, input: { wallet: string; agent: string }): Promise<unknown> {
  if (!(err instanceof ApiError) || err.status !== 403) return err;
  let why: ForbiddenExplanation;
  try {
    why = await explainForbidden(ctx, input);
  } catch (lookupErr) {
    // The 403 is still the answer; say the explanation could not be fetched and why.
    return new OperationError('FORBIDDEN', err.message, {
      status: 403,
      cause: err,
      hint: `Could not check the key listing to explain it (${(lookupErr as Error).message}). Run \`perps keys list --wallet ${input.wallet}\`.`,
    });
  }
  return new OperationError('FORBIDDEN', `${err.message}: ${why.message}`, {
    status: 403,
    hint: why.hint,
    cause: err,
    details: { cause: why.cause, agent: why.agent, listed: why.listed, expires_at: why.expires_at },
  });
}

/**
 * Runs a trading-key write; a 403 from it comes out explained (which of the spec's two causes it is),
 * every other outcome unchanged. Every trading-route call in the services goes through this.
 */
export async function explainingForbidden<T>(ctx: ExplainContext, input: { wallet: string; agent: string }, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw await explainIfForbidden(ctx, err, input);
  }
}

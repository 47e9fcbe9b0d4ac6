/**
 * POST /auth/register, GET /auth/trading-keys, POST /auth/trading-keys/revoke.
 *
 * Check order (each stage answers before the next runs):
 *   1. shape: missing or ill-typed fields, bad addresses, name > 64, key_hint > 32 -> 400 INVALID_REQUEST naming the field
 *   2. service_environment other than the server's                               -> 400 INVALID_ENVIRONMENT
 *   3. signature_chain_id <= 0                                                    -> 400 INVALID_SIGNATURE_CHAIN_ID
 *   4. expires_at missing, 0, in the past or more than the max lifetime ahead     -> 400 INVALID_EXPIRES_AT (register only)
 *   5. recovered signer differs from wallet_address                               -> 400 INVALID_SIGNATURE
 *   6. nonce already used by the wallet                                           -> 409
 * A signed expiresAt that differs from the body's expires_at cannot be told apart from any other
 * mismatch: it recovers a different address and answers INVALID_SIGNATURE.
 */
import { z } from 'zod';
import { toChecksumAddress } from '../../shared/identity/index.js';
import { address, nonceNumber, signatureHex } from '../../shared/protocol/index.js';
import { ApiFailure, invalidRequest } from '../core/response.js';
import { parseOr400 } from '../core/validate.js';
import type { SimContext } from '../context.js';
import { consumeNonces } from '../auth/nonces.js';
import { recoverRegisterSigner, recoverRevokeSigner } from '../auth/verify.js';
import { activeKeysOf, revokeKey, upsertKey } from './registry.js';

const DAY_MS = 86_400_000;

/** Types only: the environment, chain id and expiry values get their own error codes below. */
const RevokeShape = z.object({
  wallet_address: address,
  agent_wallet_address: address,
  service_environment: z.string(),
  signature_chain_id: z.number().int(),
  nonce: nonceNumber,
  signature: signatureHex,
});

const RegisterShape = RevokeShape.extend({
  /** Missing or null is INVALID_EXPIRES_AT ("required"), checked after the shape. */
  expires_at: z.number().int().nullish(),
  name: z.string().max(64, 'at most 64 characters').optional(),
  key_hint: z.string().max(32, 'at most 32 characters').optional(),
});

function checkEnvironmentAndChain(ctx: SimContext, body: z.infer<typeof RevokeShape>): void {
  if (body.service_environment !== ctx.env.environment) {
    throw new ApiFailure(400, 'INVALID_ENVIRONMENT', `service_environment: this server is ${ctx.env.environment}, got ${JSON.stringify(body.service_environment)}`);
  }
  if (body.signature_chain_id <= 0) {
    throw new ApiFailure(400, 'INVALID_SIGNATURE_CHAIN_ID', `signature_chain_id: must be greater than 0, got ${body.signature_chain_id}`);
  }
}

export function register(ctx: SimContext, raw: Record<string, unknown>): { expires_at: number } {
  const body = parseOr400(RegisterShape, raw);
  checkEnvironmentAndChain(ctx, body);
  const now = ctx.clock.now();
  const expiresAt = body.expires_at;
  const maxLifetime = ctx.config.keys.max_lifetime_days * DAY_MS;
  if (expiresAt === undefined || expiresAt === null || expiresAt === 0) {
    throw new ApiFailure(400, 'INVALID_EXPIRES_AT', 'expires_at: required and non-zero (Unix ms)');
  }
  if (expiresAt <= now) throw new ApiFailure(400, 'INVALID_EXPIRES_AT', `expires_at: must be in the future (now is ${now})`);
  if (expiresAt > now + maxLifetime) {
    throw new ApiFailure(400, 'INVALID_EXPIRES_AT', `expires_at: at most ${ctx.config.keys.max_lifetime_days} days ahead (latest ${now + maxLifetime})`);
  }
  const wallet = toChecksumAddress(body.wallet_address);
  const agent = toChecksumAddress(body.agent_wallet_address);
  const signer = recoverRegisterSigner(
    {
      wallet_address: body.wallet_address,
      agent_wallet_address: body.agent_wallet_address,
      service_environment: ctx.env.environment,
      signature_chain_id: body.signature_chain_id,
      expires_at: expiresAt,
      nonce: body.nonce,
    },
    body.signature,
  );
  if (signer === null || signer !== wallet) throw new ApiFailure(400, 'INVALID_SIGNATURE', 'signature does not recover wallet_address');
  consumeNonces(ctx, 'custody', wallet.toLowerCase(), [String(body.nonce)]);
  const key = upsertKey(ctx, wallet, agent, expiresAt, body.name ?? null, body.key_hint ?? null);
  return { expires_at: key.expires_at };
}

export function revoke(ctx: SimContext, raw: Record<string, unknown>): { agent_wallet_address: string; status: 'REVOKED'; was_active: boolean } {
  const body = parseOr400(RevokeShape, raw);
  checkEnvironmentAndChain(ctx, body);
  const wallet = toChecksumAddress(body.wallet_address);
  const agent = toChecksumAddress(body.agent_wallet_address);
  const signer = recoverRevokeSigner(
    {
      wallet_address: body.wallet_address,
      agent_wallet_address: body.agent_wallet_address,
      service_environment: ctx.env.environment,
      signature_chain_id: body.signature_chain_id,
      nonce: body.nonce,
    },
    body.signature,
  );
  if (signer === null || signer !== wallet) throw new ApiFailure(400, 'INVALID_SIGNATURE', 'signature does not recover wallet_address');
  consumeNonces(ctx, 'custody', wallet.toLowerCase(), [String(body.nonce)]);
  // Idempotent: revoking an agent that is not active still answers 200 (was_active tells which).
  const wasActive = revokeKey(ctx, wallet, agent);
  return { agent_wallet_address: agent, status: 'REVOKED', was_active: wasActive };
}

export function listKeys(ctx: SimContext, query: URLSearchParams): unknown[] {
  const raw = query.get('wallet');
  if (raw === null || raw === '') throw invalidRequest('wallet: is required');
  let wallet: string;
  try {
    wallet = toChecksumAddress(raw, 'wallet');
  } catch (err) {
    throw invalidRequest((err as Error).message);
  }
  return activeKeysOf(ctx, wallet).map((k) => ({
    agent_wallet_address: k.agent,
    status: 'ACTIVE',
    created_at: k.created_at,
    expires_at: k.expires_at,
    ...(k.name !== null ? { name: k.name } : {}),
    ...(k.key_hint !== null ? { key_hint: k.key_hint } : {}),
  }));
}

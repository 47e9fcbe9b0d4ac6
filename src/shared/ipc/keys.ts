/** Trading keys (agents): channels keys:*, and the key-expiry event. */
import { z } from 'zod';
import { address, unixMs } from './fields.js';

export const TradingKeyRowSchema = z.object({
  agent: address,
  name: z.string().nullable(),
  /** ACTIVE (listed by the service), NOT_AUTHORIZED (created here, never authorized), EXPIRED, NOT_LISTED (revoked or registered elsewhere). */
  status: z.enum(['ACTIVE', 'NOT_AUTHORIZED', 'EXPIRED', 'NOT_LISTED']),
  listed: z.boolean(),
  /** Its private key is in this machine's keychain (it can sign here). */
  stored_locally: z.boolean(),
  expires_at: unixMs.nullable(),
  /** By the service's clock; negative once expired. */
  expires_in_ms: z.number().int().nullable(),
  /** Within the key-expiry warning window of the settings. */
  expiring_soon: z.boolean(),
  created_at: z.union([z.number(), z.string()]).nullable(),
});
export type TradingKeyRow = z.infer<typeof TradingKeyRowSchema>;

export const TradingKeyListSchema = z.object({ wallet: address, environment: z.string(), keys: z.array(TradingKeyRowSchema) });
export type TradingKeyList = z.infer<typeof TradingKeyListSchema>;

export const CreateKeyRequestSchema = z.strictObject({ name: z.string().min(1).max(64).optional() });
export const CreatedKeySchema = z.object({ agent: address, name: z.string(), created_at: unixMs, expires_at: unixMs.nullable() });

export const KeyReviewRequestSchema = z.strictObject({
  action: z.enum(['authorize', 'renew', 'revoke']),
  agent: address,
  /** authorize/renew: lifetime in days, default 90, at most 180. */
  expires_in_days: z.number().positive().max(180).optional(),
});

/**
 * Authorizing a trading key this machine does not hold (made on another device, the key ceremony): its own
 * channel, because main shows its own warning first and keys:review refuses such an agent.
 */
export const ForeignKeyReviewRequestSchema = z.strictObject({
  agent: address,
  expires_in_days: z.number().positive().max(180).optional(),
});

export const AuthorizeResultSchema = z.object({
  wallet: address,
  agent: address,
  environment: z.string(),
  expires_at: unixMs,
  stored_locally: z.boolean(),
  already_registered: z.boolean(),
  /** renew only: the expiry before. */
  previous_expires_at: unixMs.nullable(),
});
export type AuthorizeResult = z.infer<typeof AuthorizeResultSchema>;

export const RevokeResultSchema = z.object({ wallet: address, agent: address, environment: z.string(), revoked: z.literal(true), deleted_locally: z.boolean() });

export const KeyExpiryNoticeSchema = z.object({
  agent: address,
  name: z.string().nullable(),
  expires_at: unixMs,
  expires_in_ms: z.number().int(),
  expired: z.boolean(),
});
export type KeyExpiryNotice = z.infer<typeof KeyExpiryNoticeSchema>;

/** Trading keys (agents): registration, listing and revocation. */
import { z } from 'zod';
import { SERVICE_ENVIRONMENTS } from '../../eip712/domain.js';
import { address, nonceNumber, signatureHex, unixMs } from './common.js';

export const TradingKeySchema = z.object({
  agent_wallet_address: address,
  status: z.string(),
  /** "Creation time": the spec does not fix its encoding, so both Unix ms and ISO text parse. */
  created_at: z.union([unixMs, z.string()]),
  expires_at: unixMs,
});
export type TradingKey = z.infer<typeof TradingKeySchema>;
export const TradingKeysSchema = z.array(TradingKeySchema);

export const serviceEnvironment = z.enum(SERVICE_ENVIRONMENTS);

export const RevokeBodySchema = z.object({
  wallet_address: address,
  agent_wallet_address: address,
  service_environment: serviceEnvironment,
  signature_chain_id: z.number().int().positive(),
  nonce: nonceNumber,
  signature: signatureHex,
});
export type RevokeBody = z.infer<typeof RevokeBodySchema>;

export const RegisterBodySchema = RevokeBodySchema.extend({
  expires_at: unixMs.positive(),
  name: z.string().max(64, 'name: at most 64 characters').optional(),
  key_hint: z.string().max(32, 'key_hint: at most 32 characters').optional(),
});
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const RegisterResultSchema = z.object({ expires_at: unixMs });
export type RegisterResult = z.infer<typeof RegisterResultSchema>;

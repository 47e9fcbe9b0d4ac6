/** Prompts main asks the page to answer (blind signing, offline signature): the events and the prompt:* channels. */
import { z } from 'zod';
import { address, hex32, opaqueId } from './fields.js';

export const BlindSigningRequestSchema = z.object({
  prompt_id: opaqueId,
  primary_type: z.enum(['AuthorizeAgent', 'RevokeAgent', 'Withdraw']),
  /** Compare both with the device screen before accepting. */
  domain_separator: hex32,
  message_hash: hex32,
  summary: z.array(z.string()),
});
export type BlindSigningRequest = z.infer<typeof BlindSigningRequestSchema>;

export const OfflineSignatureRequestSchema = z.object({
  prompt_id: opaqueId,
  /** The wallet whose signature is expected. */
  signer: address,
  summary: z.array(z.string()),
  /** EIP-712 digest, for tools that sign a raw digest. */
  digest: hex32,
  /** The full request document (eth_signTypedData_v4 typed data, summary, signer, digest) as JSON text. */
  document: z.string(),
  /**
   * The same request as an animated QR code (eth-sign-request UR parts, for Keystone-style signers):
   * SVG markup per frame, rendered by main's qrcode package, shown in turn every interval_ms; or why
   * there is none (no signer fingerprint set).
   */
  qr: z.union([
    z.object({ frames: z.array(z.string().max(200_000)).min(1).max(200), interval_ms: z.number().int().min(50).max(5_000), request_id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) }),
    z.object({ unavailable: z.string() }),
  ]),
});
export type OfflineSignatureRequest = z.infer<typeof OfflineSignatureRequestSchema>;

export const RespondBlindSigningRequestSchema = z.strictObject({ prompt_id: opaqueId, accept: z.boolean() });
export const RespondOfflineSignatureRequestSchema = z.union([
  /** 65-byte hex, or the lines of an eth-signature UR (`ur:eth-signature/...`, one or several parts, any order). */
  z.strictObject({ prompt_id: opaqueId, signature: z.string().min(1).max(20_000) }),
  z.strictObject({ prompt_id: opaqueId, cancel: z.literal(true) }),
]);
export const PromptIdRequestSchema = z.strictObject({ prompt_id: opaqueId });
/** false when no prompt with that id was waiting (answered already, or timed out). */
export const DeliveredSchema = z.object({ delivered: z.boolean() });
export const SavedFileSchema = z.object({ saved: z.boolean(), file_name: z.string().nullable() });
export const ImportedSignatureSchema = z.object({ signature: z.string().nullable() });

/** Signing review: the exact EIP-712 typed data a custody action will sign, under a short-lived review id. */
import { z } from 'zod';
import { type TypedDataView, TypedDataViewSchema } from '../signingViews.js';
import { address, hex32, opaqueId, unixMs } from './fields.js';
import { SIGNER_KINDS } from './wallet.js';

export { TypedDataViewSchema, type TypedDataView };

export const SigningReviewSchema = z.object({
  review_id: opaqueId,
  primary_type: z.string(),
  /** Who signs: the main wallet's custody signer, or the trading key. */
  signer: z.object({ kind: z.enum([...SIGNER_KINDS, 'trading-key']), address }),
  /** Plain-language lines describing exactly what signing authorizes. */
  summary: z.array(z.string()),
  /** What the person should weigh before signing (a key this machine does not hold, ...). */
  warnings: z.array(z.string()),
  digest: hex32,
  typed_data: TypedDataViewSchema,
  /** Unix ms after which the review id is refused (preview again). */
  valid_until: unixMs,
});
export type SigningReview = z.infer<typeof SigningReviewSchema>;

export const ReviewIdRequestSchema = z.strictObject({ review_id: opaqueId });

/** Withdrawals: preview (checks and the signing review), submit, and the tracked withdrawals. */
import { z } from 'zod';
import { decimalIn } from '../fieldSchemas.js';
import { address, dec, unixMs } from './fields.js';
import { SigningReviewSchema } from './signing.js';

export const WITHDRAWAL_STATUSES = ['REQUESTED', 'ACCEPTED', 'PROCESSING', 'COMPLETED', 'REJECTED', 'REFUNDED', 'FAILED'] as const;
const WITHDRAWAL_PHASES = ['SIGNED', 'LANDED', 'TRACKING', 'DONE', 'UNMATCHED'] as const;

export const WithdrawPreviewRequestSchema = z.strictObject({ amount: decimalIn });
export const WithdrawCheckSchema = z.object({
  wallet: address,
  amount: dec,
  /** The default rail withdraws to the wallet itself. */
  destination: address,
  free_balance: dec,
  min_amount: dec,
  /** Present when the destination has no withdrawal history: the venue's one-time new-wallet fee will likely apply. */
  fee_preview: z.object({ new_wallet_fee: dec, estimated_l1_send_amount: dec, note: z.string() }).nullable(),
  warnings: z.array(z.string()),
});
export const WithdrawPreviewSchema = z.object({ check: WithdrawCheckSchema, review: SigningReviewSchema });
export type WithdrawPreview = z.infer<typeof WithdrawPreviewSchema>;

export const TrackedWithdrawalViewSchema = z.object({
  /** Local id of the intent: one intent, one signature, at most one withdrawal. */
  intent_id: z.string(),
  withdrawal_id: z.string().nullable(),
  amount: dec,
  destination: address,
  /** SIGNED (not confirmed sent), LANDED (finding it), TRACKING, DONE, UNMATCHED. */
  phase: z.enum(WITHDRAWAL_PHASES),
  status: z.enum(WITHDRAWAL_STATUSES).nullable(),
  reason: z.string().nullable(),
  new_wallet_fee: dec.nullable(),
  failure_reason: z.string().nullable(),
  l1_send_amount: dec.nullable(),
  l1_tx_hash: z.string().nullable(),
  created_at: unixMs.nullable(),
  completed_at: unixMs.nullable(),
  updated_at: unixMs,
  note: z.string().nullable(),
});
export type TrackedWithdrawalView = z.infer<typeof TrackedWithdrawalViewSchema>;
/**
 * A file in the withdrawals folder that cannot be read as a whole record (a hand edit, a FIFO, a link, a
 * folder, a broken write by something else): listed apart with why, never sent, never hiding the others.
 * Never its content (it may hold a signed body); main cleans the name and the reason (shared/safeText.ts).
 */
export const DamagedWithdrawalViewSchema = z.object({
  name: z.string().max(512),
  reason: z.string().max(2_000),
  changed_at: unixMs,
});
export type DamagedWithdrawalView = z.infer<typeof DamagedWithdrawalViewSchema>;
export const TrackedWithdrawalsSchema = z.object({ withdrawals: z.array(TrackedWithdrawalViewSchema), damaged: z.array(DamagedWithdrawalViewSchema) });

/** Account reads: balance, positions, fills, funding, deposits, withdrawals; and margin requests. */
import { z } from 'zod';
import { DEPOSIT_STATUSES, MARGIN_REQUEST_STATUSES, WITHDRAWAL_STATUSES } from '../statuses.js';
import { accountId, address, canonicalDecimal, decimalString, nonceNumber, nonceString, reason, signatureHex, splitSignatureSchema, unixMs } from './common.js';

export const BalanceSchema = z.object({ account: z.string(), free_balance: decimalString });
export type Balance = z.infer<typeof BalanceSchema>;

export const PositionSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  market: z.string(),
  /** Signed: positive long, negative short. */
  size: decimalString,
  entry_price: decimalString,
  isolated_margin: decimalString,
  closeable: decimalString,
  status: z.string(),
  version: z.number().int().nonnegative(),
});
export type Position = z.infer<typeof PositionSchema>;
export const PositionsSchema = z.object({ positions: z.array(PositionSchema) });

const pageFields = { limit: z.number().int(), offset: z.number().int(), total: z.number().int().nonnegative() };

export const FillSchema = z.looseObject({
  tid: z.union([z.string(), z.number()]).transform(String),
  price: decimalString,
  size: decimalString,
  fee: decimalString,
  closed_pnl: decimalString.nullable().optional(),
  dir: z.string(),
  is_liquidation: z.boolean(),
  filled_at: unixMs,
  order_id: z.string(),
  market: z.string().optional(),
  side: z.string().optional(),
});
export type Fill = z.infer<typeof FillSchema>;
export const TradeHistorySchema = z.object({ fills: z.array(FillSchema), ...pageFields });

export const FundingPaymentSchema = z.looseObject({
  market: z.string().optional(),
  direction: z.enum(['LONG', 'SHORT']),
  size: decimalString,
  /** Signed: negative paid, positive received. */
  payment: decimalString,
  /** Raw fraction, not a percentage. */
  funding_rate: decimalString,
  epoch_time: unixMs,
  settled_at: unixMs,
});
export type FundingPayment = z.infer<typeof FundingPaymentSchema>;
export const FundingHistorySchema = z.object({ payments: z.array(FundingPaymentSchema), ...pageFields });

export const DepositSchema = z.looseObject({
  tx_hash: z.string(),
  amount: decimalString,
  source: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  detected_at: unixMs,
  credited_at: unixMs.nullable().optional(),
});
export type Deposit = z.infer<typeof DepositSchema>;
export const DepositHistorySchema = z.object({ account: z.string(), deposits: z.array(DepositSchema) });

export const WithdrawalSchema = z.looseObject({
  withdrawal_id: z.string(),
  amount: decimalString,
  l1_send_amount: decimalString.nullable().optional(),
  destination: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  failure_reason: z.string().nullable(),
  l1_tx_hash: z.string().nullable().optional(),
  created_at: unixMs,
  completed_at: unixMs.nullable().optional(),
});
export type Withdrawal = z.infer<typeof WithdrawalSchema>;
export const WithdrawalHistorySchema = z.object({ account: z.string(), withdrawals: z.array(WithdrawalSchema) });

export const WithdrawBodySchema = z.object({
  account_id: accountId,
  /** Whole USDC units as a canonical decimal; signed as base units. */
  amount: canonicalDecimal,
  signature: splitSignatureSchema,
  nonce: nonceString,
  signature_chain_id: z.number().int().positive(),
  destination_chain_id: z.number().int().positive().optional(),
  destination_recipient: address.optional(),
});
export type WithdrawBody = z.infer<typeof WithdrawBodySchema>;

export const WithdrawResultSchema = z.looseObject({
  status: z.enum(['REQUESTED', 'REJECTED']),
  withdrawal_id: z.string().optional(),
  reason: reason.optional(),
  /** On BELOW_MIN_AFTER_FEE. */
  new_wallet_fee: decimalString.optional(),
});
export type WithdrawResult = z.infer<typeof WithdrawResultSchema>;

export const MarginBodySchema = z.object({
  account_id: accountId,
  market: z.string(),
  /** Signed canonical decimal: positive adds, negative removes. */
  amount: z.string(),
  nonce: nonceNumber,
  signature: signatureHex,
});
export type MarginBody = z.infer<typeof MarginBodySchema>;

export const MarginRequestSchema = z.looseObject({
  request_id: z.string().optional(),
  status: z.enum(MARGIN_REQUEST_STATUSES),
  reason: reason.nullable().optional(),
});
export type MarginRequest = z.infer<typeof MarginRequestSchema>;

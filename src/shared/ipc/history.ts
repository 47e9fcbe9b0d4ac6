/** History: paged windows of orders, fills, funding, deposits and withdrawals for a virtualized table, and CSV export. */
import { z } from 'zod';
import { marketSymbol } from '../fieldSchemas.js';
import { dec, unixMs } from './fields.js';
import { ListedOrderViewSchema } from './orders.js';
import { WITHDRAWAL_STATUSES } from './withdrawals.js';

export const HistoryPageRequestSchema = z.strictObject({
  offset: z.number().int().min(0).max(10_000_000),
  limit: z.number().int().min(1).max(200),
  market: marketSymbol.optional(),
});
/** Deposits and withdrawals are per account, with no market. */
export const MoneyHistoryPageRequestSchema = z.strictObject({
  offset: z.number().int().min(0).max(10_000_000),
  limit: z.number().int().min(1).max(200),
});

export const FillViewSchema = z.object({
  tid: z.string(),
  order_id: z.string(),
  market: z.string().nullable(),
  side: z.string().nullable(),
  dir: z.string(),
  price: dec,
  size: dec,
  fee: dec,
  closed_pnl: dec.nullable(),
  is_liquidation: z.boolean(),
  filled_at: unixMs,
});
export type FillView = z.infer<typeof FillViewSchema>;

export const FundingPaymentViewSchema = z.object({
  market: z.string().nullable(),
  direction: z.enum(['LONG', 'SHORT']),
  size: dec,
  /** Signed: negative paid, positive received. */
  payment: dec,
  /** Raw fraction, not a percentage. */
  funding_rate: dec,
  epoch_time: unixMs,
  settled_at: unixMs,
});
export const DepositViewSchema = z.object({
  tx_hash: z.string(),
  amount: dec,
  source: z.string(),
  status: z.enum(['DETECTED', 'CONFIRMED', 'BELOW_MIN']),
  detected_at: unixMs,
  credited_at: unixMs.nullable(),
});
export const WithdrawalRowViewSchema = z.object({
  withdrawal_id: z.string(),
  amount: dec,
  l1_send_amount: dec.nullable(),
  destination: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  failure_reason: z.string().nullable(),
  l1_tx_hash: z.string().nullable(),
  created_at: unixMs,
  completed_at: unixMs.nullable(),
});

function page<T extends z.ZodType>(row: T) {
  return z.object({ rows: z.array(row), total: z.number().int().nonnegative(), offset: z.number().int(), limit: z.number().int() });
}
export const OrderHistoryPageSchema = page(ListedOrderViewSchema);
export const FillsPageSchema = page(FillViewSchema);
export const FundingPageSchema = page(FundingPaymentViewSchema);
export const DepositsPageSchema = page(DepositViewSchema);
export const WithdrawalsPageSchema = page(WithdrawalRowViewSchema);

/**
 * Order history one row per order (src/shared/orders/orderHistory.ts): the latest row, its status changes
 * oldest first, the average fill price, and the price to show (a market order's average fill price).
 */
export const OrderStatusChangeViewSchema = z.object({ status: z.string(), label: z.string(), at: unixMs, reason: z.string().nullable(), filled_size: dec, avg_fill_price: dec.nullable() });
export const OrderHistoryGroupViewSchema = z.object({
  order: ListedOrderViewSchema,
  changes: z.array(OrderStatusChangeViewSchema),
  avg_fill_price: dec.nullable(),
  price: dec.nullable(),
});
export type OrderHistoryGroupView = z.infer<typeof OrderHistoryGroupViewSchema>;
export const OrderHistoryGroupsPageSchema = page(OrderHistoryGroupViewSchema);

export const HISTORY_KINDS = ['orders', 'fills', 'funding', 'deposits', 'withdrawals'] as const;
export const ExportCsvRequestSchema = z.strictObject({ kind: z.enum(HISTORY_KINDS), market: marketSymbol.optional() });
/** saved is false when the user cancelled the save dialog. */
export const ExportCsvResultSchema = z.object({ saved: z.boolean(), file_name: z.string().nullable(), rows: z.number().int() });

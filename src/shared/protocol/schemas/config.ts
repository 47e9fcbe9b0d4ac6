/** GET /markets and GET /config: live configuration. Fees, ratios, limits and minimums come only from here. */
import { z } from 'zod';
import { address, decimalString, positiveDecimalString } from './common.js';

export const MarketSchema = z.object({
  symbol: z.string().min(1),
  venue_symbol: z.string().min(1),
  venue_asset_index: z.number().int().nonnegative(),
  max_leverage: z.number().int().positive(),
  display_max_leverage: z.number().int().positive(),
  initial_margin_ratio: decimalString,
  maintenance_margin_ratio: decimalString,
  maker_fee_rate: decimalString,
  taker_fee_rate: decimalString,
  min_order_value: decimalString,
  /** '0' is the no-ceiling sentinel, never a zero cap. */
  max_notional: decimalString,
  max_open_orders: z.number().int().nonnegative(),
  slippage_bps: z.number().int().nonnegative(),
  tick_size: positiveDecimalString,
  sz_decimals: z.number().int().nonnegative(),
  px_decimals: z.number().int().nonnegative(),
  only_isolated: z.boolean(),
  is_active: z.boolean(),
});
export type Market = z.infer<typeof MarketSchema>;
export const MarketsSchema = z.array(MarketSchema);

const RailSchema = z.object({ min_amount: decimalString, address: address.optional() });

export const FundingConfigSchema = z.object({
  deposit: z
    .object({ hypercore: RailSchema.extend({ address }) })
    .catchall(RailSchema),
  withdrawal: z.object({ min_amount: decimalString, new_wallet_fee: decimalString }),
  trader_share: z.number().min(0).max(1),
});
export type FundingConfig = z.infer<typeof FundingConfigSchema>;
